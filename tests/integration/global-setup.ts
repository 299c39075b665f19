/**
 * One server per database engine, shared by all integration files: the embedded default (PGlite in a
 * temporary data directory) and PostgreSQL (a fresh database created for this run and dropped after it).
 */
import { rmSync } from 'node:fs';
import postgres from 'postgres';
import type { TestProject } from 'vitest/node';
import { PG_ADMIN_URL, type RunningServer, type ServerInfo, startServer, tempDataDir } from './server';

declare module 'vitest' {
  export interface ProvidedContext {
    servers: ServerInfo[];
    pgDatabaseUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const dataDir = tempDataDir();
  const dbName = `memory_it_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const admin = postgres(PG_ADMIN_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${dbName}`);
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${dbName}`;
  const pgUrl = url.toString();

  const started: RunningServer[] = [];
  try {
    const [lite, pg] = await Promise.all([
      startServer('pglite', { MEMORY_DATA_DIR: dataDir }),
      startServer('postgres', { DATABASE_URL: pgUrl }),
    ]);
    started.push(lite, pg);
  } catch (err) {
    await Promise.all(started.map((s) => s.stop()));
    await admin.unsafe(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
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
    await admin.unsafe(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
