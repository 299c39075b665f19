/**
 * The step contract shared by both execution modes. Inngest's `step.run` memoises results on the
 * Inngest server; the embedded runner memoises them in the job row's `step_state`. Either way a retried
 * run skips the steps that already finished, and results are plain JSON.
 */
import { type JobTable, beginInngestStep, recordAttemptFailure } from '@memory/core';
import type { Db } from '@memory/db';

export interface StepOptions {
  /**
   * `false`: the embedded runner writes no checkpoint of this step; a retried run runs it again. For steps
   * whose result is as cheap to get again as to save and read back (loading the job's input, the built-in
   * extractor), and for the step that completes the job, whose row then records the outcome. It also keeps
   * the conversation and the extracted text out of the job row, where payload redaction would not reach them.
   * Inngest memoises every step on its own server either way.
   */
  checkpoint?: boolean;
}

export interface StepRunner {
  run<T>(id: string, fn: () => Promise<T> | T, opts?: StepOptions): Promise<T>;
}

/** The checkpoint option of an extraction step: kept unless the extractor is the built-in one (same result, no cost). */
export const extractionCheckpoint = (extractor: { name: string }): StepOptions => ({ checkpoint: extractor.name !== 'builtin' });

/** Options of a step that only reads the job's input, and of the one that completes the job. */
export const NO_CHECKPOINT: StepOptions = Object.freeze({ checkpoint: false });

export const toJson = <T>(value: T): T => (value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T));

/**
 * The embedded runner's steps: a step whose result `saved` (the job row's `step_state`) holds is not run again;
 * a finished step's result is saved through `save` unless the step asks for no checkpoint.
 */
export function embeddedSteps(saved: Record<string, unknown>, save: (id: string, value: unknown) => Promise<void>): StepRunner {
  return {
    async run<T>(id: string, fn: () => Promise<T> | T, opts?: StepOptions): Promise<T> {
      if (Object.hasOwn(saved, id)) return saved[id] as T;
      const value = toJson(await fn());
      if (opts?.checkpoint !== false) await save(id, value);
      return value;
    },
  };
}

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
