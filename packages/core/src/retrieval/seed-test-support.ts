/** A tenant, an end user, one source event and memories written straight into the tables, for tests of stored rows. */
import { type Db, memories, sourceEvents } from '@memory/db';
import { createTenant } from '../tenants/tenants';
import { ensureUser } from '../users';

/** What a seeded memory stores besides its text (its analysis columns, say); `{}` for the row alone. */
export type SeededColumns = Partial<Pick<typeof memories.$inferInsert, 'terms' | 'vector' | 'vectorModel'>>;

export async function seedMemories(
  db: Db,
  contents: readonly string[],
  columns: (content: string, i: number) => SeededColumns = () => ({}),
): Promise<{ tenantId: string; userId: string; sourceEventId: string; observedAt: Date; ids: string[] }> {
  const tenantId = (await createTenant(db, `seed-${crypto.randomUUID()}`)).tenant_id;
  const userId = await ensureUser(db, tenantId, 'u1');
  const sourceEventId = crypto.randomUUID();
  const observedAt = new Date('2024-05-02T10:00:00Z');
  await db.insert(sourceEvents).values({
    id: sourceEventId,
    tenantId,
    userId,
    service: 'default',
    eventId: `evt_${sourceEventId}`,
    eventIdGenerated: 0,
    observedAt,
    receivedAt: observedAt,
    payloadHash: 'h',
    payload: null,
  });
  const ids = contents.map(() => crypto.randomUUID());
  for (const [i, content] of contents.entries()) {
    await db.insert(memories).values({
      id: ids[i],
      tenantId,
      userId,
      content,
      category: 'fact',
      status: 'active',
      importance: 0.5,
      confidence: 0.9,
      fingerprint: `fp-${i}`,
      sourceEventId,
      messageIndices: [0],
      ...columns(content, i),
    });
  }
  return { tenantId, userId, sourceEventId, observedAt, ids };
}
