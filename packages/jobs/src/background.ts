/**
 * The background work of one process, the same for the web server's embedded worker and for a separate worker
 * process (`npm run worker`, apps/worker): the extraction providers and embeddings, the job runner, payload
 * retention, the memory lifecycle and webhook deliveries. Every part claims its rows from the database with leases
 * (SKIP LOCKED on PostgreSQL), so any number of processes can run it against one database.
 */
import {
  type AppConfig,
  type EmbeddingsProvider,
  type ExtractionProvider,
  type LocalEncoder,
  type Logger,
  createEmbeddingsProvider,
  createExtractionProviders,
  createExtractionThreads,
  createLocalEncoder,
  releaseOrphanedLeases,
  threadedBuiltinExtractor,
} from '@memory/core';
import type { Db } from '@memory/db';
import type { JobDeps } from './extraction';
import { LifecycleScheduler } from './lifecycle';
import { EmbeddedScheduler } from './retention';
import { EmbeddedRunner } from './runner';
import { WEBHOOK_POLL_MS, WebhookDispatcher, type WebhookDeps } from './webhooks';

export interface Background {
  jobDeps: JobDeps;
  /** The embeddings endpoint, or the offline encoder, or null: retrieval embeds its queries with it too. */
  embeddings: EmbeddingsProvider | null;
  /** The job runner in embedded mode (started only when this process works), null in Inngest mode. */
  runner: EmbeddedRunner | null;
  webhookDeps: WebhookDeps;
  /** Whether this process runs jobs and periodic tasks. */
  working: boolean;
  /** Stops the runner (waiting for the jobs in flight), the periodic tasks and the encoder. */
  stop(): Promise<void>;
}

/**
 * Builds the providers and, when `work` is true and jobs run embedded, starts the runner and the periodic tasks.
 * With `orphansAreDead` (the embedded database, one process per data directory) jobs a dead process left
 * `running` are claimable at once instead of after their lease.
 */
export async function startBackground(
  config: AppConfig,
  db: Db,
  log: Logger,
  opts: { work: boolean; orphansAreDead: boolean },
): Promise<Background> {
  // An embeddings endpoint when configured; else, with MEMORY_LOCAL_ENCODER=on, the offline encoder (a worker thread).
  const localEncoder: LocalEncoder | null = !config.embeddings && config.localEncoder ? createLocalEncoder() : null;
  const embeddings = createEmbeddingsProvider(config) ?? localEncoder;
  void localEncoder?.start().catch((err: Error) => log.warn({ err_name: err.name }, 'local encoder did not start; word vectors rank'));
  const providers = createExtractionProviders(config, log);
  // CPU-bound work of the jobs this process runs (its runner's, or Inngest's calls) goes to worker threads, off the
  // event loop (docs/workers.md); they start on the first job.
  const runsJobs = opts.work || config.jobs.mode === 'inngest';
  const threads = runsJobs ? createExtractionThreads({ threads: config.jobs.threads, nice: config.jobs.threadNice }) : null;
  if (runsJobs && config.jobs.threads > 0 && !threads) log.warn('the extraction thread bundle is missing (npx turbo run build --filter=@memory/core): extraction runs on the event loop');
  const onThreads = (p: ExtractionProvider | null) => (threads && p?.name === 'builtin' ? threadedBuiltinExtractor(threads) : p);
  const jobDeps: JobDeps = {
    db,
    extractor: onThreads(providers.extractor) as ExtractionProvider,
    fallback: onThreads(providers.fallback),
    threads,
    embeddings,
    log,
  };
  const webhookDeps: WebhookDeps = { db, settings: config.webhooks, log };
  const embedded = config.jobs.mode === 'embedded';
  const working = embedded && opts.work;
  const runner = embedded
    ? new EmbeddedRunner(
        jobDeps,
        {
          pollMs: config.jobs.pollMs,
          leaseSeconds: config.jobs.leaseSeconds,
          backoffBaseMs: config.jobs.backoffBaseMs,
          concurrency: config.jobs.concurrency,
        },
        log,
      )
    : null;
  const tasks: { stop(): Promise<void> }[] = [];
  if (runner && working) {
    if (opts.orphansAreDead) {
      const released = (await releaseOrphanedLeases(db, 'extraction_jobs')) + (await releaseOrphanedLeases(db, 'universal_jobs'));
      if (released > 0) log.warn({ jobs: released }, 'jobs left running by a stopped process are claimable again');
    }
    runner.start();
    // Payload retention (docs/provenance.md): in Inngest mode the hourly cron function does it instead.
    const retention = new EmbeddedScheduler({ db }, { intervalMinutes: config.retentionIntervalMinutes }, log);
    // Memory lifecycle (docs/lifecycle.md): decay, access boost, archiving; the hourly cron in Inngest mode.
    const lifecycle = new LifecycleScheduler({ db }, { intervalMinutes: config.lifecycleIntervalMinutes }, log);
    // Webhook deliveries (docs/webhooks.md): in Inngest mode the relay cron and the delivery function do it.
    // Its own, slower poll: a second of latency is nothing for a webhook, and PGlite has one connection to share.
    const webhooks = new WebhookDispatcher(webhookDeps, { pollMs: Math.max(config.jobs.pollMs, WEBHOOK_POLL_MS) });
    retention.start();
    lifecycle.start();
    webhooks.start();
    tasks.push(retention, lifecycle, webhooks);
  }
  return {
    jobDeps,
    embeddings,
    runner,
    webhookDeps,
    working,
    async stop() {
      for (const task of tasks) await task.stop();
      await runner?.stop();
      await threads?.close();
      await localEncoder?.close();
    },
  };
}
