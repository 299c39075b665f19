/**
 * The embedded database on a thread of its own. PGlite runs PostgreSQL compiled to WASM on the thread that calls
 * it: in the server that was the HTTP event loop, where PGlite's WASM and protocol parsing took about half of the
 * time of an add (a CPU profile of the add load, BENCHMARKS.md). Here a worker thread (thread/pglite-thread.mjs)
 * owns the instance and this client is what Drizzle's PGlite driver calls — `query`, `exec` and `transaction`,
 * the part of PGlite's interface it uses:
 *
 * - one message per statement, with its parameters; rows come back as structured clones (date and time values
 *   as the text PostgreSQL sent, which Drizzle's column mappers read, as in process);
 * - a transaction is a `begin` message that answers once PGlite's transaction has started on the thread, the
 *   statements sent with its id, and an `end` message that commits or rolls back. A statement sent without the
 *   id while a transaction is open waits for it on the thread, as it would in process (PGlite is one connection);
 * - a PostgreSQL error arrives with its fields (code, constraint, detail, …), so the error rules read it as
 *   before; a thread that died fails every call with code `CONNECTION_ENDED` (an unavailable database, 503);
 * - the thread does not keep an idle process alive; `close()` closes PGlite and stops the thread.
 *
 * Per-query type parsers are functions and cannot cross threads: the thread installs Drizzle's (the only ones
 * the service passes) in its instance's table, and a query with any other parsers is refused.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

export interface ThreadResult {
  rows: unknown[];
  fields: { name: string; dataTypeID: number }[];
  affectedRows?: number;
}

interface QueryOptions {
  rowMode?: 'array' | 'object';
  parsers?: Record<number, unknown>;
}

/** The part of PGlite's client interface Drizzle's driver and migrator call, inside a transaction too. */
export interface ThreadClient {
  query(sql: string, params?: unknown[], options?: QueryOptions): Promise<ThreadResult>;
  exec(sql: string): Promise<ThreadResult[]>;
  transaction<T>(run: (tx: ThreadClient) => Promise<T>): Promise<T>;
}

export interface PGliteThread extends ThreadClient {
  close(): Promise<void>;
}

type Request = { op: 'query'; sql: string; params: unknown[]; rowMode?: string; tx?: number } | { op: 'exec'; sql: string; tx?: number } | { op: 'begin' } | { op: 'end'; tx: number; commit: boolean } | { op: 'close' };

type Reply = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: Record<string, unknown> & { message: string; name?: string } };

/** The worker's file: MEMORY_DB_THREAD_FILE, beside this package's source, or packages/db/thread above `cwd`. */
export function findPGliteThreadFile(cwd = process.cwd()): string | null {
  const name = path.join('thread', 'pglite-thread.mjs');
  const candidates: string[] = [];
  if (process.env.MEMORY_DB_THREAD_FILE) candidates.push(path.resolve(/*turbopackIgnore: true*/ process.env.MEMORY_DB_THREAD_FILE));
  try {
    candidates.push(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', name));
  } catch {
    // bundled: import.meta.url is not a file URL
  }
  for (let dir = path.resolve(/*turbopackIgnore: true*/ cwd), i = 0; i < 6; i++, dir = path.dirname(dir)) {
    candidates.push(path.join(/*turbopackIgnore: true*/ dir, 'packages', 'db', name));
  }
  return candidates.find((c) => existsSync(c)) ?? null;
}

function rebuildError(plain: Record<string, unknown> & { message: string; name?: string }): Error {
  const err = new Error(plain.message);
  for (const [key, value] of Object.entries(plain)) if (key !== 'message') Object.defineProperty(err, key, { value, enumerable: key !== 'name', writable: true, configurable: true });
  return err;
}

/**
 * Starts the thread on `dataDir` (null: in memory). `keepTextTypes`: the type oids of Drizzle's per-query parsers,
 * which keep the text PostgreSQL sent; the thread installs them, and a query may pass exactly those (or none).
 */
export function startPGliteThread(dataDir: string | null, file: string, keepTextTypes: readonly number[]): PGliteThread {
  const worker = new Worker(file, { workerData: { dataDir, keepTextTypes } });
  const drizzleParsers = [...keepTextTypes].sort((a, b) => a - b).join(',');
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  let nextId = 1;
  let dead: Error | null = null;
  worker.unref();

  const failAll = (err: Error) => {
    dead ??= err;
    for (const call of pending.values()) call.reject(err);
    pending.clear();
    worker.unref();
  };
  worker.on('message', (reply: Reply) => {
    const call = pending.get(reply.id);
    if (!call) return;
    pending.delete(reply.id);
    if (pending.size === 0) worker.unref();
    if (reply.ok) call.resolve(reply.result);
    else call.reject(rebuildError(reply.error));
  });
  const ended = (detail: string) => Object.assign(new Error(`the database thread ${detail}`), { code: 'CONNECTION_ENDED' });
  worker.on('error', (err) => failAll(Object.assign(ended('failed'), { cause: err })));
  worker.on('exit', (code) => failAll(ended(`exited (code ${code})`)));

  const send = <T>(request: Request): Promise<T> => {
    if (dead) return Promise.reject(dead);
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      if (pending.size === 0) worker.ref();
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      worker.postMessage({ ...request, id });
    });
  };

  const client = (tx?: number): ThreadClient => ({
    query(sql, params = [], options) {
      const parsers = options?.parsers;
      if (parsers && Object.keys(parsers).join(',') !== drizzleParsers) {
        return Promise.reject(new Error('per-query type parsers cannot be sent to the database thread'));
      }
      return send<ThreadResult>({ op: 'query', sql, params, rowMode: options?.rowMode, tx });
    },
    exec: (sql) => send<ThreadResult[]>({ op: 'exec', sql, tx }),
    async transaction<T>(run: (inner: ThreadClient) => Promise<T>): Promise<T> {
      // Drizzle nests with savepoints on the transaction's own client; PGlite has no nested transaction either
      if (tx !== undefined) throw new Error('a transaction cannot be started inside another one (use a savepoint)');
      const id = await send<number>({ op: 'begin' });
      let result: T;
      try {
        result = await run(client(id));
      } catch (err) {
        await send({ op: 'end', tx: id, commit: false }).catch(() => {});
        throw err;
      }
      await send({ op: 'end', tx: id, commit: true });
      return result;
    },
  });

  return {
    ...client(),
    async close() {
      if (!dead) await send({ op: 'close' }).catch(() => {});
      await worker.terminate();
    },
  };
}
