/**
 * Request and response schemas of the memory passport (docs/passport.md): global agents, link tokens, the
 * agent's token exchange, passport accounts, grants, connections and the directory. The handlers validate
 * with them and the OpenAPI document is generated from them.
 */
import { z } from 'zod';
import { MEMORY_CATEGORIES } from '../categories';
import { adminEmail } from './email';
import { urlProblem } from './urls';
import { externalUserId, memoryCategory } from './common';

export const PASSPORT_LIMITS = {
  agentNameChars: 100,
  agentDescriptionChars: 1_000,
  urlChars: 2_048,
  tokenChars: 200,
} as const;

/** '' (none) or an absolute https URL (http for localhost). */
const agentUrl = (redirect: boolean, description: string) =>
  z
    .string()
    .trim()
    .max(PASSPORT_LIMITS.urlChars, `must be at most ${PASSPORT_LIMITS.urlChars} characters`)
    .superRefine((v, ctx) => {
      const problem = v === '' ? null : urlProblem(v, { redirect });
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .default('')
    .meta({ description });

/** A set of categories: unknown values are refused, repeats collapse, the order of MEMORY_CATEGORIES is kept. */
const categorySet = (min: number) =>
  z
    .array(memoryCategory)
    .min(min, min ? `choose at least ${min} category` : undefined)
    .max(50)
    .transform((list) => MEMORY_CATEGORIES.filter((c) => list.includes(c)));

export const ACCESS_TYPES = ['read_only', 'read_write'] as const;
export type AccessType = (typeof ACCESS_TYPES)[number];
export const accessType = z.enum(ACCESS_TYPES).meta({
  id: 'AccessType',
  description: '`read_only`: the agent may retrieve the granted categories. `read_write`: it may also add universal memories.',
});

export const createGlobalAgentRequest = z
  .object({
    name: z.string().trim().min(1, 'must not be empty').max(PASSPORT_LIMITS.agentNameChars),
    description: z.string().trim().max(PASSPORT_LIMITS.agentDescriptionChars).default(''),
    website_url: agentUrl(false, '`""` or an absolute https URL (http only for localhost).'),
    logo_url: agentUrl(false, '`""` or an absolute https URL of an image (http only for localhost).'),
    default_categories_requested: categorySet(0)
      .default([])
      .meta({ description: 'Categories preselected on the consent page; the user can change every box.' }),
    redirect_uri: agentUrl(
      true,
      'Where the consent page sends the browser after the user answers, compared exactly. `""` (the default): the ' +
        'consent page itself says the connection is done. Otherwise an absolute https URL (http only for localhost), no fragment.',
    ),
  })
  .strict()
  .meta({ id: 'CreateGlobalAgentRequest' });

export const globalAgentPublic = z
  .object({
    id: z.string().uuid(),
    name: z.string(),
    description: z.string(),
    logo_url: z.string(),
    website_url: z.string(),
    is_verified: z.boolean().meta({ description: 'Set only by the operator of this service (CLI or admin API).' }),
    default_categories_requested: z.array(memoryCategory),
  })
  .meta({ id: 'GlobalAgentPublic', description: 'The public profile of a global agent: never its tenant or keys.' });

export const globalAgentCreated = z
  .object({
    id: z.string().uuid(),
    name: z.string(),
    description: z.string(),
    website_url: z.string(),
    logo_url: z.string(),
    default_categories_requested: z.array(memoryCategory),
    redirect_uri: z.string(),
    is_verified: z.boolean(),
    created_at: z.string().datetime(),
    raw_agent_api_key: z.string().meta({ description: 'The agent key (`mem_ak_…`), shown once: store it in the agent’s backend now.' }),
  })
  .meta({ id: 'GlobalAgentCreated' });

export const createLinkTokenRequest = z
  .object({
    agent_id: z.string().uuid().meta({ description: 'A global agent of the calling tenant.' }),
    external_user_id: externalUserId,
  })
  .strict()
  .meta({ id: 'CreateLinkTokenRequest' });

export const linkTokenCreated = z
  .object({
    link_token: z.string().meta({ description: '`mem_lt_…`, single use. Send the user to `/connect?agent_id=<agent_id>&link_token=<link_token>`.' }),
    expires_in_seconds: z.number().int(),
    expires_at: z.string().datetime(),
    connect_url: z.string().meta({
      description:
        'Where to send the user: `{consent_url}/connect?agent_id=<agent_id>&link_token=<link_token>` (MEMORY_CONSENT_URL, else this service\'s address).',
    }),
  })
  .meta({ id: 'LinkTokenCreated' });

export const passportTokenRequest = z
  .object({ link_token: z.string().min(1).max(PASSPORT_LIMITS.tokenChars) })
  .strict()
  .meta({ id: 'PassportTokenRequest' });

export const passportTokenIssued = z
  .object({
    uui_token: z.string().meta({ description: '`mem_uui_…`, shown once: send it as `X-Service-UUI` on the universal endpoints.' }),
    token_type: z.literal('X-Service-UUI'),
    connection_id: z.string().uuid(),
    external_user_id: z.string(),
    categories: z.array(memoryCategory),
    access_type: accessType.nullable().meta({ description: 'null when the user has revoked the grant since approving.' }),
  })
  .meta({ id: 'PassportTokenIssued' });

export const passportEmail = adminEmail;

export const passportEmailRequest = z.object({ email: passportEmail }).strict().meta({ id: 'PassportEmailRequest' });

export const passportVerifyRequest = z
  .object({ email: passportEmail, code: z.string().trim().min(1).max(20) })
  .strict()
  .meta({ id: 'PassportVerifyRequest' });

export const passportCodeSent = z
  .object({ sent: z.literal(true), expires_in_seconds: z.number().int() })
  .meta({ id: 'PassportCodeSent', description: 'The same answer whether or not the address has a passport.' });

export const passportSessionIssued = z
  .object({
    session_token: z.string().meta({ description: '`mem_ps_…`: send `Authorization: Bearer <session_token>` on /v1/uui/me….' }),
    token_type: z.literal('Bearer'),
    expires_at: z.string().datetime(),
    idle_timeout_seconds: z.number().int(),
    passport: z.object({ id: z.string().uuid(), email: z.string(), created_at: z.string().datetime() }),
  })
  .meta({ id: 'PassportSessionIssued' });

export const passportMe = z
  .object({ id: z.string().uuid(), email: z.string(), created_at: z.string().datetime(), session_expires_at: z.string().datetime() })
  .meta({ id: 'PassportMe' });

export const grantRequest = z
  .object({ agent_id: z.string().uuid(), categories: categorySet(1), access_type: accessType })
  .strict()
  .meta({ id: 'GrantRequest' });

export const grantView = z
  .object({
    id: z.string().uuid(),
    agent: globalAgentPublic,
    categories: z.array(memoryCategory),
    access_type: accessType,
    status: z.enum(['active', 'revoked']),
    created_at: z.string().datetime(),
    updated_at: z.string().datetime(),
  })
  .meta({ id: 'Grant' });

export const connectionView = z
  .object({
    id: z.string().uuid(),
    agent: z.object({ id: z.string().uuid(), name: z.string(), logo_url: z.string(), is_verified: z.boolean() }),
    external_user_id_hint: z
      .string()
      .nullable()
      .meta({ description: 'The last 4 characters of the service’s id for you (`…a1b2`); null for ids of 8 characters or fewer.' }),
    created_at: z.string().datetime(),
  })
  .meta({ id: 'PassportConnection' });

export const directoryQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.string().max(500).optional(),
});
