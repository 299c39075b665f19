/**
 * The PGlite client under Drizzle (createDatabase): Drizzle's per-query type parsers are installed on the client
 * once, so each query runs without them and values still come back as Drizzle reads them, in and out of a
 * transaction. And the PostgreSQL pool's reconnect delay after failed attempts stays short.
 */
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { date, integer, interval, pgTable, timestamp } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Database, createDatabase, reconnectDelaySeconds, rows } from './index';

const probe = pgTable('parser_probe', {
  id: integer('id').primaryKey(),
  at: timestamp('at', { withTimezone: true }).notNull(),
  plain: timestamp('plain').notNull(),
  day: date('day').notNull(),
  span: interval('span').notNull(),
});

let database: Database;
beforeAll(async () => {
  database = createDatabase({ kind: 'pglite', dataDir: null });
  await database.db.execute(sql`CREATE TABLE parser_probe (id int PRIMARY KEY, at timestamptz NOT NULL, plain timestamp NOT NULL, day date NOT NULL, span interval NOT NULL)`);
  await database.db.execute(
    sql`INSERT INTO parser_probe VALUES (1, '2026-05-21T10:30:00Z', '2026-05-21 10:30:00', '2026-05-21', '2 days 03:00:00')`,
  );
});
afterAll(() => database.close());

describe('PGlite under Drizzle', () => {
  it('reads dates, times and intervals as Drizzle expects, through the builder, raw SQL and a transaction', async () => {
    const expected = { id: 1, at: new Date('2026-05-21T10:30:00Z'), plain: new Date('2026-05-21T10:30:00Z'), day: '2026-05-21', span: '2 days 03:00:00' };
    expect(await database.db.select().from(probe)).toEqual([expected]);
    // raw SQL keeps PostgreSQL's text for these types (what `rows()` callers parse themselves)
    const raw = await rows(database.db, sql`SELECT at, plain, day, span, ARRAY[at] AS ats, ARRAY[day] AS days, ARRAY[1.5]::numeric[] AS nums FROM parser_probe`);
    expect(raw).toEqual([
      { at: '2026-05-21 10:30:00+00', plain: '2026-05-21 10:30:00', day: '2026-05-21', span: '2 days 03:00:00', ats: '{"2026-05-21 10:30:00+00"}', days: '{2026-05-21}', nums: '{1.5}' },
    ]);
    const inTx = await database.db.transaction(async (tx) => ({
      built: await tx.select().from(probe),
      raw: await rows(tx, sql`SELECT at, span FROM parser_probe`),
    }));
    expect(inTx).toEqual({ built: [expected], raw: [{ at: '2026-05-21 10:30:00+00', span: '2 days 03:00:00' }] });
  });

  it("sends Drizzle's queries without per-query parsers (PGlite would merge them into its table each time)", async () => {
    const query = vi.spyOn(PGlite.prototype, 'query');
    try {
      await database.db.select().from(probe);
      await rows(database.db, sql`SELECT 1 AS one`);
      await database.db.transaction(async (tx) => rows(tx, sql`SELECT 2 AS two`));
      const sent = query.mock.calls.map((c) => c[2] as { parsers?: unknown } | undefined);
      expect(sent.length).toBeGreaterThanOrEqual(2);
      for (const options of sent) expect(options?.parsers).toBeUndefined();
      // parsers of other types still reach PGlite
      const own = { 21: (v: string) => `int2:${v}` };
      const result = await (database.db as unknown as { $client: PGlite }).$client.query('SELECT 7::int2 AS n', [], { parsers: own });
      expect(result.rows).toEqual([{ n: 'int2:7' }]);
    } finally {
      query.mockRestore();
    }
  });
});

describe('PostgreSQL pool reconnect delay', () => {
  it('grows with failed attempts and never passes one second, so a database that is back is used at once', () => {
    const worst = (failures: number) => Math.max(...Array.from({ length: 200 }, () => reconnectDelaySeconds(failures)));
    expect(worst(1)).toBeLessThanOrEqual(0.1);
    expect(worst(3)).toBeGreaterThan(worst(1));
    // postgres.js' own delay after 10 failures is 3^10/100 s, capped at 20 s
    for (const failures of [5, 10, 50, 1000]) expect(worst(failures)).toBeLessThanOrEqual(1);
    expect(Math.min(...Array.from({ length: 200 }, () => reconnectDelaySeconds(10)))).toBeGreaterThanOrEqual(0.5);
  });
});
