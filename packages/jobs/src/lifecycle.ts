/**
 * The memory lifecycle as a periodic job: `runLifecycle` is the function body, run hourly by an Inngest cron
 * function in Inngest mode and by the embedded `LifecycleScheduler` otherwise. Each run steps every active
 * memory that was not stepped in the last day (decay, access boost, archive below the threshold), see
 * packages/core/src/lifecycle and docs/lifecycle.md.
 */
import { LIFECYCLE_LOCK_KEY, type LifecyclePassResult, type Logger, runLifecyclePass } from '@memory/core';
import type { Db } from '@memory/db';
import type { InngestClient } from './inngest';
import { PeriodicTask, type SchedulerOptions, createCronFunction } from './scheduler';
import { type StepRunner, directSteps } from './steps';

export const LIFECYCLE_FUNCTION_ID = 'memory-lifecycle';
/** Every hour at half past, UTC (retention runs on the hour). Each memory is stepped at most once a day. */
export const LIFECYCLE_CRON = 'TZ=UTC 30 * * * *';
export const LIFECYCLE_RETRIES = 2;

export interface LifecycleDeps {
  db: Db;
  /** Memories per batch; the default is LIFECYCLE.batchSize (500). */
  batchSize?: number;
}

export interface LifecycleSummary extends LifecyclePassResult {
  ran_at: string;
}

/** The lifecycle function body. The advisory lock keeps two processes from stepping at the same time. */
export async function runLifecycle(step: StepRunner, deps: LifecycleDeps, now: Date): Promise<LifecycleSummary> {
  return step.run('apply-memory-lifecycle', async () => {
    const result = await runLifecyclePass(deps.db, now, { batchSize: deps.batchSize, lockKey: LIFECYCLE_LOCK_KEY });
    return { ...result, ran_at: now.toISOString() };
  });
}

export function createLifecycleFunction(inngest: InngestClient, getDeps: () => Promise<LifecycleDeps>) {
  return createCronFunction(
    inngest,
    { id: LIFECYCLE_FUNCTION_ID, name: 'Decay, reinforce and archive memories', cron: LIFECYCLE_CRON, retries: LIFECYCLE_RETRIES },
    getDeps,
    runLifecycle,
  );
}

/** Runs `runLifecycle` in the server process every `intervalMinutes` (MEMORY_LIFECYCLE_INTERVAL_MINUTES). */
export class LifecycleScheduler extends PeriodicTask<LifecycleSummary> {
  constructor(deps: LifecycleDeps, opts: SchedulerOptions, log?: Logger) {
    super(
      (now) => runLifecycle(directSteps, deps, now),
      opts,
      {
        message: 'memory lifecycle run',
        fields: (s) => ({ stepped: s.stepped, archived: s.archived, users_changed: s.users_changed, busy: s.busy }),
      },
      log,
    );
  }
}
