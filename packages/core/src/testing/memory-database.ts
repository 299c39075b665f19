/** Tests that need a database: an in-memory PGlite with the real migrations, opened once per file. */
import { type Database, createDatabase, runMigrations } from '@memory/db';
import { afterAll, beforeAll } from 'vitest';

/** Registers the file's set-up and tear-down; call the returned function inside a test for the database. */
export function useMemoryDatabase(): () => Database {
  let database: Database | undefined;
  beforeAll(async () => {
    database = createDatabase({ kind: 'pglite', dataDir: null });
    await runMigrations({ kind: 'pglite', dataDir: null }, database);
  }, 60_000);
  afterAll(() => database?.close());
  return () => {
    if (!database) throw new Error('the test database is not open yet');
    return database;
  };
}
