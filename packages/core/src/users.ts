import { randomUUID } from 'node:crypto';
import { type Db, and, endUsers, eq } from '@memory/db';

export async function findUser(db: Db, tenantId: string, externalUserId: string) {
  const [row] = await db
    .select()
    .from(endUsers)
    .where(and(eq(endUsers.tenantId, tenantId), eq(endUsers.externalUserId, externalUserId)))
    .limit(1);
  return row ?? null;
}

/** Returns the end user's internal id, creating the row on first sight. Safe under concurrency. */
export async function ensureUser(db: Db, tenantId: string, externalUserId: string): Promise<string> {
  const existing = await findUser(db, tenantId, externalUserId);
  if (existing) return existing.id;
  await db.insert(endUsers).values({ id: randomUUID(), tenantId, externalUserId }).onConflictDoNothing();
  const created = await findUser(db, tenantId, externalUserId);
  if (!created) throw new Error('end user row missing after insert');
  return created.id;
}
