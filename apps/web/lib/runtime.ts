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
  createExtractionProviders,
  createLogger,
  createEmbeddingsProvider,
  createLocalEncoder,
  createRetrievalDeps,
  wordVectors,
  loadConfig,
} from '@memory/core';
import {
  type Database,
  type Db,
  acquireDataDirLock,
  createDatabase,
  releaseDataDirLock,
  runMigrations,
} from '@memory/db';
import {
  EmbeddedQueue,
  EmbeddedRunner,
  EmbeddedScheduler,
  type InngestClient,
  InngestQueue,
  type JobDeps,
  LifecycleScheduler,
  WEBHOOK_POLL_MS,
  WebhookDispatcher,
  type WebhookDeps,
  createInngestClient,
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

async function boot(): Promise<Runtime> {
  const config = loadConfig();
  const log = createLogger(config.logLevel);
  if (config.database.kind === 'pglite') acquireDataDirLock(config.database.dataDir);
  const database = createDatabase(config.database);
  await runMigrations(config.database, database);
  // MEMORY_EXTRACTOR picks the provider; an LLM provider falls back to the built-in one (docs/llm-providers.md).
  // An embeddings endpoint when configured; else, with MEMORY_LOCAL_ENCODER=on, the offline encoder (a worker thread).
  const localEncoder = !config.embeddings && config.localEncoder ? createLocalEncoder() : null;
  const embeddings = createEmbeddingsProvider(config) ?? localEncoder;
  void localEncoder?.start().catch((err: Error) => log.warn({ err_name: err.name }, 'local encoder did not start; word vectors rank'));
  const jobDeps: JobDeps = { db: database.db, ...createExtractionProviders(config, log), embeddings, log };
  const inngest = createInngestClient(config.inngest);
  let runner: EmbeddedRunner | null = null;
  let scheduler: EmbeddedScheduler | null = null;
  let lifecycle: LifecycleScheduler | null = null;
  let webhooks: WebhookDispatcher | null = null;
  const webhookDeps: WebhookDeps = { db: database.db, settings: config.webhooks, log };
  let queue: JobQueue;
  if (config.jobs.mode === 'embedded') {
    runner = new EmbeddedRunner(
      jobDeps,
      { pollMs: config.jobs.pollMs, leaseSeconds: config.jobs.leaseSeconds, backoffBaseMs: config.jobs.backoffBaseMs },
      log,
    );
    if (config.jobs.embeddedWorker) runner.start();
    // Payload retention (docs/provenance.md): in Inngest mode the hourly cron function does it instead.
    if (config.jobs.embeddedWorker) {
      scheduler = new EmbeddedScheduler({ db: database.db }, { intervalMinutes: config.retentionIntervalMinutes }, log);
      scheduler.start();
      // Memory lifecycle (docs/lifecycle.md): decay, access boost, archiving; the hourly cron in Inngest mode.
      lifecycle = new LifecycleScheduler({ db: database.db }, { intervalMinutes: config.lifecycleIntervalMinutes }, log);
      lifecycle.start();
      // Webhook deliveries (docs/webhooks.md): in Inngest mode the relay cron and the delivery function do it.
      // Its own, slower poll: a second of latency is nothing for a webhook, and PGlite has one connection to share.
      webhooks = new WebhookDispatcher(webhookDeps, { pollMs: Math.max(config.jobs.pollMs, WEBHOOK_POLL_MS) });
      webhooks.start();
    }
    queue = new EmbeddedQueue(runner);
  } else {
    queue = new InngestQueue(inngest, log);
  }
  const retrieval = createRetrievalDeps(database.db, log, { embeddings });
  const quota = createQuotaDeps(database.db, config);
  // The offline word vectors (semantic ranking): loaded once here rather than on the first retrieve.
  const vectors = wordVectors();
  if (!vectors) log.warn('word vectors not found (packages/core/generated/word-vectors.bin): ranking is lexical only; run `npx turbo run build`');
  const shutdown = async () => {
    await scheduler?.stop();
    await lifecycle?.stop();
    await webhooks?.stop();
    await runner?.stop();
    await retrieval.activity.flush();
    await quota.close();
    await localEncoder?.close();
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
      embedded_worker: Boolean(runner && config.jobs.embeddedWorker),
      extractor: jobDeps.extractor.name,
      embeddings: embeddings?.name ?? null,
      word_vectors: vectors?.size ?? 0,
      rate_limit_store: quota.limiter.store.kind,
    },
    'memory service ready',
  );
  return { config, database, db: database.db, log, queue, runner, inngest, jobDeps, retrieval, quota, webhookDeps };
}
