/**
 * The Inngest client and functions. With an Inngest server configured (MEMORY_JOB_MODE=inngest),
 * add calls send EXTRACTION_REQUESTED and Inngest calls /api/inngest to run the steps; the concurrency
 * key keeps one user's jobs from racing. Without one, the embedded runner runs the same `runExtraction`.
 * Corrections (retrieval feedback `user_corrected`) travel the same way as `memory/correction.requested`.
 */
import { type JobQueue, type QueuedJob, markDead } from '@memory/core';
import { Inngest } from 'inngest';
import { CORRECTION_FUNCTION_ID, CORRECTION_REQUESTED, runCorrection } from './correction';
import { type AttemptInfo, EXTRACTION_REQUESTED, type ExtractionEventData, type JobDeps, runExtraction } from './extraction';
import { type StepRunner, trackedJobSteps } from './steps';

export const INNGEST_APP_ID = 'memory-service';
/** Inngest's own retries after the first attempt; with it the job has RETRIES + 1 attempts. */
export const EXTRACTION_RETRIES = 4;

export function createInngestClient(opts: { eventKey?: string; signingKey?: string; baseUrl?: string } = {}) {
  return new Inngest({ id: INNGEST_APP_ID, eventKey: opts.eventKey, signingKey: opts.signingKey, baseUrl: opts.baseUrl });
}

export type InngestClient = ReturnType<typeof createInngestClient>;

/** The body of a job function: the same under Inngest and in the embedded runner (runner.ts). */
export type JobBody = (jobId: string, step: StepRunner, deps: JobDeps, attempt?: AttemptInfo) => Promise<unknown>;

/**
 * An Inngest function for one kind of job: a concurrency key per (tenant, user), EXTRACTION_RETRIES retries,
 * each step tracked on the job row, and an `onFailure` that marks the job `dead`.
 */
function createJobFunction(
  inngest: InngestClient,
  getDeps: () => Promise<JobDeps>,
  spec: { id: string; name: string; event: string; body: JobBody },
) {
  return inngest.createFunction(
    {
      id: spec.id,
      name: spec.name,
      retries: EXTRACTION_RETRIES,
      concurrency: [{ key: 'event.data.tenant_id + ":" + event.data.user_id', limit: 1 }],
      triggers: [{ event: spec.event }],
      onFailure: async ({ event, error }) => {
        const deps = await getDeps();
        const data = (event.data as { event: { data: ExtractionEventData } }).event.data;
        await markDead(deps.db, data.job_id, error);
      },
    },
    async ({ event, step, attempt, maxAttempts }) => {
      const deps = await getDeps();
      const { job_id: jobId } = event.data as ExtractionEventData;
      // Each step records its failed attempts on the job row, which stays the source of truth.
      // Inngest counts attempts per step (0-based): on the extraction step's last one the fallback takes over.
      return spec.body(jobId, trackedJobSteps(step, deps.db, jobId), deps, {
        attempt: attempt + 1,
        maxAttempts: maxAttempts ?? EXTRACTION_RETRIES + 1,
      });
    },
  );
}

export function createExtractionFunction(inngest: InngestClient, getDeps: () => Promise<JobDeps>) {
  return createJobFunction(inngest, getDeps, {
    id: 'memory-extraction',
    name: 'Extract memories from a conversation',
    event: EXTRACTION_REQUESTED,
    body: runExtraction,
  });
}

/** Corrections sent as retrieval feedback (`user_corrected`): the same function shape as extraction. */
export function createCorrectionFunction(inngest: InngestClient, getDeps: () => Promise<JobDeps>) {
  return createJobFunction(inngest, getDeps, {
    id: CORRECTION_FUNCTION_ID,
    name: 'Apply a user correction from retrieval feedback',
    event: CORRECTION_REQUESTED,
    body: runCorrection,
  });
}

export class InngestQueue implements JobQueue {
  readonly name = 'inngest';
  constructor(private readonly inngest: InngestClient) {}
  async enqueue(job: QueuedJob): Promise<void> {
    const data: ExtractionEventData = { job_id: job.jobId, tenant_id: job.tenantId, user_id: job.userId };
    const name = job.kind === 'correction' ? CORRECTION_REQUESTED : EXTRACTION_REQUESTED;
    await this.inngest.send({ name, data, id: `${job.kind}-${job.jobId}` });
  }
}
