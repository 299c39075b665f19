/**
 * The postgres.js client Drizzle is given: repeated statements prepared once per connection, and a statement that
 * meets an error the pool carried over from before a database restart sent again once (see `pooledClient`).
 */
import type postgres from 'postgres';

/** Statements with at most this many parameters are prepared once per connection (see `pooledClient`). */
const PREPARE_MAX_PARAMETERS = 64;

/**
 * Put first in a statement that must be planned each time it runs rather than once per connection: one whose
 * best plan depends on how many rows a table holds right now. A prepared statement's generic plan is kept until
 * the table is analysed again; the job claim's, made while the queue was nearly empty (sequential scans in a
 * nested loop), took 0.5 s per claim once 3,500 jobs were queued, and autovacuum had not analysed the table yet.
 */
export const PLAN_EACH_TIME = '/* plan each time */';

/**
 * SQLSTATE 57P01 (admin shutdown) and 57P02 (crash shutdown): the server ended the session. postgres.js (3.4.9)
 * never rejects a statement with them while it runs — a session killed mid-statement rejects it with
 * CONNECTION_CLOSED — but it keeps the error on the connection and, once the connection has reconnected to the
 * restarted server, rejects the first statement given to it with that old error before sending it
 * (porsager/postgres#1223; reproduced in tests/integration/db-outage.test.ts). Such a statement never reached the
 * server, so sending it once more is safe.
 */
const CARRIED_OVER_SQLSTATES = new Set(['57P01', '57P02']);

export function isCarriedOverTermination(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && CARRIED_OVER_SQLSTATES.has(code);
}

type Run = (sql: postgres.Sql) => unknown;

/**
 * Wraps the pool's client for Drizzle:
 * - `prepare`: Drizzle sends every query as an unnamed statement, which postgres.js runs in two round trips
 *   (Parse and Describe, wait for the parameter types, then Bind and Execute) and PostgreSQL parses and plans each
 *   time. Each distinct statement is prepared once per connection instead (postgres.js keeps them until the
 *   connection is recycled, `max_lifetime`), so a repeated query is one round trip with no parsing. Statements
 *   with many parameters — multi-row inserts and long IN lists, whose text varies with the row count — stay
 *   unnamed, so the per-connection cache holds the service's fixed set of statements, not one per batch size; so
 *   do the statements that start with `PLAN_EACH_TIME`. DATABASE_PREPARED_STATEMENTS=off (a transaction-mode
 *   PgBouncer) keeps them all unnamed.
 * - A statement outside a transaction, and a transaction whose BEGIN did not get through, that fail with a
 *   termination carried over from before a restart (`isCarriedOverTermination`) run once more instead of
 *   answering 503 on a database that is back. Statements inside a transaction are not repeated: its connection
 *   is gone and the error ends it.
 */
export function pooledClient(client: postgres.Sql, options: { prepare: boolean }): postgres.Sql {
  return wrap(client, options, true);
}

function wrap(client: postgres.Sql, options: { prepare: boolean }, outermost: boolean): postgres.Sql {
  return new Proxy(client, {
    get(target, prop, receiver) {
      if (prop === 'unsafe') {
        return (query: string, params?: unknown[], opts?: Record<string, unknown>) => {
          const make = () =>
            target.unsafe(query, params as never, {
              ...opts,
              ...(options.prepare
                ? { prepare: (params?.length ?? 0) <= PREPARE_MAX_PARAMETERS && !query.startsWith(PLAN_EACH_TIME) }
                : {}),
            });
          return outermost ? sentAgainOnce(make) : make();
        };
      }
      // a transaction's (and a savepoint's) own client is wrapped too, without the retry
      if (prop === 'begin' || prop === 'savepoint') {
        return (...args: unknown[]) => {
          const run = args.pop() as Run;
          const method = Reflect.get(target, prop) as (...a: unknown[]) => Promise<unknown>;
          let began = false;
          const attempt = () =>
            method.call(target, ...args, (sql: postgres.Sql) => {
              began = true;
              return run(wrap(sql, options, false));
            });
          if (!outermost) return attempt();
          return attempt().catch((err: unknown) => {
            if (!began && isCarriedOverTermination(err)) return attempt();
            throw err;
          });
        };
      }
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * The query Drizzle awaits, directly or through `.values()` (the only two ways it reads a result), made again
 * once when the first attempt met a carried-over termination. postgres.js queries are lazy: nothing is sent
 * before the first `then`.
 */
function sentAgainOnce<Q extends { values(): unknown }>(make: () => Q): Q {
  let asValues = false;
  let result: Promise<unknown> | undefined;
  const attempt = () => Promise.resolve(asValues ? make().values() : make());
  const run = () => {
    result ??= attempt().catch((err: unknown) => {
      if (isCarriedOverTermination(err)) return attempt();
      throw err;
    });
    return result;
  };
  const query = {
    values() {
      asValues = true;
      return run();
    },
    then: (onFulfilled?: (v: unknown) => unknown, onRejected?: (e: unknown) => unknown) => run().then(onFulfilled, onRejected),
    catch: (onRejected?: (e: unknown) => unknown) => run().catch(onRejected),
    finally: (onFinally?: () => void) => run().finally(onFinally),
  };
  return query as unknown as Q;
}

/**
 * postgres.js (3.4.9) opens every new connection with a query for the array types (`fetch_types`) whose promise
 * nothing awaits: when that query fails — the connection killed while it starts, as in a database restart or a
 * failover, or cancelled — its error escapes as an unhandled rejection (porsager/postgres#1192, #1205, #1223), and
 * a Node process with no listener for those ends (the worker process has none; Next.js logs them in the web
 * server). The statement that opened the connection is answered either way (sent again by `pooledClient` when the
 * error is carried over to it), so this failure needs a warning, not the end of the process.
 */
export function isDriverTypesQueryFailure(reason: unknown): boolean {
  if (!reason || typeof reason !== 'object') return false;
  const { name, query } = reason as { name?: unknown; query?: unknown };
  return name === 'PostgresError' && typeof query === 'string' && query.includes('pg_catalog.pg_type');
}

/**
 * The process's listener for unhandled rejections: a failed types query (`isDriverTypesQueryFailure`) goes to
 * `onFailure`; any other rejection is thrown again, as Node does when nobody listens, unless another listener
 * (Next.js's) takes it.
 */
export function driverRejectionListener(onFailure: (err: Error) => void, othersListening: () => boolean) {
  return (reason: unknown) => {
    if (isDriverTypesQueryFailure(reason)) return onFailure(reason as Error);
    if (!othersListening()) throw reason;
  };
}

const GUARDED = Symbol.for('memory.db.driverRejectionGuard');

/** Installs `driverRejectionListener` once per process (web server and worker process call it at start). */
export function guardDriverStartupFailures(onFailure: (err: Error) => void): void {
  const state = globalThis as { [GUARDED]?: boolean };
  if (state[GUARDED]) return;
  state[GUARDED] = true;
  process.on('unhandledRejection', driverRejectionListener(onFailure, () => process.listenerCount('unhandledRejection') > 1));
}
