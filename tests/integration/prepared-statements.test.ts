/**
 * PostgreSQL statements are prepared once per connection (packages/db `pooledClient`, docs/operations.md):
 * a repeated query, inside a transaction too, is in the connection's pg_prepared_statements; a statement with many
 * parameters is not, nor is one that starts with `PLAN_EACH_TIME` (the job claim); DATABASE_PREPARED_STATEMENTS=off (preparedStatements: false) prepares nothing.
 */
import { randomUUID } from 'node:crypto';
import { type Database, createDatabase, eq, inArray, rows, runMigrations, sql, tenants } from '@memory/db';
import { claimJobId } from '@memory/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, createTestDatabase } from './server';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase('memory_prepared');
  const config = { kind: 'postgres' as const, url: database.url, poolSize: 1 };
  const migrating = createDatabase(config);
  await runMigrations(config, migrating);
  await migrating.close();
}, 60_000);
afterAll(async () => {
  await database?.drop();
});

/** The statements prepared on the pool's one connection. */
async function prepared(db: Database['db']): Promise<string[]> {
  return (await rows<{ statement: string }>(db, sql`SELECT statement FROM pg_prepared_statements`)).map((r) => r.statement);
}

async function withDatabase(preparedStatements: boolean | undefined, fn: (db: Database['db']) => Promise<void>) {
  const opened = createDatabase({ kind: 'postgres', url: database.url, poolSize: 1, ...(preparedStatements === undefined ? {} : { preparedStatements }) });
  try {
    await fn(opened.db);
  } finally {
    await opened.close();
  }
}

describe('prepared statements on PostgreSQL', () => {
  it('prepares a repeated query once per connection, in a transaction too, and answers it the same', async () => {
    await withDatabase(undefined, async (db) => {
      const id = randomUUID();
      await db.insert(tenants).values({ id, name: 'prepared' });
      for (let i = 0; i < 3; i++) expect((await db.select().from(tenants).where(eq(tenants.id, id)))[0]?.name).toBe('prepared');
      await db.transaction(async (tx) => {
        await tx.update(tenants).set({ name: 'renamed' }).where(eq(tenants.id, id));
      });
      expect((await db.select().from(tenants).where(eq(tenants.id, id)))[0]?.name).toBe('renamed');
      const statements = await prepared(db);
      expect(statements.filter((s) => s.startsWith('select') && s.includes('from "tenants"'))).toHaveLength(1);
      expect(statements.some((s) => s.startsWith('update "tenants"'))).toBe(true);
    });
  });

  it('leaves a statement with more than 64 parameters unnamed', async () => {
    await withDatabase(undefined, async (db) => {
      const ids = Array.from({ length: 100 }, () => randomUUID());
      expect(await db.select().from(tenants).where(inArray(tenants.id, ids))).toEqual([]);
      expect((await prepared(db)).some((s) => s.includes('$100'))).toBe(false);
    });
  });

  it('plans the job claim each time: a plan kept from an empty queue must not meet a long one', async () => {
    await withDatabase(undefined, async (db) => {
      for (let i = 0; i < 3; i++) expect(await claimJobId(db, 'extraction_jobs', { workerId: 'plan-probe', leaseSeconds: 30 })).toBeNull();
      expect((await prepared(db)).filter((s) => s.includes('UPDATE "extraction_jobs"'))).toEqual([]);
    });
  });

  it('prepares nothing when turned off', async () => {
    await withDatabase(false, async (db) => {
      await db.select().from(tenants).where(eq(tenants.id, randomUUID()));
      await db.select().from(tenants).where(eq(tenants.id, randomUUID()));
      expect((await prepared(db)).filter((s) => s.includes('from "tenants"'))).toEqual([]);
    });
  });
});
