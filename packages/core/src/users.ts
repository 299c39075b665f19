import { randomUUID } from 'node:crypto';
import { type Db, and, endUsers, eq } from '@memory/db';
import { LRUCache } from 'lru-cache';

/** (tenant, external id) -> internal id. Ids never change; only committed rows are cached. */
const userIds = new LRUCache<string, string>({ max: 100_000 });

export async function findUser(db: Db, tenantId: string, externalUserId: string) {
  const [row] = await db
    .select()
    .from(endUsers)
    .where(and(eq(endUsers.tenantId, tenantId), eq(endUsers.externalUserId, externalUserId)))
    .limit(1);
  return row ?? null;
}

/** Returns the end user's internal id, creating the row on first sight. Safe under concurrency. */
/**
 * Returns the end user's internal id, creating the row on first sight. Safe under concurrency.
 * `cache: true` only outside a transaction: a row from a transaction that rolls back must not be cached.
 */
export async function ensureUser(db: Db, tenantId: string, externalUserId: string, opts: { cache?: boolean } = {}): Promise<string> {
  const key = `${tenantId}\u0000${externalUserId}`;
  const cached = opts.cache ? userIds.get(key) : undefined;
  if (cached) return cached;
  let row = await findUser(db, tenantId, externalUserId);
  if (!row) {
    await db.insert(endUsers).values({ id: randomUUID(), tenantId, externalUserId }).onConflictDoNothing();
    row = await findUser(db, tenantId, externalUserId);
  }
  if (!row) throw new Error('end user row missing after insert');
  if (opts.cache) userIds.set(key, row.id);
  return row.id;
}
