import { randomUUID } from 'node:crypto';
import { type Db, and, endUsers, eq, inArray, passportUsers, sql } from '@memory/db';
import { LRUCache } from 'lru-cache';

/** (tenant, external id) -> internal id. Ids never change; only committed rows are cached. */
const userIds = new LRUCache<string, string>({ max: 100_000 });

type UserKey = { tenantId: string; externalUserId: string };

/**
 * A query prepared once per database handle and name. The user look-ups run on every retrieve and add:
 * building them with the query builder on each call cost more than running them.
 */
const preparedQueries = new WeakMap<Db, Map<string, unknown>>();
function preparedOnce<Q>(db: Db, name: string, build: () => Q): Q {
  let byName = preparedQueries.get(db);
  if (!byName) preparedQueries.set(db, (byName = new Map()));
  let q = byName.get(name) as Q | undefined;
  if (!q) byName.set(name, (q = build()));
  return q;
}

const byExternalId = and(eq(endUsers.tenantId, sql.placeholder('tenantId')), eq(endUsers.externalUserId, sql.placeholder('externalUserId')));

/** The end user by external id. */
export async function findUser(db: Db, tenantId: string, externalUserId: string) {
  const q = preparedOnce(db, 'find_end_user', () =>
    db.select().from(endUsers).where(byExternalId).limit(1).prepare('find_end_user'),
  ) as { execute(p: UserKey): Promise<(typeof endUsers.$inferSelect)[]> };
  const [row] = await q.execute({ tenantId, externalUserId });
  return row ?? null;
}

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
 * Forgets the cached internal id of an erased user (docs/erasure.md). Another process may still hold it: the add
 * path then fails on the missing row (foreign key) and calls this before it tries again.
 */
export function forgetUser(tenantId: string, externalUserId: string): void {
  userIds.delete(`${tenantId}\u0000${externalUserId}`);
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

/** The passport store's `bumpMemoryVersion`: universal retrieval's hot tier compares `passport_users.memory_version`. */
export async function bumpPassportMemoryVersion(db: Db, passportUserId: string): Promise<void> {
  await db
    .update(passportUsers)
    .set({ memoryVersion: sql`${passportUsers.memoryVersion} + 1` })
    .where(eq(passportUsers.id, passportUserId));
}
