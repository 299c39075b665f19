/**
 * A table with a value of each type whose parser Drizzle's PGlite driver replaces (timestamps, dates, intervals),
 * for the tests that check values come back as Drizzle reads them: in process (index.test.ts) and through the
 * database thread (pglite-thread.test.ts).
 */
import { sql } from 'drizzle-orm';
import { date, integer, interval, pgTable, timestamp } from 'drizzle-orm/pg-core';
import type { Db } from '../index';

export const probe = pgTable('parser_probe', {
  id: integer('id').primaryKey(),
  at: timestamp('at', { withTimezone: true }).notNull(),
  plain: timestamp('plain').notNull(),
  day: date('day').notNull(),
  span: interval('span').notNull(),
});

/** The row `createProbe` writes, as Drizzle's builder reads it. */
export const PROBE_ROW = { id: 1, at: new Date('2026-05-21T10:30:00Z'), plain: new Date('2026-05-21T10:30:00Z'), day: '2026-05-21', span: '2 days 03:00:00' };

export async function createProbe(db: Db): Promise<void> {
  await db.execute(sql`CREATE TABLE parser_probe (id int PRIMARY KEY, at timestamptz NOT NULL, plain timestamp NOT NULL, day date NOT NULL, span interval NOT NULL)`);
  await db.execute(sql`INSERT INTO parser_probe VALUES (1, '2026-05-21T10:30:00Z', '2026-05-21 10:30:00', '2026-05-21', '2 days 03:00:00')`);
}
