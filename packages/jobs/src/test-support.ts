/** Shared set-up for the job tests: an in-memory PGlite with the real migrations and one queued job. */
import {
  type AddDeps,
  type AppConfig,
  BuiltinExtractor,
  type JobQueue,
  addMemories,
  createQuotaDeps,
  createTenant,
  generateKey,
  loadConfig,
  apiKeyActor,
} from '@memory/core';
import {
  type Database,
  type Db,
  createDatabase,
  endUsers,
  eq,
  globalAgents,
  grants,
  passportUsers,
  runMigrations,
  sourceEvents,
  sql,
  uuiTokens,
} from '@memory/db';
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

/** The add path's dependencies for tests: the given queue, the database rate limiter and backlog monitor. */
export function testAddDeps(db: Db, queue: JobQueue = noQueue, config: AppConfig = testConfig()): AddDeps {
  return { db, config, queue, quota: createQuotaDeps(db, config) };
}

export async function queueConversation(database: Database, content: string, externalUserId = 'u1') {
  const tenant = await createTenant(database.db, `t-${Math.random()}`);
  const auth = { tenantId: tenant.tenant_id, apiKeyId: tenant.api_key_id, actor: apiKeyActor(tenant.api_key_id) };
  const res = await addMemories(
    testAddDeps(database.db),
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

/**
 * A passport fixture written straight into the tables (the agent, account, grant and token endpoints are
 * another part of issue 5): a tenant's global agent, a passport user, optionally a grant, and an
 * X-Service-UUI token of that agent for that user. Returns the raw credentials.
 */
export async function createPassportFixture(
  database: Database,
  opts: {
    grant?: { categories: string[]; accessType: 'read_only' | 'read_write' } | null;
    passportUserId?: string;
    tenantId?: string;
  } = {},
) {
  const db = database.db;
  const tenantId = opts.tenantId ?? (await createTenant(db, `t-${Math.random()}`)).tenant_id;
  const agentKey = generateKey('agent');
  const agentId = crypto.randomUUID();
  await db.insert(globalAgents).values({ id: agentId, tenantId, name: `agent-${agentId.slice(0, 6)}`, keyHash: agentKey.hash, keyPrefix: agentKey.displayPrefix });
  const passportUserId = opts.passportUserId ?? crypto.randomUUID();
  if (!opts.passportUserId) await db.insert(passportUsers).values({ id: passportUserId, email: `${passportUserId}@example.test` });
  const grantId = crypto.randomUUID();
  if (opts.grant) {
    await db.insert(grants).values({ id: grantId, passportUserId, agentId, categories: opts.grant.categories, accessType: opts.grant.accessType });
  }
  const token = generateKey('uui');
  await db.insert(uuiTokens).values({ id: crypto.randomUUID(), tokenHash: token.hash, passportUserId, agentId });
  return { tenantId, agentId, agentKey: agentKey.key, passportUserId, grantId: opts.grant ? grantId : null, uuiToken: token.key };
}
