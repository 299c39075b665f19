/**
 * The passport access log's retention (packages/core/src/universal/access-log.ts) on an in-memory PGlite with the
 * real migrations: each write drops that user's entries older than the window and beyond the newest N, and never
 * another user's. The HTTP surface is in tests/integration/passport-memories.test.ts.
 */
import { PASSPORT_ACCESS_LOG_RETENTION, listAccessLog, recordAgentRead } from '@memory/core';
import { type Database, eq, passportAccessLog, rows, sql } from '@memory/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPassportFixture, openTestDatabase } from './test-support';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
}, 60_000);
afterAll(async () => {
  await database.close();
});

const DAY = 86_400_000;
const read = (passportUserId: string, agentId: string, categories: string[] = ['fact']) =>
  ({ passportUserId, agent: { id: agentId, name: 'Reader' }, kind: 'retrieve', channel: 'rest', categories }) as const;
const countOf = async (passportUserId: string) =>
  (await rows<{ n: number }>(database.db, sql`SELECT count(*)::int AS n FROM passport_access_log WHERE passport_user_id = ${passportUserId}`))[0].n;

describe('passport access log retention', () => {
  it('drops the user’s entries older than the window at the next write, not another user’s', async () => {
    const a = await createPassportFixture(database, { grant: { categories: ['fact'], accessType: 'read_only' } });
    const b = await createPassportFixture(database, { grant: { categories: ['fact'], accessType: 'read_only' } });
    const now = new Date();
    const old = new Date(now.getTime() - (PASSPORT_ACCESS_LOG_RETENTION.days + 1) * DAY);
    await recordAgentRead(database.db, read(a.passportUserId, a.agentId), old);
    await recordAgentRead(database.db, read(b.passportUserId, b.agentId), old);
    expect(await countOf(a.passportUserId)).toBe(1);

    await recordAgentRead(database.db, read(a.passportUserId, a.agentId, ['preference', 'fact', 'fact']), now);
    const page = await listAccessLog(database.db, a.passportUserId, { limit: 10 });
    expect(page.items).toEqual([
      expect.objectContaining({ memories_returned: 3, categories: ['fact', 'preference'], agent: { id: a.agentId, name: expect.any(String) } }),
    ]);
    // b's old entry waits for b's next write
    expect(await countOf(b.passportUserId)).toBe(1);
  });

  it('keeps at most the newest N entries per user', async () => {
    const a = await createPassportFixture(database, { grant: { categories: ['fact'], accessType: 'read_only' } });
    const max = PASSPORT_ACCESS_LOG_RETENTION.maxEntries;
    const start = Date.now() - DAY;
    // fill to the bound directly (one INSERT), then let two writes through the real path
    await database.db.execute(sql`
      INSERT INTO passport_access_log (id, passport_user_id, agent_id, agent_name, kind, channel, memories_returned, categories, created_at)
      SELECT gen_random_uuid(), ${a.passportUserId}, ${a.agentId}, 'Reader', 'retrieve', 'rest', 1, '["fact"]'::jsonb,
             ${new Date(start).toISOString()}::timestamptz + (i || ' seconds')::interval
      FROM generate_series(1, ${max}) AS i`);
    expect(await countOf(a.passportUserId)).toBe(max);
    await recordAgentRead(database.db, read(a.passportUserId, a.agentId), new Date());
    await recordAgentRead(database.db, read(a.passportUserId, a.agentId), new Date(Date.now() + 1000));
    expect(await countOf(a.passportUserId)).toBe(max);
    // the two oldest went
    const oldest = await database.db
      .select({ createdAt: passportAccessLog.createdAt })
      .from(passportAccessLog)
      .where(eq(passportAccessLog.passportUserId, a.passportUserId))
      .orderBy(passportAccessLog.createdAt)
      .limit(1);
    expect(oldest[0].createdAt.getTime()).toBe(start + 3_000);
  });
});
