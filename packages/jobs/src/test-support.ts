/** Shared set-up for the job tests: an in-memory PGlite with the real migrations and one queued job. */
import { type AppConfig, BuiltinExtractor, type JobQueue, addMemories, createTenant, loadConfig } from '@memory/core';
import { type Database, createDatabase, endUsers, eq, runMigrations, sourceEvents, sql } from '@memory/db';
import { EmbeddedRunner } from './runner';

export async function openTestDatabase(): Promise<Database> {
  const database = createDatabase({ kind: 'pglite', dataDir: null });
  await runMigrations({ kind: 'pglite', dataDir: null }, database);
  return database;
}

export const noQueue: JobQueue = { name: 'none', enqueue: async () => {} };

export function testConfig(): AppConfig {
  return loadConfig({ MEMORY_JOB_MAX_ATTEMPTS: '3', MEMORY_JOB_BACKOFF_BASE_MS: '10' });
}

export async function queueConversation(database: Database, content: string, externalUserId = 'u1') {
  const tenant = await createTenant(database.db, `t-${Math.random()}`);
  const auth = { tenantId: tenant.tenant_id, apiKeyId: tenant.api_key_id };
  const res = await addMemories(
    { db: database.db, config: testConfig(), queue: noQueue },
    auth,
    { external_user_id: externalUserId, messages: [{ role: 'user', content }] },
    { requestId: crypto.randomUUID() },
  );
  if (!res.body.job_id) throw new Error(`not queued: ${res.body.status}`);
  return { auth, jobId: res.body.job_id };
}

/** Moves the source event of a job `days` into the past (retention tests cannot wait for days). */
export async function ageSourceEvent(database: Database, jobId: string, days: number): Promise<void> {
  await database.db.execute(
    sql`UPDATE source_events SET received_at = now() - make_interval(days => ${days}) WHERE job_id = ${jobId}`,
  );
}

/** The source event row of a job. */
export async function sourceEventOf(database: Database, jobId: string) {
  const [row] = await database.db.select().from(sourceEvents).where(eq(sourceEvents.jobId, jobId));
  if (!row) throw new Error(`no source event for job ${jobId}`);
  return row;
}

/** Runs every runnable job (any kind) with the built-in extractor; returns how many ran. */
export function runQueuedJobs(database: Database): Promise<number> {
  return new EmbeddedRunner({ db: database.db, extractor: new BuiltinExtractor() }, { pollMs: 20, leaseSeconds: 30, backoffBaseMs: 10 }).drain();
}

/** The memory_version of the (only) end user of a test tenant: bumped by every change retrieval must see. */
export async function memoryVersionOf(database: Database, tenantId: string): Promise<number> {
  const [u] = await database.db.select().from(endUsers).where(eq(endUsers.tenantId, tenantId));
  return u.memoryVersion;
}
