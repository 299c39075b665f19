/**
 * The embedded database on its own thread (pglite-thread.ts, thread/pglite-thread.mjs): what Drizzle reads is what
 * it reads in process, transactions commit, roll back and keep other statements out until they end, PostgreSQL's
 * errors arrive with their fields, the write count moves as in process, the data directory is written, and a
 * thread that dies fails its calls as an unavailable database.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROBE_ROW, createProbe, probe } from './testing/parser-probe';
import { type Database, createDatabase, dataWrites, rows } from './index';
import { findPGliteThreadFile, startPGliteThread } from './pglite-thread';

let database: Database;
beforeAll(async () => {
  database = createDatabase({ kind: 'pglite', dataDir: null, thread: true });
  await createProbe(database.db);
  await database.db.execute(sql`CREATE TABLE items (id int PRIMARY KEY, note text)`);
});
afterAll(() => database.close());

const ids = async () => (await rows<{ id: number }>(database.db, sql`SELECT id FROM items ORDER BY id`)).map((r) => r.id);

describe('PGlite on its own thread', () => {
  it('is the engine the server opens by default, found beside this package', () => {
    expect(database.describe).toBe('pglite:memory (own thread)');
    expect(findPGliteThreadFile()).toMatch(/packages\/db\/thread\/pglite-thread\.mjs$/);
  });

  it('reads dates, times, intervals, JSON and numbers as Drizzle reads them in process', async () => {
    const expected = PROBE_ROW;
    expect(await database.db.select().from(probe)).toEqual([expected]);
    const raw = await rows(database.db, sql`SELECT at, span, ARRAY[day] AS days, ARRAY[1.5]::numeric[] AS nums, '{"a":[1]}'::jsonb AS j, ${'x'}::text AS p FROM parser_probe`);
    expect(raw).toEqual([{ at: '2026-05-21 10:30:00+00', span: '2 days 03:00:00', days: '{2026-05-21}', nums: '{1.5}', j: { a: [1] }, p: 'x' }]);
    const inTx = await database.db.transaction(async (tx) => tx.select().from(probe));
    expect(inTx).toEqual([expected]);
  });

  it('commits a transaction, rolls one back when it throws, and rolls back only a savepoint Drizzle nests', async () => {
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`INSERT INTO items VALUES (1, 'kept')`);
    });
    await expect(
      database.db.transaction(async (tx) => {
        await tx.execute(sql`INSERT INTO items VALUES (2, 'dropped')`);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`INSERT INTO items VALUES (3, 'outer')`);
      await tx.transaction(async (inner) => {
        await inner.execute(sql`INSERT INTO items VALUES (4, 'inner')`);
        inner.rollback();
      }).catch(() => {});
    });
    expect(await ids()).toEqual([1, 3]);
  });

  it('keeps a statement sent outside an open transaction waiting until the transaction ends', async () => {
    let outsideDone = false;
    let outside: Promise<number[]> | undefined;
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`INSERT INTO items VALUES (10, 'in tx')`);
      outside = ids().then((r) => {
        outsideDone = true;
        return r;
      });
      // a statement of the transaction sent after it is answered first: the outside one still waits
      await tx.execute(sql`SELECT 1`);
      expect(outsideDone).toBe(false);
    });
    expect(await outside).toContain(10);
  });

  it('passes PostgreSQL errors on with their fields, as Drizzle wraps them in process', async () => {
    const err = await database.db.execute(sql`INSERT INTO items VALUES (1, 'again')`).catch((e: unknown) => e);
    const cause = (err as { cause?: Record<string, unknown> }).cause;
    expect(cause).toBeInstanceOf(Error);
    expect(cause).toMatchObject({ code: '23505', constraint: 'items_pkey', message: expect.stringContaining('duplicate key') });
  });

  it('refuses per-query parsers other than Drizzle’s (functions cannot cross threads)', async () => {
    const client = (database.db as unknown as { $client: { query(q: string, p: unknown[], o: unknown): Promise<unknown> } }).$client;
    await expect(client.query('SELECT 7::int2 AS n', [], { parsers: { 21: (v: string) => v } })).rejects.toThrow(/parsers cannot be sent/);
  });

  it('moves the write count on writes and transactions, not on reads', async () => {
    const before = dataWrites(database.db);
    expect(before).not.toBeNull();
    await ids();
    expect(dataWrites(database.db)).toBe(before);
    await database.db.execute(sql`UPDATE items SET note = 'x' WHERE id = 1`);
    expect(dataWrites(database.db)).toBe((before as number) + 1);
    await database.db.execute(sql`UPDATE items SET note = 'x' WHERE id = 999`);
    expect(dataWrites(database.db)).toBe((before as number) + 1);
  });

  it('writes the data directory, which opens again after close', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'memory-thread-'));
    try {
      const first = createDatabase({ kind: 'pglite', dataDir: dir, thread: true });
      await first.db.execute(sql`CREATE TABLE kept (v text)`);
      await first.db.execute(sql`INSERT INTO kept VALUES ('still here')`);
      await first.close();
      const second = createDatabase({ kind: 'pglite', dataDir: dir });
      expect(await rows(second.db, sql`SELECT v FROM kept`)).toEqual([{ v: 'still here' }]);
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('fails every call of a thread that died with CONNECTION_ENDED (an unavailable database)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'memory-thread-'));
    const broken = path.join(dir, 'broken.mjs');
    writeFileSync(broken, "throw new Error('no database here');\n");
    try {
      const thread = startPGliteThread(null, broken, []);
      await expect(thread.query('SELECT 1')).rejects.toMatchObject({ code: 'CONNECTION_ENDED' });
      await expect(thread.query('SELECT 1')).rejects.toMatchObject({ code: 'CONNECTION_ENDED' });
      await thread.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
