/**
 * One database factory for both engines: PostgreSQL through postgres.js when a URL is given,
 * otherwise the embedded PGlite (Postgres in WASM) kept in a data directory, on a thread of its own when asked (pglite-thread.ts).
 * Callers get the same Drizzle API either way; raw SQL goes through `rows()` so both result shapes agree.
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite, type QueryOptions, type Transaction, types } from '@electric-sql/pglite';
import { type SQL, sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { type ThreadClient, findPGliteThreadFile, startPGliteThread } from './pglite-thread';
import { pooledClient } from './postgres-client';
import { type TransactionWrites, type WriteCounter, mayHaveChangedData, newWriteCounter, noteWrite, stampOf, writtenTables } from './writes';
import * as schema from './schema';

export * as schema from './schema';
export * from './schema';
export { acquireDataDirLock, releaseDataDirLock, readDataDirLock, DataDirLockedError } from './lock';
export { type FullRow, toColumnNames } from './json-row';
export { mayHaveChangedData, writtenTables } from './writes';
export { PLAN_EACH_TIME, guardDriverStartupFailures } from './postgres-client';

/**
 * Both drivers' databases are this type, and so is the handle `db.transaction(async (tx) => …)` passes (Drizzle's
 * PgTransaction extends PgDatabase with the same schema): domain functions take a `Db` and run inside or outside a
 * transaction alike, with no cast.
 */
// biome-ignore lint: both drivers share this base type
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export type DatabaseConfig =
  | {
      kind: 'postgres';
      url: string;
      poolSize?: number;
      connectTimeoutSeconds?: number;
      statementTimeoutMs?: number;
      /** Prepare repeated statements once per connection (default true; `pooledClient` in postgres-client.ts). */
      preparedStatements?: boolean;
      onQuery?: QueryObserver;
    }
  | {
      kind: 'pglite';
      dataDir: string | null;
      onQuery?: QueryObserver;
      /** Run PGlite on a worker thread of its own (pglite-thread.ts; default false: on the calling thread). */
      thread?: boolean;
    };

/** Called with every statement Drizzle sends (benchmarks count statements per step: `npm run bench:stages`). */
export type QueryObserver = (query: string) => void;

const observe = (onQuery: QueryObserver | undefined) => (onQuery ? { logger: { logQuery: (query: string) => onQuery(query) } } : {});

export interface Database {
  kind: 'postgres' | 'pglite';
  db: Db;
  /** Human-readable location without credentials, safe to log. */
  describe: string;
  close(): Promise<void>;
}

export function createDatabase(config: DatabaseConfig): Database {
  if (config.kind === 'postgres') {
    const client = postgres(config.url, {
      max: config.poolSize ?? 10,
      // a database that is down answers requests with 503 within this bound instead of holding them (docs/operations.md)
      connect_timeout: config.connectTimeoutSeconds ?? 5,
      // postgres.js waits before reconnecting a connection whose last attempt failed, 3^n/100 s after n failures
      // in a row, up to 20 s: after a minute of outage a request (or the job runner) waited up to 20 s on a
      // database that was back. Connections open only on demand, so there is no storm to hold back: wait
      // at most a second (docs/operations.md).
      backoff: reconnectDelaySeconds,
      connection: { statement_timeout: config.statementTimeoutMs ?? 30_000 },
      onnotice: () => {},
      // Keep Date objects for timestamptz; bigint as number for counters.
      types: { bigint: postgres.BigInt },
    });
    const db = drizzlePostgres(pooledClient(client, { prepare: config.preparedStatements !== false }), { schema, ...observe(config.onQuery) });
    return {
      kind: 'postgres',
      db,
      describe: describePostgresUrl(config.url),
      close: () => client.end({ timeout: 5 }),
    };
  }
  if (config.dataDir) mkdirSync(config.dataDir, { recursive: true });
  const describe = config.dataDir ? `pglite:${config.dataDir}` : 'pglite:memory';
  const writes = newWriteCounter();
  const threadFile = config.thread ? findPGliteThreadFile() : null;
  if (config.thread && !threadFile) throw new Error('the database thread (packages/db/thread/pglite-thread.mjs) was not found; set MEMORY_DB_THREAD_FILE');
  if (threadFile) {
    const thread = startPGliteThread(config.dataDir, threadFile, Object.keys(DRIZZLE_PGLITE_PARSERS).map(Number));
    const db = drizzlePglite(countedThreadClient(thread, writes) as unknown as PGlite, { schema, ...observe(config.onQuery) });
    Object.defineProperty(db, WRITES, { value: writes });
    return { kind: 'pglite', db, describe: `${describe} (own thread)`, close: () => thread.close() };
  }
  const client = new PGlite(config.dataDir ?? undefined);
  const db = drizzlePglite(instanceParsers(client, client, writes), { schema, ...observe(config.onQuery) });
  Object.defineProperty(db, WRITES, { value: writes });
  return { kind: 'pglite', db, describe, close: () => client.close() };
}

/** Seconds before a pooled connection tries again after `failures` failed attempts in a row: 50 ms doubling, at most 1 s, jittered. */
export function reconnectDelaySeconds(failures: number): number {
  return (0.5 + Math.random() / 2) * Math.min(0.05 * 2 ** failures, 1);
}

/**
 * The type parsers Drizzle's PGlite driver passes with every query: date, time and interval values (and their
 * arrays, and numeric[]) come back as the text PostgreSQL sent, which Drizzle's column mappers then read.
 */
const keepText = (value: string) => value;
const DRIZZLE_PGLITE_PARSERS: Record<number, (value: string) => string> = {
  [types.TIMESTAMP]: keepText,
  [types.TIMESTAMPTZ]: keepText,
  [types.INTERVAL]: keepText,
  [types.DATE]: keepText,
  1231: keepText, // numeric[]
  1115: keepText, // timestamp[]
  1185: keepText, // timestamptz[]
  1187: keepText, // interval[]
  1182: keepText, // date[]
};
const DRIZZLE_PARSER_TYPES = Object.keys(DRIZZLE_PGLITE_PARSERS).join(',');

/**
 * PGlite merges per-query parsers into its table of about a hundred on every query (`{ ...parsers, ...own }`),
 * which cost more than running `select 1` (0.23 against 0.11 ms in process). This wrapper puts Drizzle's parsers
 * (`DRIZZLE_PGLITE_PARSERS`) in the client's own table and drops them from each query, so every value is parsed
 * the same way without the merge. The table is checked before each query, because PGlite writes array parsers
 * into it when it starts (and on `refreshArrayTypes`), over Drizzle's ones for date, time and numeric arrays.
 * Parsers for other types, should a query pass any, still go through.
 */
function instanceParsers<C extends PGlite | Transaction>(client: C, root: PGlite, writes: WriteCounter, inTx?: TransactionWrites): C {
  const table = () => {
    for (const [oid, parse] of Object.entries(DRIZZLE_PGLITE_PARSERS)) if (root.parsers[oid] !== parse) root.parsers[oid] = parse;
  };
  const counted = countWrites(writes, inTx);
  return new Proxy(client, {
    get(target, prop, receiver) {
      if (prop === 'query') {
        return (query: string, params?: unknown[], options?: QueryOptions) => {
          const own = options?.parsers;
          if (own === undefined || Object.keys(own).join(',') !== DRIZZLE_PARSER_TYPES) return counted(query, target.query(query, params, options));
          table();
          return counted(query, target.query(query, params, { ...options, parsers: undefined }));
        };
      }
      // a transaction's own client is wrapped too; its end (commit or rollback) counts as a write of its tables
      if (prop === 'transaction') {
        return <T>(run: (tx: Transaction) => Promise<T>) => {
          const own: TransactionWrites = { tables: new Set(), unknown: false };
          return endOf(writes, own, (target as PGlite).transaction((tx) => run(instanceParsers(tx, root, writes, own))));
        };
      }
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      // anything else that runs SQL (exec, sql, the wire protocol) counts as a write when it settles; the
      // synchronous protocol call keeps its synchronous result and counts at once
      if (typeof prop === 'string' && /^exec.*Sync$/.test(prop)) {
        return (...args: unknown[]) => {
          noteWrite(writes, null, inTx);
          return value.apply(target, args);
        };
      }
      if (typeof prop === 'string' && /^(exec|sql)/.test(prop)) {
        return (...args: unknown[]) => counted(null, Promise.resolve(value.apply(target, args)));
      }
      return value.bind(target);
    },
  });
}

/**
 * Counts a statement once it has run, whether it succeeded or not (see `dataWrites`), as a write of the tables
 * its text names (writes.ts); a null query (no statement text to judge by: `exec`) counts as a write of any table.
 */
const countWrites =
  (writes: WriteCounter, inTx?: TransactionWrites) =>
  <R>(query: string | null, run: Promise<R>): Promise<R> =>
    run.then(
      (result) => {
        if (query === null || mayHaveChangedData(query, result)) noteWrite(writes, query === null ? null : writtenTables(query), inTx);
        return result;
      },
      (err: unknown) => {
        noteWrite(writes, query === null ? null : writtenTables(query), inTx);
        throw err;
      },
    );

/** A transaction's end, committed or rolled back, counts as a write of every table its statements wrote. */
function endOf<T>(writes: WriteCounter, own: TransactionWrites, run: Promise<T>): Promise<T> {
  return run.finally(() => noteWrite(writes, own.unknown ? null : [...own.tables]));
}

/** The database thread's client with the same write count as `instanceParsers` keeps in process. */
function countedThreadClient<C extends ThreadClient>(client: C, writes: WriteCounter, inTx?: TransactionWrites): ThreadClient {
  const counted = countWrites(writes, inTx);
  return {
    query: (query, params, options) => counted(query, client.query(query, params, options)),
    exec: (query) => counted(null, client.exec(query)),
    transaction: (run) => {
      const own: TransactionWrites = { tables: new Set(), unknown: false };
      return endOf(writes, own, client.transaction((tx) => run(countedThreadClient(tx, writes, own))));
    },
  };
}

// Kept on the Db object under a registered symbol, not in a module-level map: Next.js bundles this package once
// per route, and every copy must find the counter of the one Db the process opened.
const WRITES = Symbol.for('@memory/db.dataWrites');
const MEMOS = Symbol.for('@memory/db.readUntilWrite');

/**
 * On the embedded engine, the number of statements so far that may have changed data; null on PostgreSQL.
 * PGlite is one connection in this process (the data directory is locked to it), so every change to its data
 * goes through this Db: a value read while the number stayed the same is still what the database holds, and
 * a process-local cache of a hot read is exact when it is dropped whenever the number moves (docs/operations.md,
 * "Reads kept between writes on the embedded engine").
 * A statement counts once it has run. Only a SELECT, and an INSERT, UPDATE or DELETE that touched no row, do
 * not count; a statement that failed, a WITH statement, a transaction's end, `exec` and anything else do.
 * Each also counts for the tables its text names, or for any table when it names none it surely changes
 * (writes.ts): `readUntilWrite` with `tables` reads again only after a write that may have changed one of them.
 * On PostgreSQL other connections and processes write, so there is no such number.
 */
export function dataWrites(db: Db): number | null {
  return (db as { [WRITES]?: WriteCounter })[WRITES]?.count ?? null;
}

/** Reads `readUntilWrite` keeps at most, across keys (all are dropped when there would be more). */
const MEMO_MAX_KEYS = 10_000;
type Memos = Map<string, { stamp: number; value: Promise<unknown> }>;

/**
 * `load()`'s value for `key`, read once and then kept until the next statement that may change data (see
 * `dataWrites`) in one of `tables`, or in any table when `tables` is not given; on PostgreSQL always `load()`.
 * `tables` must name every table `load` reads. Callers that come while a load runs with no write since it started
 * share it (after a write, every concurrent request would otherwise read the same row again); a value whose load
 * a write overlapped is returned but never reused, and a failed load is not kept. Callers share the kept value:
 * they must not change it. Keys are the caller's, prefixed by what they read.
 */
export async function readUntilWrite<T>(db: Db, key: string, load: () => Promise<T>, tables?: readonly string[]): Promise<T> {
  const writes = (db as { [WRITES]?: WriteCounter })[WRITES];
  if (!writes) return load();
  const holder = db as { [MEMOS]?: Memos };
  const memos = (holder[MEMOS] ??= new Map());
  const stamp = stampOf(writes, tables);
  const kept = memos.get(key);
  if (kept?.stamp === stamp) return kept.value as Promise<T>;
  // kept under the stamp seen before the load: a write that ran meanwhile moved it, so it is never used
  const value = load();
  if (memos.size >= MEMO_MAX_KEYS && !memos.has(key)) memos.clear();
  const entry = { stamp, value };
  memos.set(key, entry);
  value.catch(() => {
    if (memos.get(key) === entry) memos.delete(key);
  });
  return value;
}

function describePostgresUrl(url: string): string {
  try {
    const u = new URL(url);
    return `postgres://${u.hostname}:${u.port || 5432}${u.pathname}`;
  } catch {
    return 'postgres';
  }
}

/** Finds the migrations folder: MEMORY_MIGRATIONS_DIR, or packages/db/migrations above the working directory. */
export function findMigrationsFolder(start = process.cwd()): string {
  const override = process.env.MEMORY_MIGRATIONS_DIR;
  if (override) return path.resolve(/*turbopackIgnore: true*/ override);
  let dir = path.resolve(/*turbopackIgnore: true*/ start);
  for (;;) {
    const candidate = path.join(/*turbopackIgnore: true*/ dir, 'packages', 'db', 'migrations');
    if (existsSync(path.join(/*turbopackIgnore: true*/ candidate, 'meta', '_journal.json'))) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`migrations folder not found above ${start}; set MEMORY_MIGRATIONS_DIR`);
    dir = parent;
  }
}

/**
 * Applies pending migrations. On PostgreSQL an advisory lock serialises concurrent starts of several processes.
 */
export async function runMigrations(config: DatabaseConfig, database: Database): Promise<void> {
  const migrationsFolder = findMigrationsFolder();
  if (config.kind === 'pglite') {
    await migratePglite(database.db as never, { migrationsFolder });
    return;
  }
  const raw = postgres(config.url, { max: 1, onnotice: () => {} });
  // the pool's wrapper: a start during a database restart meets what the pool meets (postgres-client.ts)
  const client = pooledClient(raw, { prepare: false });
  try {
    await client.unsafe('select pg_advisory_lock(727274)');
    await migratePostgres(drizzlePostgres(client), { migrationsFolder });
    await client.unsafe('select pg_advisory_unlock(727274)');
  } finally {
    await raw.end({ timeout: 5 });
  }
}

/** Runs raw SQL and returns its rows, whichever driver is underneath. */
export async function rows<T = Record<string, unknown>>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown;
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

export { sql };
export { and, asc, desc, eq, gt, gte, inArray, isNull, lt, lte, ne, or } from 'drizzle-orm';
export type { SQL } from 'drizzle-orm';
