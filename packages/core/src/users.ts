import { randomUUID } from 'node:crypto';
import { type Db, and, endUsers, eq, inArray, sql } from '@memory/db';
import { LRUCache } from 'lru-cache';

/** (tenant, external id) -> internal id. Ids never change; only committed rows are cached. */
const userIds = new LRUCache<string, string>({ max: 100_000 });

/**
 * The end user by external id. On every retrieve and add, so the query is prepared once per database
 * handle: building it with the query builder on each call cost more than running it.
 */
function findUserQuery(db: Db): FindUserQuery {
  let q = prepared.get(db);
  if (!q) {
    q = db
      .select()
      .from(endUsers)
      .where(and(eq(endUsers.tenantId, sql.placeholder('tenantId')), eq(endUsers.externalUserId, sql.placeholder('externalUserId'))))
      .limit(1)
      .prepare('find_end_user');
    prepared.set(db, q as FindUserQuery);
  }
  return q;
}
type FindUserQuery = { execute(p: { tenantId: string; externalUserId: string }): Promise<(typeof endUsers.$inferSelect)[]> };
const prepared = new WeakMap<Db, FindUserQuery>();

export async function findUser(db: Db, tenantId: string, externalUserId: string) {
  const [row] = await findUserQuery(db).execute({ tenantId, externalUserId });
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

/**
 * Marks the users' memories as changed: retrieval's hot tier compares `memory_version` on every retrieve, so a
 * cached set is dropped at once. Call it in the transaction that changes the memories.
 */
export async function bumpMemoryVersion(db: Db, userIds: string[]): Promise<void> {
  if (userIds.length === 0) return;
  const ids = [...new Set(userIds)].sort();
  await db
    .update(endUsers)
    .set({ memoryVersion: sql`${endUsers.memoryVersion} + 1` })
    .where(ids.length === 1 ? eq(endUsers.id, ids[0]) : inArray(endUsers.id, ids));
}
