/**
 * One server per database engine, shared by all integration files: the embedded default (PGlite in a
 * temporary data directory) and PostgreSQL (a fresh database created for this run and dropped after it).
 */
import { rmSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { type RunningServer, type ServerInfo, createTestDatabase, startServer, tempDataDir } from './server';

declare module 'vitest' {
  export interface ProvidedContext {
    servers: ServerInfo[];
    pgDatabaseUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const dataDir = tempDataDir();
  const database = await createTestDatabase('memory_it');
  const pgUrl = database.url;

  const started: RunningServer[] = [];
  try {
    const [lite, pg] = await Promise.all([
      startServer('pglite', { MEMORY_DATA_DIR: dataDir }),
      startServer('postgres', { DATABASE_URL: pgUrl }),
    ]);
    started.push(lite, pg);
  } catch (err) {
    await Promise.all(started.map((s) => s.stop()));
    await database.drop();
    throw err;
  }
  project.provide(
    'servers',
    started.map((s) => ({ name: s.name, baseUrl: s.baseUrl, adminToken: s.adminToken })),
  );
  project.provide('pgDatabaseUrl', pgUrl);

  return async () => {
    for (const s of started) {
      await s.stop();
      if (process.env.IT_SHOW_SERVER_LOGS) process.stdout.write(s.output());
    }
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
