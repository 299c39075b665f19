/**
 * Global agents: created by a tenant (POST /v1/agents/global) with a key shown once, described publicly without
 * their tenant, verified only by the operator, listed in the public directory.
 */
import { randomUUID } from 'node:crypto';
import { type Db, type GlobalAgent, and, asc, desc, eq, globalAgents, isNull } from '@memory/db';
import { LRUCache } from 'lru-cache';
import type { z } from 'zod';
import type { MemoryCategory } from '../categories';
import { KEY_PREFIXES, generateKey, sha256Hex } from '../crypto';
import { Errors } from '../errors';
import { decodeOpaque, encodeOpaque } from '../pagination';
import type { createGlobalAgentRequest, globalAgentCreated, globalAgentPublic } from '../schemas/passport';
import type { Principal } from '../tenants/tenants';

export type GlobalAgentPublic = z.output<typeof globalAgentPublic>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function toPublicAgent(a: GlobalAgent): GlobalAgentPublic {
  return {
    id: a.id,
    name: a.name,
    description: a.description,
    logo_url: a.logoUrl,
    website_url: a.websiteUrl,
    is_verified: a.isVerified === 1,
    default_categories_requested: a.defaultCategoriesRequested as MemoryCategory[],
  };
}

/** Creates an agent of the tenant; `raw_agent_api_key` is in this result once, only its SHA-256 is stored. */
export async function createGlobalAgent(
  db: Db,
  auth: Principal,
  input: z.output<typeof createGlobalAgentRequest>,
): Promise<z.output<typeof globalAgentCreated>> {
  const key = generateKey('agent');
  const [row] = await db
    .insert(globalAgents)
    .values({
      id: randomUUID(),
      tenantId: auth.tenantId,
      name: input.name,
      description: input.description,
      websiteUrl: input.website_url,
      logoUrl: input.logo_url,
      defaultCategoriesRequested: input.default_categories_requested,
      redirectUri: input.redirect_uri,
      keyHash: key.hash,
      keyPrefix: key.displayPrefix,
    })
    .returning();
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    website_url: row.websiteUrl,
    logo_url: row.logoUrl,
    default_categories_requested: row.defaultCategoriesRequested as MemoryCategory[],
    redirect_uri: row.redirectUri,
    is_verified: false,
    created_at: row.createdAt.toISOString(),
    raw_agent_api_key: key.key,
  };
}

/** A live (not revoked) agent by id, or null; ids that are not UUIDs are simply unknown. */
export async function findAgent(db: Db, agentId: string): Promise<GlobalAgent | null> {
  if (!UUID.test(agentId)) return null;
  const [row] = await db
    .select()
    .from(globalAgents)
    .where(and(eq(globalAgents.id, agentId), isNull(globalAgents.revokedAt)))
    .limit(1);
  return row ?? null;
}

export async function requireAgent(db: Db, agentId: string): Promise<GlobalAgent> {
  const agent = await findAgent(db, agentId);
  if (!agent) throw Errors.notFound(`Global agent ${agentId}`);
  return agent;
}

/** GET /v1/agents/global/{agent_id}: public, no tenant, no keys. */
export async function getPublicAgent(db: Db, agentId: string): Promise<GlobalAgentPublic> {
  return toPublicAgent(await requireAgent(db, agentId));
}

/** Operator only (CLI, admin API): marks the agent verified. Verifying again answers the same. */
export async function verifyGlobalAgent(db: Db, agentId: string): Promise<GlobalAgentPublic> {
  if (!UUID.test(agentId)) throw Errors.notFound(`Global agent ${agentId}`);
  const [row] = await db
    .update(globalAgents)
    .set({ isVerified: 1 })
    .where(and(eq(globalAgents.id, agentId), isNull(globalAgents.revokedAt)))
    .returning();
  if (!row) throw Errors.notFound(`Global agent ${agentId}`);
  return toPublicAgent(row);
}

/** The public directory (GET /v1/uui/organisations): listed live agents, verified first, then by name. */
export async function listDirectory(db: Db, opts: { limit: number; cursor?: string }) {
  const offset = opts.cursor ? decodeOffset(opts.cursor) : 0;
  const found = await db
    .select()
    .from(globalAgents)
    .where(and(eq(globalAgents.listed, 1), isNull(globalAgents.revokedAt)))
    .orderBy(desc(globalAgents.isVerified), asc(globalAgents.name), asc(globalAgents.id))
    .limit(opts.limit + 1)
    .offset(offset);
  const more = found.length > opts.limit;
  return {
    items: found.slice(0, opts.limit).map(toPublicAgent),
    limit: opts.limit,
    next_cursor: more ? encodeOpaque({ o: offset + opts.limit }) : null,
  };
}

const decodeOffset = (cursor: string): number =>
  decodeOpaque<{ o: number }>(cursor, ({ o }) => typeof o === 'number' && Number.isInteger(o) && o >= 0 && o <= 1_000_000).o;

export interface AgentAuth {
  id: string;
  tenantId: string;
  name: string;
}

/**
 * Verified agent keys are remembered for 10 seconds (like tenant keys), keyed by their hash; unknown keys are
 * never cached, so a new agent works at once.
 */
const verifiedAgents = new LRUCache<string, AgentAuth>({ max: 10_000, ttl: 10_000 });

/** Forgets every remembered agent key (an operator revoking agents in the database; tests). */
export function forgetVerifiedAgentKeys(): void {
  verifiedAgents.clear();
}

/** The agent a presented `mem_ak_…` key belongs to, or null. */
export async function authenticateAgentKey(db: Db, presented: string): Promise<AgentAuth | null> {
  if (!presented.startsWith(KEY_PREFIXES.agent) || presented.length > 200) return null;
  const hash = sha256Hex(presented);
  const hit = verifiedAgents.get(hash);
  if (hit) return hit;
  const [row] = await db
    .select({ id: globalAgents.id, tenantId: globalAgents.tenantId, name: globalAgents.name })
    .from(globalAgents)
    .where(and(eq(globalAgents.keyHash, hash), isNull(globalAgents.revokedAt)))
    .limit(1);
  if (!row) return null;
  verifiedAgents.set(hash, row);
  return row;
}

/** `Authorization: ApiKey <agent key>` → the agent, or 401 `unauthorized`. */
export async function requireAgentKey(db: Db, presented: string | null): Promise<AgentAuth> {
  const agent = presented ? await authenticateAgentKey(db, presented) : null;
  if (!agent) throw Errors.unauthorized('Send `Authorization: ApiKey <agent key>` with the key returned when the agent was created.');
  return agent;
}
