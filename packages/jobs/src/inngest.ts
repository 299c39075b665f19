/**
 * The Inngest client and functions. With an Inngest server configured (MEMORY_JOB_MODE=inngest),
 * add calls send EXTRACTION_REQUESTED and Inngest calls /api/inngest to run the steps; the concurrency
 * key keeps one user's jobs from racing. Without one, the embedded runner runs the same `runExtraction`.
 */
import { type JobQueue, type QueuedJob, beginInngestStep, markDead, recordAttemptFailure } from '@memory/core';
import { Inngest } from 'inngest';
import { EXTRACTION_REQUESTED, type ExtractionEventData, type JobDeps, runExtraction } from './extraction';
import type { StepRunner } from './steps';

export const INNGEST_APP_ID = 'memory-service';
/** Inngest's own retries after the first attempt; with it the job has RETRIES + 1 attempts. */
export const EXTRACTION_RETRIES = 4;

export function createInngestClient(opts: { eventKey?: string; signingKey?: string; baseUrl?: string } = {}) {
  return new Inngest({ id: INNGEST_APP_ID, eventKey: opts.eventKey, signingKey: opts.signingKey, baseUrl: opts.baseUrl });
}

export type InngestClient = ReturnType<typeof createInngestClient>;

export function createExtractionFunction(inngest: InngestClient, getDeps: () => Promise<JobDeps>) {
  return inngest.createFunction(
    {
      id: 'memory-extraction',
      name: 'Extract memories from a conversation',
      retries: EXTRACTION_RETRIES,
      concurrency: [{ key: 'event.data.tenant_id + ":" + event.data.user_id', limit: 1 }],
      triggers: [{ event: EXTRACTION_REQUESTED }],
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
      const tracked: StepRunner = {
        run: (id, fn) =>
          step.run(id, async () => {
            await beginInngestStep(deps.db, jobId, 300);
            try {
              return await fn();
            } catch (err) {
              await recordAttemptFailure(deps.db, jobId, err);
              throw err;
            }
          }) as never,
      };
      // Inngest counts attempts per step (0-based): on the extraction step's last one the fallback takes over.
      return runExtraction(jobId, tracked, deps, { attempt: attempt + 1, maxAttempts: maxAttempts ?? EXTRACTION_RETRIES + 1 });
    },
  );
}

export class InngestQueue implements JobQueue {
  readonly name = 'inngest';
  constructor(private readonly inngest: InngestClient) {}
  async enqueue(job: QueuedJob): Promise<void> {
    const data: ExtractionEventData = { job_id: job.jobId, tenant_id: job.tenantId, user_id: job.userId };
    await this.inngest.send({ name: EXTRACTION_REQUESTED, data, id: `extraction-${job.jobId}` });
  }
}
