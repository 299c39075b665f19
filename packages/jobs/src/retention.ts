/**
 * Payload retention as a job: `runRetention` is the function body, the same code under Inngest (an hourly
 * cron function) and in the embedded scheduler (a timer in the server process). Both redact raw source
 * payloads past each tenant's window (packages/core/src/provenance/retention.ts); hashes and memories stay.
 */
import { type Logger, describeError } from '@memory/core';
import { RETENTION_LOCK_KEY, type RedactResult, redactExpiredPayloads } from '@memory/core/provenance/retention';
import type { Db } from '@memory/db';
import type { InngestClient } from './inngest';
import { type StepRunner, toJson } from './steps';

export const RETENTION_FUNCTION_ID = 'payload-retention';
/** Every hour on the hour, UTC. */
export const RETENTION_CRON = 'TZ=UTC 0 * * * *';
export const RETENTION_RETRIES = 2;

export interface RetentionDeps {
  db: Db;
  /** Source events per statement; the default is 1000. */
  batchSize?: number;
}

export interface RetentionSummary extends RedactResult {
  ran_at: string;
}

/** The retention function body. The advisory lock keeps two processes from redacting at the same time. */
export async function runRetention(step: StepRunner, deps: RetentionDeps, now: Date): Promise<RetentionSummary> {
  return step.run('redact-expired-payloads', async () => {
    const result = await redactExpiredPayloads(deps.db, now, { batchSize: deps.batchSize, lockKey: RETENTION_LOCK_KEY });
    return { ...result, ran_at: now.toISOString() };
  });
}

export function createRetentionFunction(inngest: InngestClient, getDeps: () => Promise<RetentionDeps>) {
  return inngest.createFunction(
    {
      id: RETENTION_FUNCTION_ID,
      name: 'Redact source payloads past the retention window',
      retries: RETENTION_RETRIES,
      // One run at a time: a run that overlaps the next tick would only find fewer rows, but it is wasted work.
      concurrency: [{ limit: 1 }],
      triggers: [{ cron: RETENTION_CRON }],
    },
    async ({ step }) => {
      const deps = await getDeps();
      // The step's result is memoised by Inngest, so a replay does not redact with a later clock.
      return runRetention({ run: (id, fn) => step.run(id, fn) as never }, deps, new Date());
    },
  );
}

export interface SchedulerOptions {
  /** Minutes between runs (MEMORY_RETENTION_INTERVAL_MINUTES). */
  intervalMinutes: number;
  /** Delay of the first run after start; default 3 s, so start-up is not slowed down. */
  initialDelayMs?: number;
}

const directSteps: StepRunner = {
  async run<T>(_id: string, fn: () => Promise<T> | T): Promise<T> {
    return toJson(await fn());
  },
};

/**
 * Runs `runRetention` in the server process when no Inngest server is used: once shortly after start,
 * then every `intervalMinutes`. Runs never overlap in one process (the next is scheduled when one ends);
 * across processes sharing a PostgreSQL database the advisory lock lets one of them redact. Logs counts only.
 */
export class EmbeddedScheduler {
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private current: Promise<RetentionSummary | null> | null = null;

  constructor(
    private readonly deps: RetentionDeps,
    private readonly opts: SchedulerOptions,
    private readonly log?: Logger,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(this.opts.initialDelayMs ?? 3_000);
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.current;
  }

  /**
   * Runs retention now (for tests and the CLI). A call while a run is in progress joins that run.
   * Resolves to null when the run failed (the error is logged; the next tick tries again).
   */
  runOnce(now: Date = new Date()): Promise<RetentionSummary | null> {
    this.current ??= this.execute(now).finally(() => {
      this.current = null;
    });
    return this.current;
  }

  private async execute(now: Date): Promise<RetentionSummary | null> {
    const started = Date.now();
    try {
      const summary = await runRetention(directSteps, this.deps, now);
      this.log?.info({ redacted: summary.redacted, busy: summary.busy, ms: Date.now() - started }, 'payload retention run');
      return summary;
    } catch (err) {
      this.log?.error(describeError(err), 'payload retention run failed');
      return null;
    }
  }

  private schedule(delayMs: number): void {
    if (!this.running) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.runOnce().finally(() => this.schedule(this.opts.intervalMinutes * 60_000));
    }, delayMs);
    this.timer.unref();
  }
}
