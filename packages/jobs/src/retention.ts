/**
 * Payload retention as a job: `runRetention` is the function body, the same code under Inngest (an hourly
 * cron function) and in the embedded scheduler (a timer in the server process). Both redact raw source
 * payloads past each tenant's window (packages/core/src/provenance/retention.ts); hashes and memories stay.
 */
import { type Logger, RETENTION_LOCK_KEY, type RedactResult, redactExpiredPayloads } from '@memory/core';
import type { Db } from '@memory/db';
import type { InngestClient } from './inngest';
import { PeriodicTask, type SchedulerOptions, createCronFunction } from './scheduler';
import { type StepRunner, directSteps } from './steps';

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
  return createCronFunction(
    inngest,
    { id: RETENTION_FUNCTION_ID, name: 'Redact source payloads past the retention window', cron: RETENTION_CRON, retries: RETENTION_RETRIES },
    getDeps,
    runRetention,
  );
}

/**
 * Runs `runRetention` in the server process when no Inngest server is used: once shortly after start,
 * then every `intervalMinutes` (MEMORY_RETENTION_INTERVAL_MINUTES). Logs counts only.
 */
export class EmbeddedScheduler extends PeriodicTask<RetentionSummary> {
  constructor(deps: RetentionDeps, opts: SchedulerOptions, log?: Logger) {
    super((now) => runRetention(directSteps, deps, now), opts, { message: 'payload retention run', fields: (s) => ({ redacted: s.redacted, busy: s.busy }) }, log);
  }
}
