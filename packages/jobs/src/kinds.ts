/**
 * The job kinds: one entry per kind says which body runs it, in which table its rows live, which event Inngest
 * mode sends for it and the Inngest function that receives it. The embedded runner (sources.ts), the queue's
 * events and the Inngest functions (inngest.ts) all read this table, so a new kind is one entry here (and its
 * body) — ARCHITECTURE.md, "How to add a job kind".
 */
import type { JobKind, JobTable } from '@memory/core';
import { CORRECTION_FUNCTION_ID, CORRECTION_REQUESTED, runCorrection } from './correction';
import { type AttemptInfo, EXTRACTION_REQUESTED, type JobDeps, runExtraction } from './extraction';
import type { StepRunner } from './steps';
import { UNIVERSAL_FUNCTION_ID, UNIVERSAL_REQUESTED, runUniversalExtraction } from './universal';

/** The body of a job function: the same under Inngest and in the embedded runner (runner.ts). */
export type JobBody = (jobId: string, step: StepRunner, deps: JobDeps, attempt?: AttemptInfo) => Promise<unknown>;

export interface JobKindSpec {
  body: JobBody;
  /** The job table whose rows hold this kind: claimed from there, each step tracked, marked dead on failure. */
  table: JobTable;
  /** The event Inngest mode sends for a job of this kind (its id is `<kind>-<job id>`). */
  event: string;
  /** The Inngest function that receives it. */
  functionId: string;
  functionName: string;
  /** Inngest's concurrency key: one running job per user. */
  concurrencyKey: string;
}

/** Tenant jobs (`extraction_jobs`): one running job per (tenant, user). */
const TENANT_USER = 'event.data.tenant_id + ":" + event.data.user_id';

export const JOB_KINDS: Readonly<Record<JobKind, JobKindSpec>> = {
  extraction: {
    body: runExtraction,
    table: 'extraction_jobs',
    event: EXTRACTION_REQUESTED,
    functionId: 'memory-extraction',
    functionName: 'Extract memories from a conversation',
    concurrencyKey: TENANT_USER,
  },
  /** Corrections sent as retrieval feedback (`user_corrected`): the same function shape as extraction. */
  correction: {
    body: runCorrection,
    table: 'extraction_jobs',
    event: CORRECTION_REQUESTED,
    functionId: CORRECTION_FUNCTION_ID,
    functionName: 'Apply a user correction from retrieval feedback',
    concurrencyKey: TENANT_USER,
  },
  /** Universal extraction (POST /v1/universal/memories/add): one running job per passport user. */
  universal: {
    body: runUniversalExtraction,
    table: 'universal_jobs',
    event: UNIVERSAL_REQUESTED,
    functionId: UNIVERSAL_FUNCTION_ID,
    functionName: 'Extract universal memories for a passport user',
    concurrencyKey: 'event.data.passport_user_id',
  },
};

/** The body for a row's `kind` in `table`; none for a kind that does not live there (or no kind at all). */
export function jobBody(table: JobTable, kind: string): JobBody | undefined {
  const spec = Object.hasOwn(JOB_KINDS, kind) ? JOB_KINDS[kind as JobKind] : undefined;
  return spec && spec.table === table ? spec.body : undefined;
}
