/**
 * The step contract shared by both execution modes. Inngest's `step.run` memoises results on the
 * Inngest server; the embedded runner memoises them in the job row's `step_state`. Either way a retried
 * run skips the steps that already finished, and results are plain JSON.
 */
import { type JobTable, beginInngestStep, recordAttemptFailure } from '@memory/core';
import type { Db } from '@memory/db';

export interface StepRunner {
  run<T>(id: string, fn: () => Promise<T> | T): Promise<T>;
}

export const toJson = <T>(value: T): T => (value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T));

/** Runs each step at once and memoises nothing: the embedded scheduler's periodic runs. */
export const directSteps: StepRunner = {
  async run<T>(_id: string, fn: () => Promise<T> | T): Promise<T> {
    return toJson(await fn());
  },
};

/**
 * Inngest steps of a job whose row stays the source of truth: each step marks the job running (one more
 * attempt when it was not), and a failed step puts it back to `queued` with the error before Inngest retries.
 */
export function trackedJobSteps(
  step: { run(id: string, fn: () => Promise<unknown>): Promise<unknown> },
  db: Db,
  jobId: string,
  table: JobTable = 'extraction_jobs',
): StepRunner {
  return {
    run: (id, fn) =>
      step.run(id, async () => {
        await beginInngestStep(db, jobId, 300, table);
        try {
          return await fn();
        } catch (err) {
          await recordAttemptFailure(db, jobId, err, table);
          throw err;
        }
      }) as never,
  };
}
