/**
 * A worker process (`npm run worker`): runs extraction and correction jobs, universal jobs, payload retention, the
 * memory lifecycle and webhook deliveries from the PostgreSQL job tables, next to web servers started with
 * MEMORY_EMBEDDED_WORKER=off (or on: they share the tables). Start any number of them: each claims jobs with
 * leases and SKIP LOCKED, at most one job per end user at a time across all of them (docs/workers.md).
 *
 * Not for the embedded database: PGlite is one process per data directory, and its web server runs the jobs.
 * Not in Inngest mode: Inngest calls the web server's /api/inngest endpoint to run them.
 */
import { ConfigError, createLogger, describeError, loadConfig } from '@memory/core';
import { createDatabase, guardDriverStartupFailures, runMigrations } from '@memory/db';
import { startBackground } from '@memory/jobs';

function fail(message: string): never {
  console.error(`memory-worker: ${message}`);
  process.exit(1);
}

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (err) {
  fail(`start-up failed: ${err instanceof ConfigError ? err.message : String(err)}`);
}
if (config.database.kind !== 'postgres') {
  fail('a worker process needs PostgreSQL (set DATABASE_URL): the embedded database belongs to one process, whose web server runs the jobs');
}
if (config.jobs.mode !== 'embedded') {
  fail('MEMORY_JOB_MODE is inngest: Inngest runs the jobs through the web server, no worker process is needed');
}

const log = createLogger(config.logLevel);
const database = createDatabase(config.database);
guardDriverStartupFailures((err) => log.warn(describeError(err), 'database connection failed while it opened; the statement it opened for was answered'));
try {
  // Advisory-locked: web servers and workers starting together apply each migration once.
  await runMigrations(config.database, database);
} catch (err) {
  await database.close().catch(() => {});
  fail(`start-up failed: the database did not open (${err instanceof Error ? err.message : String(err)})`);
}
const background = await startBackground(config, database.db, log, { work: true, orphansAreDead: false });

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'memory worker stopping: finishing the jobs in flight');
  try {
    await background.stop();
    await database.close();
  } catch (err) {
    log.error(describeError(err), 'memory worker stop failed');
  }
  process.exit(0);
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void shutdown(signal));

log.info(
  { worker_id: background.runner?.workerId, database: database.describe, extractor: background.jobDeps.extractor.name, lease_seconds: config.jobs.leaseSeconds },
  'memory worker ready',
);
console.log(`memory-worker running as ${background.runner?.workerId}`);
