/**
 * The process-wide services: configuration, database, job queue and runner. Kept on globalThis so every
 * route bundle and the instrumentation hook share one database handle (PGlite allows only one).
 */
import {
  type AppConfig,
  type JobQueue,
  type Logger,
  type QuotaDeps,
  type RetrievalDeps,
  createQuotaDeps,
  createLogger,
  createRetrievalDeps,
  createDevTenantIfFirstRun,
  describeError,
  firstRunBanner,
  loadClassWords,
  wordVectors,
  loadConfig,
} from '@memory/core';
import {
  type Database,
  type Db,
  acquireDataDirLock,
  createDatabase,
  guardDriverStartupFailures,
  releaseDataDirLock,
  runMigrations,
} from '@memory/db';
import {
  EmbeddedQueue,
  type EmbeddedRunner,
  type InngestClient,
  InngestQueue,
  type JobDeps,
  type WebhookDeps,
  createInngestClient,
  startBackground,
} from '@memory/jobs';

export interface Runtime {
  config: AppConfig;
  database: Database;
  db: Db;
  log: Logger;
  queue: JobQueue;
  runner: EmbeddedRunner | null;
  inngest: InngestClient;
  jobDeps: JobDeps;
  retrieval: RetrievalDeps;
  /** Plans, write-rate limits and backlog health (docs/quotas.md). */
  quota: QuotaDeps;
  /** Webhook delivery (docs/webhooks.md): the settings and database both modes use. */
  webhookDeps: WebhookDeps;
}

const holder = globalThis as unknown as { __memoryRuntime?: Promise<Runtime> };

export function getRuntime(): Promise<Runtime> {
  holder.__memoryRuntime ??= boot();
  return holder.__memoryRuntime;
}

/** Start-up from instrumentation: a bad configuration or an unreachable database stops the process. */
export async function bootOrExit(): Promise<void> {
  try {
    await getRuntime();
  } catch (err) {
    console.error(`memory-service: start-up failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
}

/**
 * The first start on an empty database (by default only the embedded one; MEMORY_DEV_TENANT) creates the
 * development tenant. Its key goes to stdout once, for the operator's terminal, and never to the JSON log.
 */
async function announceFirstRun(config: AppConfig, db: Db): Promise<void> {
  if (!config.devTenant) return;
  const tenant = await createDevTenantIfFirstRun(db, { plan: config.quota.defaultPlan });
  if (!tenant) return;
  const signInCodes = config.mail.devMailbox ? 'mailbox' : config.mail.smtpUrl ? 'smtp' : 'nowhere';
  process.stdout.write(firstRunBanner(tenant, { baseUrl: `http://localhost:${config.port}`, signInCodes }));
}

async function boot(): Promise<Runtime> {
  const config = loadConfig();
  const log = createLogger(config.logLevel);
  if (config.database.kind === 'pglite') acquireDataDirLock(config.database.dataDir);
  const database = createDatabase(config.database);
  if (database.kind === 'postgres') guardDriverStartupFailures((err) => log.warn(describeError(err), 'database connection failed while it opened; the request it opened for was answered'));
  await runMigrations(config.database, database);
  await announceFirstRun(config, database.db);
  // MEMORY_EXTRACTOR picks the provider (an LLM falls back to the built-in one, docs/llm-providers.md); the runner
  // and periodic tasks run here unless MEMORY_EMBEDDED_WORKER=off leaves them to worker processes (docs/workers.md).
  const background = await startBackground(config, database.db, log, {
    work: config.jobs.embeddedWorker,
    orphansAreDead: config.database.kind === 'pglite',
  });
  const { jobDeps, embeddings, runner, webhookDeps } = background;
  const inngest = createInngestClient(config.inngest);
  const queue: JobQueue = config.jobs.mode === 'embedded' ? new EmbeddedQueue(runner) : new InngestQueue(inngest, log);
  const retrieval = createRetrievalDeps(database.db, log, { embeddings });
  const quota = createQuotaDeps(database.db, config);
  // The offline word vectors (semantic ranking): loaded once here rather than on the first retrieve.
  const vectors = wordVectors();
  if (!vectors) log.warn('word vectors not found (packages/core/generated/word-vectors.bin): ranking is lexical only; run `npx turbo run build`');
  if (!loadClassWords()) log.warn('WordNet classes not found (packages/core/generated/hyponyms.json): a class word matches only itself; run `npx turbo run build`');
  const shutdown = async () => {
    await background.stop();
    await retrieval.activity.flush();
    await quota.close();
    await database.close();
    if (config.database.kind === 'pglite') releaseDataDirLock(config.database.dataDir);
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void shutdown().finally(() => process.exit(0));
    });
  }
  if (config.webhooks.secretKeyIsDefault && config.database.kind === 'postgres') {
    log.warn('MEMORY_WEBHOOK_SECRET_KEY is unset: webhook signing secrets are encrypted with the public development key (docs/webhooks.md)');
  }
  log.info(
    {
      database: database.describe,
      job_mode: config.jobs.mode,
      embedded_worker: background.working,
      extractor: jobDeps.extractor.name,
      embeddings: embeddings?.name ?? null,
      word_vectors: vectors?.size ?? 0,
      rate_limit_store: quota.limiter.store.kind,
    },
    'memory service ready',
  );
  return { config, database, db: database.db, log, queue, runner, inngest, jobDeps, retrieval, quota, webhookDeps };
}
