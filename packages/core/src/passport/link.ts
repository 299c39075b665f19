/**
 * The consent link (docs/passport.md), treated like an OAuth authorization code: the tenant's backend creates a
 * random `mem_lt_…` token bound to (tenant, agent, external user), stored as its SHA-256, expiring after
 * MEMORY_LINK_TOKEN_TTL_SECONDS. The signed-in passport user approves or declines it once; the agent's backend
 * then exchanges the approved token, once, for an X-Service-UUI token. Every state change is one conditional
 * UPDATE … RETURNING, so two concurrent uses cannot both succeed.
 */
import { randomUUID } from 'node:crypto';
import {
  type Db,
  and,
  eq,
  grants,
  gt,
  isNull,
  linkTokens,
  passportConnections,
  sql,
  uuiTokens,
} from '@memory/db';
import { CATEGORY_DESCRIPTIONS, CATEGORY_LABELS, MEMORY_CATEGORIES, type MemoryCategory } from '../categories';
import { KEY_PREFIXES, generateKey, sha256Hex } from '../crypto';
import { ApiError, Errors } from '../errors';
import type { Principal } from '../tenants/tenants';
import type { AccessType } from '../schemas/passport';
import { type AgentAuth, type GlobalAgentPublic, requireAgent, toPublicAgent } from './agents';
import { recordPassportAudit } from './audit';
import { upsertGrant } from './grants';
import { type LinkRefusal, type LinkStatus, linkRefusal, linkStatus } from './rules';

const REFUSALS: Record<LinkRefusal, () => ApiError> = {
  link_token_invalid: () => new ApiError(404, 'link_token_invalid', 'This link token is unknown, or was issued for another agent.'),
  link_token_expired: () => new ApiError(410, 'link_token_expired', 'This link token has expired. Create a new one and send the user again.'),
  link_token_used: () => new ApiError(409, 'link_token_used', 'This link token has already been used; each link token works once.'),
  link_token_declined: () => new ApiError(403, 'link_token_declined', 'The user declined this connection.'),
  link_token_pending: () =>
    new ApiError(409, 'link_token_pending', 'The user has not approved this connection yet. Try again after they return.', {
      headers: { 'Retry-After': '2' },
    }),
};

const hashOf = (token: string): string | null =>
  token.startsWith(KEY_PREFIXES.link) && token.length <= 200 ? sha256Hex(token) : null;

async function findLink(db: Db, token: string) {
  const hash = hashOf(token);
  if (!hash) return null;
  const [row] = await db.select().from(linkTokens).where(eq(linkTokens.tokenHash, hash)).limit(1);
  return row ?? null;
}

/** Throws the refusal for a step that did not match, reading the token's current state. */
async function refuse(db: Db, token: string, step: 'answer' | 'exchange', agentId: string): Promise<never> {
  const reason = linkRefusal(await findLink(db, token), step, agentId, new Date()) ?? 'link_token_expired';
  throw REFUSALS[reason]();
}

/** POST /v1/tenant/memory-passport/link-token: the agent must be one of the calling tenant's (else 404). */
export async function createLinkToken(
  db: Db,
  auth: Principal,
  input: { agent_id: string; external_user_id: string },
  ttlSeconds: number,
): Promise<{ link_token: string; expires_in_seconds: number; expires_at: string }> {
  const agent = await requireAgent(db, input.agent_id);
  if (agent.tenantId !== auth.tenantId) throw Errors.notFound(`Global agent ${input.agent_id}`);
  const token = generateKey('link');
  const expiresAt = new Date(Date.now() + ttlSeconds * 1000);
  await db.insert(linkTokens).values({
    id: randomUUID(),
    tokenHash: token.hash,
    tenantId: auth.tenantId,
    agentId: agent.id,
    externalUserId: input.external_user_id,
    expiresAt,
  });
  return { link_token: token.key, expires_in_seconds: ttlSeconds, expires_at: expiresAt.toISOString() };
}

export interface LinkRequestView {
  status: LinkStatus;
  agent: GlobalAgentPublic;
  categories: { value: MemoryCategory; label: string; description: string }[];
}

/** What the consent page shows: the agent's public profile, every category in plain words, the token's state. */
export async function describeLinkRequest(db: Db, input: { agentId: string; linkToken: string }): Promise<LinkRequestView> {
  const agent = await requireAgent(db, input.agentId);
  const row = await findLink(db, input.linkToken);
  return {
    status: linkStatus(row && row.agentId === agent.id ? row : null, new Date()),
    agent: toPublicAgent(agent),
    categories: MEMORY_CATEGORIES.map((value) => ({ value, label: CATEGORY_LABELS[value], description: CATEGORY_DESCRIPTIONS[value] })),
  };
}

const redirectOf = (uri: string): string | null => (uri === '' ? null : uri);

/**
 * The signed-in user approves: in one transaction the token becomes `approved` (only from pending and unexpired),
 * the grant is created or updated, and the connection (tenant, agent, external_user_id ↔ passport user) is
 * created or re-opened. Returns the agent's registered redirect_uri exactly, or null when it has none.
 */
export async function approveLink(
  db: Db,
  input: { passportUserId: string; agentId: string; linkToken: string; categories: MemoryCategory[]; accessType: AccessType },
): Promise<{ redirectTo: string | null; grantId: string; connectionId: string }> {
  const agent = await requireAgent(db, input.agentId);
  const hash = hashOf(input.linkToken);
  const done = await db.transaction(async (tx) => {
    const [link] = hash
      ? await tx
          .update(linkTokens)
          .set({ status: 'approved', passportUserId: input.passportUserId, consumedAt: sql`now()` })
          .where(
            and(eq(linkTokens.tokenHash, hash), eq(linkTokens.agentId, agent.id), eq(linkTokens.status, 'pending'), gt(linkTokens.expiresAt, sql`now()`)),
          )
          .returning()
      : [];
    if (!link) return null;
    const grant = await upsertGrant(tx, input.passportUserId, { agent_id: agent.id, categories: input.categories, access_type: input.accessType });
    const [connection] = await tx
      .insert(passportConnections)
      .values({ id: randomUUID(), passportUserId: input.passportUserId, tenantId: link.tenantId, agentId: agent.id, externalUserId: link.externalUserId })
      .onConflictDoUpdate({
        target: [passportConnections.passportUserId, passportConnections.agentId, passportConnections.externalUserId],
        set: { disconnectedAt: null },
      })
      .returning({ id: passportConnections.id });
    await recordPassportAudit(tx, input.passportUserId, 'link.approved', {
      agent_id: agent.id,
      connection_id: connection.id,
      categories: input.categories,
      access_type: input.accessType,
    });
    return { grantId: grant.id, connectionId: connection.id };
  });
  if (!done) return refuse(db, input.linkToken, 'answer', agent.id);
  return { redirectTo: redirectOf(agent.redirectUri), ...done };
}

/**
 * The user declines (signed in or not: the link is theirs). Declining a declined token again answers the same,
 * so a double click does no harm; any other used or expired token is refused.
 */
export async function declineLink(
  db: Db,
  input: { passportUserId: string | null; agentId: string; linkToken: string },
): Promise<{ redirectTo: string | null }> {
  const agent = await requireAgent(db, input.agentId);
  const hash = hashOf(input.linkToken);
  const [link] = hash
    ? await db
        .update(linkTokens)
        .set({ status: 'declined', passportUserId: input.passportUserId, consumedAt: sql`now()` })
        .where(and(eq(linkTokens.tokenHash, hash), eq(linkTokens.agentId, agent.id), eq(linkTokens.status, 'pending'), gt(linkTokens.expiresAt, sql`now()`)))
        .returning()
    : [];
  if (link) {
    if (input.passportUserId) await recordPassportAudit(db, input.passportUserId, 'link.declined', { agent_id: agent.id });
    return { redirectTo: redirectOf(agent.redirectUri) };
  }
  const current = await findLink(db, input.linkToken);
  if (current && current.agentId === agent.id && current.status === 'declined') return { redirectTo: redirectOf(agent.redirectUri) };
  return refuse(db, input.linkToken, 'answer', agent.id);
}

export interface IssuedUuiToken {
  uui_token: string;
  token_type: 'X-Service-UUI';
  connection_id: string;
  external_user_id: string;
  categories: MemoryCategory[];
  access_type: AccessType | null;
}

/**
 * POST /v1/agents/passport-token: the agent's backend swaps the approved link token it already knows for the
 * user's X-Service-UUI token. Only that agent, only once (approved → exchanged), only before the token expires.
 * The X-Service-UUI token never appears in a URL; it is returned once here and stored as its SHA-256.
 */
export async function exchangeLinkToken(db: Db, agent: AgentAuth, linkToken: string): Promise<IssuedUuiToken> {
  const hash = hashOf(linkToken);
  const issued = await db.transaction(async (tx) => {
    const [link] = hash
      ? await tx
          .update(linkTokens)
          .set({ status: 'exchanged' })
          .where(
            and(eq(linkTokens.tokenHash, hash), eq(linkTokens.agentId, agent.id), eq(linkTokens.status, 'approved'), gt(linkTokens.expiresAt, sql`now()`)),
          )
          .returning()
      : [];
    if (!link || !link.passportUserId) return null;
    const [connection] = await tx
      .select()
      .from(passportConnections)
      .where(
        and(
          eq(passportConnections.passportUserId, link.passportUserId),
          eq(passportConnections.agentId, agent.id),
          eq(passportConnections.externalUserId, link.externalUserId),
          isNull(passportConnections.disconnectedAt),
        ),
      )
      .limit(1);
    // The user disconnected between approving and the exchange: their latest answer wins.
    if (!connection) throw REFUSALS.link_token_declined();
    const token = generateKey('uui');
    await tx.insert(uuiTokens).values({
      id: randomUUID(),
      tokenHash: token.hash,
      passportUserId: link.passportUserId,
      agentId: agent.id,
      connectionId: connection.id,
    });
    const [grant] = await tx
      .select()
      .from(grants)
      .where(and(eq(grants.passportUserId, link.passportUserId), eq(grants.agentId, agent.id), eq(grants.status, 'active')))
      .limit(1);
    await recordPassportAudit(tx, link.passportUserId, 'link.exchanged', { agent_id: agent.id, connection_id: connection.id });
    return {
      uui_token: token.key,
      token_type: 'X-Service-UUI' as const,
      connection_id: connection.id,
      external_user_id: link.externalUserId,
      categories: grant ? (grant.categories as MemoryCategory[]) : [],
      access_type: grant ? (grant.accessType as AccessType) : null,
    };
  });
  if (!issued) return refuse(db, linkToken, 'exchange', agent.id);
  return issued;
}
