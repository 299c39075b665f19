/**
 * A passport user's grants (which categories an agent may read, and whether it may write) and connections
 * (which tenant account, through which agent, is linked to the passport). Every function takes the passport
 * user from the session: another user's grant or connection is 404, never 403.
 */
import { randomUUID } from 'node:crypto';
import { type Db, type GrantStatus, and, asc, desc, eq, globalAgents, grants, isNull, passportConnections, sql, uuiTokens } from '@memory/db';
import type { MemoryCategory } from '../categories';
import { Errors } from '../errors';
import type { AccessType } from '../schemas/passport';
import { type GlobalAgentPublic, requireAgent, toPublicAgent } from './agents';
import { recordWebhookEvent } from '../webhooks/outbox';
import { recordPassportAudit } from './audit';
import { externalUserIdHint } from './rules';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface GrantView {
  id: string;
  agent: GlobalAgentPublic;
  categories: MemoryCategory[];
  access_type: AccessType;
  status: GrantStatus;
  created_at: string;
  updated_at: string;
}

/**
 * Creates the (user, agent) grant, or replaces its categories and access type and makes it active again.
 * Used by POST /v1/uui/me/grants and by the consent approval (inside its transaction).
 */
export async function upsertGrant(
  db: Db,
  passportUserId: string,
  input: { agent_id: string; categories: MemoryCategory[]; access_type: AccessType },
): Promise<{ id: string; created: boolean }> {
  const [existing] = await db
    .select({ id: grants.id, status: grants.status })
    .from(grants)
    .where(and(eq(grants.passportUserId, passportUserId), eq(grants.agentId, input.agent_id)))
    .limit(1);
  const [row] = await db
    .insert(grants)
    .values({ id: randomUUID(), passportUserId, agentId: input.agent_id, categories: input.categories, accessType: input.access_type })
    .onConflictDoUpdate({
      target: [grants.passportUserId, grants.agentId],
      set: { categories: input.categories, accessType: input.access_type, status: 'active', revokedAt: null, updatedAt: sql`now()` },
    })
    .returning({ id: grants.id });
  const created = !existing;
  await recordPassportAudit(db, passportUserId, created ? 'grant.created' : 'grant.updated', {
    grant_id: row.id,
    agent_id: input.agent_id,
    categories: input.categories,
    access_type: input.access_type,
  });
  if (!existing || existing.status !== 'active') {
    await recordGrantEvent(db, 'grant.created', input.agent_id, {
      grant_id: row.id,
      agent_id: input.agent_id,
      categories: input.categories,
      access_type: input.access_type,
    });
  }
  return { id: row.id, created };
}

/**
 * grant.created / grant.revoked go to the tenant that publishes the agent. The passport user stays anonymous to
 * the tenant (no email, no passport id): the tenant learns which of its agents gained or lost which access.
 */
async function recordGrantEvent(db: Db, type: 'grant.created' | 'grant.revoked', agentId: string, data: Record<string, unknown>) {
  const [agent] = await db.select({ tenantId: globalAgents.tenantId }).from(globalAgents).where(eq(globalAgents.id, agentId)).limit(1);
  if (agent) await recordWebhookEvent(db, agent.tenantId, type, data);
}

/** POST /v1/uui/me/grants: the agent must exist (404 otherwise). */
export async function saveGrant(
  db: Db,
  passportUserId: string,
  input: { agent_id: string; categories: MemoryCategory[]; access_type: AccessType },
): Promise<{ grant: GrantView; created: boolean }> {
  await requireAgent(db, input.agent_id);
  const { id, created } = await upsertGrant(db, passportUserId, input);
  const [grant] = (await listGrants(db, passportUserId, { grantId: id })) as GrantView[];
  return { grant, created };
}

/** The user's active grants with each agent's public profile, most recently changed first. */
export async function listGrants(db: Db, passportUserId: string, opts: { grantId?: string } = {}): Promise<GrantView[]> {
  const found = await db
    .select({ g: grants, a: globalAgents })
    .from(grants)
    .innerJoin(globalAgents, eq(globalAgents.id, grants.agentId))
    .where(
      and(
        eq(grants.passportUserId, passportUserId),
        opts.grantId ? eq(grants.id, opts.grantId) : eq(grants.status, 'active'),
      ),
    )
    .orderBy(desc(grants.updatedAt), asc(grants.id));
  return found.map(({ g, a }) => ({
    id: g.id,
    agent: toPublicAgent(a),
    categories: g.categories as MemoryCategory[],
    access_type: g.accessType as AccessType,
    status: g.status,
    created_at: g.createdAt.toISOString(),
    updated_at: g.updatedAt.toISOString(),
  }));
}

/**
 * Revokes at once: the universal endpoints read the grant's status on every call. Revoking a revoked grant
 * answers the same.
 */
export async function revokeGrant(db: Db, passportUserId: string, grantId: string): Promise<{ id: string; status: 'revoked' }> {
  if (!UUID.test(grantId)) throw Errors.notFound(`Grant ${grantId}`);
  const [row] = await db
    .update(grants)
    .set({ status: 'revoked', revokedAt: sql`coalesce(${grants.revokedAt}, now())`, updatedAt: sql`now()` })
    .where(and(eq(grants.id, grantId), eq(grants.passportUserId, passportUserId)))
    .returning({ id: grants.id, agentId: grants.agentId, revokedNow: sql<boolean>`${grants.revokedAt} = now()` });
  if (!row) throw Errors.notFound(`Grant ${grantId}`);
  if (row.revokedNow) await recordGrantEvent(db, 'grant.revoked', row.agentId, { grant_id: row.id, agent_id: row.agentId });
  await recordPassportAudit(db, passportUserId, 'grant.revoked', { grant_id: row.id, agent_id: row.agentId });
  return { id: row.id, status: 'revoked' };
}

export interface ConnectionView {
  id: string;
  agent: { id: string; name: string; logo_url: string; is_verified: boolean };
  external_user_id_hint: string | null;
  created_at: string;
}

/** The user's live connections (not disconnected), newest first. */
export async function listConnections(db: Db, passportUserId: string): Promise<ConnectionView[]> {
  const found = await db
    .select({ c: passportConnections, a: globalAgents })
    .from(passportConnections)
    .innerJoin(globalAgents, eq(globalAgents.id, passportConnections.agentId))
    .where(and(eq(passportConnections.passportUserId, passportUserId), isNull(passportConnections.disconnectedAt)))
    .orderBy(desc(passportConnections.createdAt), asc(passportConnections.id));
  return found.map(({ c, a }) => ({
    id: c.id,
    agent: { id: a.id, name: a.name, logo_url: a.logoUrl, is_verified: a.isVerified === 1 },
    external_user_id_hint: externalUserIdHint(c.externalUserId),
    created_at: c.createdAt.toISOString(),
  }));
}

/**
 * Disconnects a service: the connection is closed and every X-Service-UUI token issued for it is revoked, in one
 * transaction. The grant stays (it belongs to the agent, not to one account at the service); revoke it separately.
 */
export async function disconnect(db: Db, passportUserId: string, connectionId: string): Promise<{ id: string; disconnected: true }> {
  if (!UUID.test(connectionId)) throw Errors.notFound(`Connection ${connectionId}`);
  const found = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(passportConnections)
      .set({ disconnectedAt: sql`coalesce(${passportConnections.disconnectedAt}, now())` })
      .where(and(eq(passportConnections.id, connectionId), eq(passportConnections.passportUserId, passportUserId)))
      .returning({ id: passportConnections.id, agentId: passportConnections.agentId });
    if (!row) return null;
    await tx
      .update(uuiTokens)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(uuiTokens.connectionId, row.id), isNull(uuiTokens.revokedAt)));
    await recordPassportAudit(tx, passportUserId, 'connection.disconnected', { connection_id: row.id, agent_id: row.agentId });
    return row;
  });
  if (!found) throw Errors.notFound(`Connection ${connectionId}`);
  return { id: found.id, disconnected: true };
}
