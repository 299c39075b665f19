/**
 * The Inngest client and functions. With an Inngest server configured (MEMORY_JOB_MODE=inngest),
 * add calls send EXTRACTION_REQUESTED and Inngest calls /api/inngest to run the steps; the concurrency
 * key keeps one user's jobs from racing. Without one, the embedded runner runs the same `runExtraction`.
 * Corrections (retrieval feedback `user_corrected`) travel the same way as `memory/correction.requested`.
 */
import { type JobQueue, type Logger, type QueuedJob, describeError, markDead } from '@memory/core';
import { Inngest } from 'inngest';
import type { ExtractionEventData, JobDeps } from './extraction';
import { JOB_KINDS, type JobKindSpec } from './kinds';
import { trackedJobSteps } from './steps';
import type { UniversalEventData } from './universal';

export const INNGEST_APP_ID = 'memory-service';
/** Inngest's own retries after the first attempt; with it the job has RETRIES + 1 attempts. */
export const EXTRACTION_RETRIES = 4;

export function createInngestClient(opts: { eventKey?: string; signingKey?: string; baseUrl?: string } = {}) {
  return new Inngest({ id: INNGEST_APP_ID, eventKey: opts.eventKey, signingKey: opts.signingKey, baseUrl: opts.baseUrl });
}

export type InngestClient = ReturnType<typeof createInngestClient>;

/**
 * The Inngest function of one job kind (kinds.ts): a concurrency key per user, EXTRACTION_RETRIES retries,
 * each step tracked on the job row, and an `onFailure` that marks the job `dead`.
 */
function createJobFunction(inngest: InngestClient, getDeps: () => Promise<JobDeps>, spec: JobKindSpec) {
  return inngest.createFunction(
    {
      id: spec.functionId,
      name: spec.functionName,
      retries: EXTRACTION_RETRIES,
      concurrency: [{ key: spec.concurrencyKey, limit: 1 }],
      triggers: [{ event: spec.event }],
      onFailure: async ({ event, error }) => {
        const deps = await getDeps();
        const data = (event.data as { event: { data: { job_id: string } } }).event.data;
        await markDead(deps.db, data.job_id, error, spec.table);
      },
    },
    async ({ event, step, attempt, maxAttempts }) => {
      const deps = await getDeps();
      const { job_id: jobId } = event.data as { job_id: string };
      // Each step records its failed attempts on the job row, which stays the source of truth.
      // Inngest counts attempts per step (0-based): on the extraction step's last one the fallback takes over.
      return spec.body(jobId, trackedJobSteps(step, deps.db, jobId, spec.table), deps, {
        attempt: attempt + 1,
        maxAttempts: maxAttempts ?? EXTRACTION_RETRIES + 1,
      });
    },
  );
}

/** One Inngest function per job kind, for /api/inngest. */
export const createJobKindFunctions = (inngest: InngestClient, getDeps: () => Promise<JobDeps>) =>
  Object.values(JOB_KINDS).map((spec) => createJobFunction(inngest, getDeps, spec));

export const createExtractionFunction = (inngest: InngestClient, getDeps: () => Promise<JobDeps>) =>
  createJobFunction(inngest, getDeps, JOB_KINDS.extraction);

export const createCorrectionFunction = (inngest: InngestClient, getDeps: () => Promise<JobDeps>) =>
  createJobFunction(inngest, getDeps, JOB_KINDS.correction);

export const createUniversalExtractionFunction = (inngest: InngestClient, getDeps: () => Promise<JobDeps>) =>
  createJobFunction(inngest, getDeps, JOB_KINDS.universal);

/**
 * The Inngest event of a job. Its id is the job's, so Inngest drops a second send of it (its event
 * deduplication): the job relay may send a job's event again without running the job twice.
 */
export function jobInngestEvent(job: QueuedJob): { name: string; id: string; data: ExtractionEventData | UniversalEventData } {
  const { event: name } = JOB_KINDS[job.kind];
  if (job.kind === 'universal') return { name, id: `universal-${job.jobId}`, data: { job_id: job.jobId, passport_user_id: job.passportUserId } };
  return { name, id: `${job.kind}-${job.jobId}`, data: { job_id: job.jobId, tenant_id: job.tenantId, user_id: job.userId } };
}

/**
 * Inngest mode's queue: sends the job's event after the add committed. The job row is what is durable; a send
 * that fails is logged and left to the job relay (relay.ts), which sends the events of jobs still queued a
 * minute after they came due, so the add still answers with its job and nothing is lost.
 */
export class InngestQueue implements JobQueue {
  readonly name = 'inngest';
  constructor(
    private readonly inngest: Pick<InngestClient, 'send'>,
    private readonly log?: Logger,
  ) {}
  async enqueue(job: QueuedJob): Promise<void> {
    try {
      await this.inngest.send(jobInngestEvent(job));
    } catch (err) {
      this.log?.warn({ job_id: job.jobId, kind: job.kind, ...describeError(err) }, 'job event not sent; the job relay will send it');
    }
  }
}
