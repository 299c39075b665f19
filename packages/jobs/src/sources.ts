/**
 * Where the embedded runner finds work: one source per job table. Each says how to claim a job (lease,
 * one running job per user), which body runs it, and how a step result, a lease extension or a failed
 * attempt is written back to its row.
 */
import { type FailureOutcome, type JobTable, claimNextJob, claimNextUniversalJob, extendLease, recordFailure, saveStepResult } from '@memory/core';
import type { Db } from '@memory/db';
import { type JobBody, jobBody } from './kinds';

/** What the runner needs of a claimed row, whichever table it came from. */
export interface ClaimedJob {
  id: string;
  kind: string;
  attempts: number;
  maxAttempts: number;
  stepState: unknown;
  /** Content-free fields for the runner's log lines (tenant or passport user). */
  logFields: Record<string, unknown>;
}

export interface JobSource {
  /** The table its rows live in: step results, lease extensions and failures are written there. */
  readonly table: JobTable;
  claim(db: Db, opts: { workerId: string; leaseSeconds: number }): Promise<ClaimedJob | null>;
  body(job: ClaimedJob): JobBody | undefined;
}

/** The row writes of a source's table (jobs/repository.ts). */
export const sourceRows = (source: JobSource) => ({
  saveStep: (db: Db, jobId: string, stepId: string, value: unknown) => saveStepResult(db, jobId, stepId, value, source.table),
  extendLease: (db: Db, jobId: string, leaseSeconds: number, lockedBy: string) => extendLease(db, jobId, leaseSeconds, source.table, lockedBy),
  recordFailure: (
    db: Db,
    job: ClaimedJob,
    err: unknown,
    opts: { backoffBaseMs: number; permanent?: boolean; lockedBy: string },
  ): Promise<FailureOutcome> => recordFailure(db, job, err, { ...opts, table: source.table }),
});

/** `extraction_jobs`: extraction and correction jobs of tenants' end users. */
const TENANT_JOBS: JobSource = {
  table: 'extraction_jobs',
  async claim(db, opts) {
    const job = await claimNextJob(db, opts);
    return job && { ...job, logFields: { tenant_id: job.tenantId } };
  },
  body: (job) => jobBody('extraction_jobs', job.kind),
};

/** `universal_jobs`: the passport's universal extraction jobs. */
export const UNIVERSAL_JOBS: JobSource = {
  table: 'universal_jobs',
  async claim(db, opts) {
    const job = await claimNextUniversalJob(db, opts);
    return job && { ...job, kind: 'universal', logFields: { passport_user_id: job.passportUserId } };
  },
  body: () => jobBody('universal_jobs', 'universal'),
};

export const ALL_JOB_SOURCES: readonly JobSource[] = [TENANT_JOBS, UNIVERSAL_JOBS];
