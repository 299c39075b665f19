import { REVIEW_DECISIONS, REVIEW_KINDS, REVIEW_STATUSES } from '@memory/db';
import { z } from 'zod';
import { MEMORY_CATEGORIES } from '../categories';
import { externalUserId } from './common';
import { LIMITS } from './limits';
import { memoryRecord } from './memories';

/** Documented bounds of writer priorities (docs/provenance.md). Higher wins. */
export const PRIORITY_MIN = 0;
export const PRIORITY_MAX = 1000;

const priority = z
  .number()
  .int('must be an integer')
  .min(PRIORITY_MIN, `must be at least ${PRIORITY_MIN}`)
  .max(PRIORITY_MAX, `must be at most ${PRIORITY_MAX}`);

export const authorityRules = z
  .object({
    default_priority: priority,
    categories: z
      .record(z.string(), priority)
      .default({})
      .superRefine((map, ctx) => {
        for (const key of Object.keys(map)) {
          if (!(MEMORY_CATEGORIES as readonly string[]).includes(key)) {
            ctx.addIssue({ code: 'custom', path: [key], message: `is not a memory category (${MEMORY_CATEGORIES.join(', ')})` });
          }
        }
      }),
  })
  .strict()
  .meta({ id: 'AuthorityRules', description: 'Priority of the writer per memory category; higher wins a conflict.' });

export const serviceKey = z
  .string()
  .min(1)
  .max(LIMITS.serviceKeyChars)
  .regex(/^[a-z0-9][a-z0-9_-]*$/, 'must be a slug: lower-case letters, digits, "-" and "_"');

export const createServiceWriterRequest = z
  .object({
    service_key: serviceKey.refine((k) => k !== 'default', '"default" is reserved for adds without a source block'),
    display_name: z.string().trim().min(1).max(200),
    authority_rules: authorityRules,
    api_key_id: z.string().uuid().nullish(),
  })
  .strict()
  .meta({ id: 'CreateServiceWriterRequest' });

export const serviceWriterView = z
  .object({
    id: z.string().uuid(),
    service_key: z.string(),
    display_name: z.string(),
    authority_rules: authorityRules,
    api_key_id: z.string().uuid().nullable(),
    created_at: z.string().datetime(),
  })
  .meta({ id: 'ServiceWriter' });

export const createApiKeyRequest = z
  .object({ name: z.string().trim().min(1).max(100) })
  .strict()
  .meta({ id: 'CreateApiKeyRequest' });

export const apiKeyView = z
  .object({
    id: z.string().uuid(),
    name: z.string(),
    display_prefix: z.string(),
    last4: z.string(),
    created_at: z.string().datetime(),
    revoked_at: z.string().datetime().nullable(),
  })
  .meta({ id: 'ApiKey' });

export const SOURCE_EVENTS_LIMIT_MAX = 100;

export const listSourceEventsQuery = z.object({
  external_user_id: externalUserId.optional(),
  source_service: serviceKey.or(z.literal('default')).optional(),
  limit: z.coerce.number().int().min(1).max(SOURCE_EVENTS_LIMIT_MAX).default(20),
  cursor: z.string().max(512).optional(),
});

export const sourceEventView = z
  .object({
    id: z.string().uuid(),
    service: z.string(),
    event_id: z.string(),
    external_user_id: z.string(),
    writer_id: z.string().uuid().nullable(),
    agent_id: z.string().nullable(),
    observed_at: z.string().datetime(),
    received_at: z.string().datetime(),
    payload_hash: z.string(),
    payload_redacted: z.boolean(),
    scope: z.record(z.string(), z.unknown()),
    evidence: z.array(z.object({ source_type: z.string(), reference: z.string() })),
    job_id: z.string().uuid().nullable(),
    job_status: z.string().nullable(),
  })
  .meta({ id: 'SourceEvent' });

export const listReviewsQuery = z.object({
  status: z.enum(['open', 'resolved']).optional(),
  kind: z.enum(REVIEW_KINDS).optional(),
  external_user_id: externalUserId.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(512).optional(),
});

/**
 * A review: a conflict (the question, both claims as memories with provenance) or a memory held before it is
 * written (`pending_write`: `claims` holds that one memory), and how it was decided.
 */
export const reviewView = z
  .object({
    id: z.string().uuid(),
    kind: z.enum(REVIEW_KINDS).meta({
      description: '`conflict`: equally trusted claims disagree (docs/conflicts.md). `pending_write`: a new memory waits for approval (docs/review-before-write.md).',
    }),
    external_user_id: z.string(),
    subject: z.string(),
    question: z.string(),
    status: z.enum(REVIEW_STATUSES),
    claims: z.array(memoryRecord),
    resolution_memory_id: z.string().uuid().nullable(),
    decision: z
      .enum(REVIEW_DECISIONS)
      .nullable()
      .meta({ description: '`chosen` (a conflict), `approved`, `edited` (approved with new content) or `rejected`; null while open.' }),
    resolved_by: z.string().nullable(),
    resolution_note: z.string().nullable(),
    created_at: z.string(),
    resolved_at: z.string().nullable(),
  })
  .meta({ id: 'Review' });

/** Longest content an admin may give a held memory when editing it (the longest a message may be is far more). */
export const EDITED_CONTENT_MAX_CHARS = 2000;

/**
 * A conflict is resolved with `chosen_memory_id`; a pending write with `action` (`approve` or `reject`), and
 * `content` to edit the memory as it is approved. Which one a review takes is checked against its kind (422).
 */
/** The resolve body's fields; the console's procedure adds the review id to them. */
export const resolveReviewFields = z.object({
  chosen_memory_id: z.string().uuid().optional().meta({ description: 'A conflict review: the claim to keep.' }),
  action: z.enum(['approve', 'reject']).optional().meta({ description: 'A pending_write review: approve or reject the held memory.' }),
  content: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(EDITED_CONTENT_MAX_CHARS, `must be at most ${EDITED_CONTENT_MAX_CHARS} characters`)
    .optional()
    .meta({ description: 'With `action: "approve"`: the memory\'s content as the admin edited it (the ledger keeps both).' }),
  note: z.string().trim().max(1000).optional(),
});

/** Either a conflict's choice or a pending write's action, and `content` only to approve. */
export function checkResolveReview(v: { chosen_memory_id?: string; action?: string; content?: string }, ctx: z.RefinementCtx) {
  if ((v.chosen_memory_id === undefined) === (v.action === undefined)) {
    ctx.addIssue({ code: 'custom', path: ['action'], message: 'give either chosen_memory_id (a conflict) or action (a pending write)' });
  }
  if (v.content !== undefined && v.action !== 'approve') {
    ctx.addIssue({ code: 'custom', path: ['content'], message: 'is only allowed with action "approve"' });
  }
}

export const resolveReviewRequest = resolveReviewFields.strict().superRefine(checkResolveReview).meta({ id: 'ResolveReviewRequest' });

export type ResolveReviewInput = z.output<typeof resolveReviewRequest>;
