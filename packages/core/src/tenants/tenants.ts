import { randomUUID } from 'node:crypto';
import { type Db, apiKeys, and, asc, eq, isNull, sql, tenants } from '@memory/db';
import { LRUCache } from 'lru-cache';
import { generateKey, sha256Hex } from '../crypto';
import type { PlanId } from '../schemas/memories';
import { type TenantAuth, apiKeyActor } from '../principal';

export interface CreatedTenant {
  tenant_id: string;
  name: string;
  api_key: string;
  api_key_id: string;
}

/** Creates a tenant with its first API key. The key is returned once and only its hash is kept. */
export async function createTenant(db: Db, name: string, opts: { plan?: PlanId } = {}): Promise<CreatedTenant> {
  const tenantId = randomUUID();
  const keyId = randomUUID();
  const key = generateKey('tenant');
  await db.transaction(async (tx) => {
    await tx.insert(tenants).values({ id: tenantId, name, ...(opts.plan && { plan: opts.plan }) });
    await tx.insert(apiKeys).values({
      id: keyId,
      tenantId,
      name: 'default',
      keyHash: key.hash,
      displayPrefix: key.displayPrefix,
      last4: key.last4,
    });
  });
  return { tenant_id: tenantId, name, api_key: key.key, api_key_id: keyId };
}

export interface TenantListItem {
  tenant_id: string;
  name: string;
  plan: string;
  created_at: string;
  /** API keys not revoked. */
  active_api_keys: number;
}

/** Every tenant, oldest first, for the operator (`cli tenant list`). Keys themselves are never readable. */
export async function listTenants(db: Db): Promise<TenantListItem[]> {
  const rows = await db
    .select({
      id: tenants.id,
      name: tenants.name,
      plan: tenants.plan,
      createdAt: tenants.createdAt,
      // written out: inside a select, drizzle names columns without their table, and `id` would be the key's
      keys: sql<number>`(SELECT count(*) FROM api_keys k WHERE k.tenant_id = tenants.id AND k.revoked_at IS NULL)::int`,
    })
    .from(tenants)
    .orderBy(asc(tenants.createdAt), asc(tenants.id));
  return rows.map((r) => ({
    tenant_id: r.id,
    name: r.name,
    plan: r.plan,
    created_at: r.createdAt.toISOString(),
    active_api_keys: Number(r.keys),
  }));
}

export { type Actor, type Principal, type TenantAuth, apiKeyActor } from '../principal';

/**
 * Verified keys are remembered for KEY_CACHE_TTL_MS, keyed by their hash: a revoked key stops working
 * within that time in every process. Unknown keys are not cached, so a new key works at once.
 */
export const KEY_CACHE_TTL_MS = 10_000;
const verified = new LRUCache<string, TenantAuth>({ max: 10_000, ttl: KEY_CACHE_TTL_MS });

/** Drops a key from this process's cache (on revocation). */
export function forgetVerifiedKey(hash: string): void {
  verified.delete(hash);
}

/** Looks a presented key up by its SHA-256; the unique index makes this a single probe. */
export async function authenticateApiKey(db: Db, presented: string): Promise<TenantAuth | null> {
  if (!presented.startsWith('mem_sk_') || presented.length > 200) return null;
  const hash = sha256Hex(presented);
  const hit = verified.get(hash);
  if (hit) return hit;
  const auth = await lookupKey(db, hash);
  if (auth) verified.set(hash, auth);
  return auth;
}

async function lookupKey(db: Db, hash: string): Promise<TenantAuth | null> {
  const [row] = await db
    .select({ tenantId: apiKeys.tenantId, apiKeyId: apiKeys.id })
    .from(apiKeys)
    .where(and(eq(apiKeys.keyHash, hash), isNull(apiKeys.revokedAt)))
    .limit(1);
  return row ? { ...row, actor: apiKeyActor(row.apiKeyId) } : null;
}
