/**
 * A pooled connection across a database restart, against a throwaway cluster (never the shared PostgreSQL), and a
 * connection killed while it opens, through a proxy in front of the shared one (which keeps running).
 *
 * A statement that was running when PostgreSQL stopped leaves its session's termination (SQLSTATE 57P01) on the
 * pooled connection; postgres.js rejected the first statement after the restart with it, so a request answered
 * 503 on a database that was back (porsager/postgres#1223). packages/db `pooledClient` sends such a statement, and
 * a transaction whose BEGIN met it, once more.
 *
 * A connection killed while postgres.js fetches the array types (the first query of every new connection) left
 * that query's error as an unhandled rejection, which ends a worker process (porsager/postgres#1192, #1223);
 * `guardDriverStartupFailures` turns it into a warning.
 */
import net from 'node:net';
import { type Database, createDatabase, rows, runMigrations, sql, tenants } from '@memory/db';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, freePort, startWorker } from './server';
import { ThrowawayCluster } from './throwaway-cluster';

let cluster: ThrowawayCluster;
let database: Database;

beforeAll(async () => {
  cluster = new ThrowawayCluster(await freePort());
  cluster.init();
  cluster.start();
  // one pooled connection, so the statement after the restart meets the connection that was killed
  const config = { kind: 'postgres' as const, url: cluster.url(), poolSize: 1 };
  database = createDatabase(config);
  await runMigrations(config, database);
}, 120_000);

afterAll(async () => {
  await database?.close();
  cluster?.remove();
});

/** Stops the cluster while a statement runs on the pool's one connection, then starts it again. */
async function restartDuringStatement(): Promise<unknown> {
  const running = rows(database.db, sql`SELECT pg_sleep(30)`).then(
    () => null,
    (err: unknown) => err,
  );
  // the statement is on the server once pg_stat_activity shows it (asked on a connection of its own)
  const probe = postgres(cluster.url(), { max: 1, onnotice: () => {} });
  while ((await probe`SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep(30)%'`)[0].n === 0) {
    await new Promise((r) => setTimeout(r, 20));
  }
  await probe.end();
  await cluster.stopAsync();
  const err = await running;
  cluster.start();
  return err;
}

describe('a pooled connection across a PostgreSQL restart', () => {
  it('answers the first raw statement after the restart', async () => {
    const killed = await restartDuringStatement();
    // the statement that was running failed with the connection, not with a result
    expect(killed).toMatchObject({ cause: { code: 'CONNECTION_CLOSED' } });
    expect(await rows(database.db, sql`SELECT 1 AS one`)).toEqual([{ one: 1 }]);
  }, 60_000);

  it('answers the first Drizzle select after the restart (read as arrays of values)', async () => {
    await restartDuringStatement();
    expect(await database.db.select({ id: tenants.id }).from(tenants)).toEqual([]);
  }, 60_000);

  it('runs a transaction whose BEGIN met the old termination, and its statements', async () => {
    await restartDuringStatement();
    const inTransaction = await database.db.transaction(async (tx) => rows<{ n: number }>(tx, sql`SELECT 2 AS n`));
    expect(inTransaction).toEqual([{ n: 2 }]);
  }, 60_000);
});

/** The ErrorResponse a backend sends when it is terminated (pg_terminate_backend, a fast shutdown). */
function terminationMessage(): Buffer {
  const fields = Buffer.from('SFATAL\0VFATAL\0C57P01\0Mterminating connection due to administrator command\0\0');
  const head = Buffer.alloc(5);
  head.write('E', 0);
  head.writeInt32BE(fields.length + 4, 1);
  return Buffer.concat([head, fields]);
}

/** A TCP proxy to the shared PostgreSQL that answers the first array-types query it sees with a termination. */
async function proxyKillingFirstTypesQuery() {
  const state = { killed: 0 };
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(5432, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {});
    }
    client.on('data', (data) => {
      if (state.killed === 0 && data.includes('pg_catalog.pg_type')) {
        state.killed++;
        upstream.destroy();
        client.end(terminationMessage());
        return;
      }
      upstream.write(data);
    });
    upstream.on('data', (data) => client.write(data));
    upstream.on('close', () => client.destroy());
    client.on('close', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    state,
    port: (server.address() as net.AddressInfo).port,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('a connection killed while it opens', () => {
  it('leaves a worker process running, with a warning, and its statements answered', async () => {
    const target = await createTestDatabase('memory_startkill');
    const proxy = await proxyKillingFirstTypesQuery();
    const url = new URL(target.url);
    url.port = String(proxy.port);
    try {
      // the worker's first connection (its migrations') is killed during the types query
      const worker = await startWorker({ DATABASE_URL: url.toString(), MEMORY_LOG_LEVEL: 'warn', MEMORY_JOB_POLL_MS: '50' });
      expect(proxy.state.killed).toBe(1);
      for (let i = 0; i < 100 && !worker.output().includes('database connection failed while it opened'); i++) {
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(worker.output()).toContain('database connection failed while it opened');
      expect(worker.output()).toContain('57P01');
      // still claiming jobs a second later (it polls every 50 ms), then it stops cleanly
      await new Promise((r) => setTimeout(r, 1000));
      expect(worker.process.exitCode).toBeNull();
      worker.process.kill('SIGTERM');
      expect(await worker.exited).toBe(0);
    } finally {
      await proxy.close();
      await target.drop();
    }
  }, 60_000);
});
