/**
 * The PGlite client under Drizzle (createDatabase): Drizzle's per-query type parsers are installed on the client
 * once, so each query runs without them and values still come back as Drizzle reads them, in and out of a
 * transaction; every statement that may change its data moves `dataWrites`, so `readUntilWrite` reads again
 * after it (after a write to one of its tables, when the read names them). And the PostgreSQL pool's reconnect delay after failed attempts stays short.
 */
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PROBE_ROW, createProbe, probe } from './testing/parser-probe';
import { type Database, createDatabase, dataWrites, mayHaveChangedData, readUntilWrite, reconnectDelaySeconds, rows } from './index';

let database: Database;
beforeAll(async () => {
  database = createDatabase({ kind: 'pglite', dataDir: null });
  await createProbe(database.db);
});
afterAll(() => database.close());

describe('PGlite under Drizzle', () => {
  it('reads dates, times and intervals as Drizzle expects, through the builder, raw SQL and a transaction', async () => {
    const expected = PROBE_ROW;
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

describe('reads kept until the next write (embedded engine)', () => {
  const counter = (db: Database['db']) => {
    const n = dataWrites(db);
    if (n === null) throw new Error('PGlite has a write counter');
    return n;
  };

  it('counts every statement that may change data, and no read or DML that touched no row', async () => {
    const db = database.db;
    await db.execute(sql`CREATE TABLE IF NOT EXISTS counted (id int PRIMARY KEY, n int NOT NULL)`);
    const moved = async (run: () => Promise<unknown>) => {
      const before = counter(db);
      await run();
      return counter(db) - before;
    };
    expect(await moved(() => rows(db, sql`SELECT count(*) FROM counted`))).toBe(0);
    expect(await moved(() => db.select().from(probe))).toBe(0);
    expect(await moved(() => db.execute(sql`INSERT INTO counted VALUES (1, 1)`))).toBe(1);
    expect(await moved(() => db.execute(sql`UPDATE counted SET n = n + 1 WHERE id = 1`))).toBe(1);
    expect(await moved(() => db.execute(sql`UPDATE counted SET n = 0 WHERE id = 999`))).toBe(0);
    expect(await moved(() => db.execute(sql`DELETE FROM counted WHERE id = 999`))).toBe(0);
    expect(await moved(() => db.execute(sql`INSERT INTO counted VALUES (1, 5) ON CONFLICT DO NOTHING`))).toBe(0);
    expect(await moved(() => db.execute(sql`INSERT INTO counted VALUES (1, 5) ON CONFLICT (id) DO UPDATE SET n = excluded.n`))).toBe(1);
    // a data-modifying CTE reports the outer statement's rows only: it counts whatever the outer count says
    expect(await moved(() => db.execute(sql`WITH u AS (UPDATE counted SET n = 7 WHERE id = 1 RETURNING id) SELECT count(*) FROM u`))).toBe(1);
    // a failed statement counts (when unsure, it is a write)
    expect(await moved(() => db.execute(sql`INSERT INTO counted VALUES (1, 1)`).catch(() => null))).toBe(1);
    // a transaction's statements and its end
    expect(await moved(() => db.transaction(async (tx) => tx.execute(sql`UPDATE counted SET n = 8 WHERE id = 1`)))).toBe(2);
    expect(await moved(() => db.transaction(async (tx) => rows(tx, sql`SELECT n FROM counted`)))).toBe(1);
    const client = (db as unknown as { $client: PGlite }).$client;
    expect(await moved(() => client.exec('UPDATE counted SET n = 9 WHERE id = 1'))).toBe(1);
    expect(await moved(() => client.sql`UPDATE counted SET n = 10 WHERE id = 1`)).toBe(1);
    // the synchronous wire-protocol call stays synchronous (a Sync message: ReadyForQuery comes back)
    const before = counter(db);
    const answer = client.execProtocolRawSync(new Uint8Array([0x53, 0, 0, 0, 4]));
    expect(answer).toBeInstanceOf(Uint8Array);
    expect(counter(db) - before).toBe(1);
  });

  it('classifies statements by their first word and the rows they touched', () => {
    expect(mayHaveChangedData('  select 1', { affectedRows: 0 })).toBe(false);
    expect(mayHaveChangedData('SELECT * FROM t FOR UPDATE', {})).toBe(false);
    expect(mayHaveChangedData('\n UPDATE t SET a = 1', { affectedRows: 0 })).toBe(false);
    expect(mayHaveChangedData('UPDATE t SET a = 1', { affectedRows: 2 })).toBe(true);
    expect(mayHaveChangedData('UPDATE t SET a = 1', {})).toBe(true);
    expect(mayHaveChangedData('WITH x AS (DELETE FROM t RETURNING 1) SELECT 1', { affectedRows: 0 })).toBe(true);
    expect(mayHaveChangedData('-- note\nSELECT 1', {})).toBe(true);
    expect(mayHaveChangedData('CREATE TABLE t (a int)', { affectedRows: 0 })).toBe(true);
    expect(mayHaveChangedData('selected', {})).toBe(true);
  });

  it('keeps a read until a statement may have changed data, and never a read that a write overlapped', async () => {
    const db = database.db;
    await db.execute(sql`CREATE TABLE IF NOT EXISTS kept (id int PRIMARY KEY, n int NOT NULL)`);
    await db.execute(sql`INSERT INTO kept VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET n = 1`);
    let loads = 0;
    const read = () =>
      readUntilWrite(db, 'kept|1', async () => {
        loads++;
        return (await rows<{ n: number }>(db, sql`SELECT n FROM kept WHERE id = 1`))[0].n;
      });
    expect([await read(), await read(), await read()]).toEqual([1, 1, 1]);
    expect(loads).toBe(1);
    // other keys and reads of other tables do not disturb it
    await readUntilWrite(db, 'other', async () => 'x');
    await rows(db, sql`SELECT count(*) FROM kept`);
    expect(await read()).toBe(1);
    expect(loads).toBe(1);
    await db.execute(sql`UPDATE kept SET n = 2 WHERE id = 1`);
    expect(await read()).toBe(2);
    expect(loads).toBe(2);
    // a write that lands while a value is being loaded: that value is returned but not kept
    const overlapped = () =>
      readUntilWrite(db, 'kept|overlapped', async () => {
        loads++;
        const [{ n }] = await rows<{ n: number }>(db, sql`SELECT n FROM kept WHERE id = 1`);
        await db.execute(sql`UPDATE kept SET n = n + 1 WHERE id = 1`);
        return n;
      });
    expect(await overlapped()).toBe(2);
    expect(await overlapped()).toBe(3);
    expect(loads).toBe(4);
    expect(await read()).toBe(4);
    expect(await read()).toBe(4);
    expect(loads).toBe(5);
  });

  it('keeps a read of named tables across writes to other tables, and not across one to its tables', async () => {
    const db = database.db;
    await db.execute(sql`CREATE TABLE IF NOT EXISTS plan_row (id int PRIMARY KEY, n int NOT NULL)`);
    await db.execute(sql`CREATE TABLE IF NOT EXISTS busy_row (id int PRIMARY KEY, n int NOT NULL)`);
    await db.execute(sql`INSERT INTO plan_row VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET n = 1`);
    let loads = 0;
    const read = () =>
      readUntilWrite(
        db,
        'plan|1',
        async () => {
          loads++;
          return (await rows<{ n: number }>(db, sql`SELECT n FROM plan_row WHERE id = 1`))[0].n;
        },
        ['plan_row'],
      );
    expect(await read()).toBe(1);
    // writes to another table, alone, in a WITH statement and in a transaction, keep it
    await db.execute(sql`INSERT INTO busy_row VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET n = busy_row.n + 1`);
    await db.execute(sql`WITH b AS (UPDATE busy_row SET n = n + 1 RETURNING id) SELECT count(*) FROM b`);
    await db.transaction(async (tx) => tx.execute(sql`UPDATE busy_row SET n = n + 1 WHERE id = 1`));
    expect(await read()).toBe(1);
    expect(loads).toBe(1);
    // a write to its table, in a transaction too, reads again
    await db.transaction(async (tx) => tx.execute(sql`UPDATE plan_row SET n = 2 WHERE id = 1`));
    expect(await read()).toBe(2);
    expect(loads).toBe(2);
    await db.execute(sql`UPDATE "plan_row" SET n = 3 WHERE id = 1`);
    expect(await read()).toBe(3);
    expect(loads).toBe(3);
    // a statement whose tables the text cannot tell (a DELETE, `exec`) may have changed any table
    await db.execute(sql`DELETE FROM busy_row WHERE id = 1`);
    expect(await read()).toBe(3);
    expect(loads).toBe(4);
    await (db as unknown as { $client: PGlite }).$client.exec('UPDATE plan_row SET n = 4 WHERE id = 1');
    expect(await read()).toBe(4);
    expect(loads).toBe(5);
    // a read without tables still goes with every write
    let plain = 0;
    const any = () => readUntilWrite(db, 'plan|any', async () => ++plain);
    await any();
    await db.execute(sql`UPDATE busy_row SET n = 0 WHERE id = 1`).then(() => db.execute(sql`INSERT INTO busy_row VALUES (2, 0)`));
    await any();
    expect(plain).toBe(2);
  });

  it('shares a load that is running with the callers that come meanwhile, and keeps no failed load', async () => {
    const db = database.db;
    let loads = 0;
    let release: (n: number) => void = () => {};
    const slow = () =>
      readUntilWrite(
        db,
        'shared|1',
        () =>
          new Promise<number>((resolve) => {
            loads++;
            release = resolve;
          }),
        ['plan_row'],
      );
    const first = slow();
    const second = slow();
    release(7);
    expect(await Promise.all([first, second])).toEqual([7, 7]);
    expect(loads).toBe(1);
    let fails = 0;
    const failing = () => readUntilWrite(db, 'shared|failing', async () => Promise.reject(new Error(`failed ${++fails}`)), ['plan_row']);
    await expect(failing()).rejects.toThrow('failed 1');
    await expect(failing()).rejects.toThrow('failed 2');
  });

  it('does not keep anything on PostgreSQL, where other processes write', async () => {
    const pg = createDatabase({ kind: 'postgres', url: 'postgres://nobody@127.0.0.1:1/none' });
    try {
      expect(dataWrites(pg.db)).toBeNull();
      let loads = 0;
      for (let i = 0; i < 3; i++) await readUntilWrite(pg.db, 'k', async () => ++loads);
      expect(loads).toBe(3);
    } finally {
      await pg.close();
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
