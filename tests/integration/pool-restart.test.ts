/**
 * A statement that was running when PostgreSQL stopped leaves its session's termination (SQLSTATE 57P01) on the
 * pooled connection; postgres.js rejected the first statement after the restart with it, so a request answered
 * 503 on a database that was back (porsager/postgres#1223). packages/db `pooledClient` sends such a statement, and
 * a transaction whose BEGIN met it, once more. Runs against a throwaway cluster, never the shared PostgreSQL.
 */
import { type Database, createDatabase, rows, runMigrations, sql, tenants } from '@memory/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './server';
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
  const { default: postgres } = await import('postgres');
  const probe = postgres(cluster.url(), { max: 1, onnotice: () => {} });
  for (let seen = 0; seen === 0; ) {
    seen = (await probe`SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep(30)%'`)[0].n;
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
