import type { TenantJobKind } from '@memory/db';

/** The tenant job kinds a worker runs: a `direct` job is completed in the transaction that creates it. */
export type QueuedTenantJobKind = Exclude<TenantJobKind, 'direct'>;

/** How accepted work reaches a worker: the embedded runner (wake-up) or an Inngest event. */
export type JobKind = QueuedTenantJobKind | 'universal';

export type QueuedJob =
  | {
      jobId: string;
      tenantId: string;
      userId: string;
      /** `extraction` (an add) or `correction` (a user correction sent as retrieval feedback). */
      kind: QueuedTenantJobKind;
    }
  | {
      jobId: string;
      /** A universal extraction job (`universal_jobs`): it belongs to a passport user, not to a tenant. */
      kind: 'universal';
      passportUserId: string;
    };

export interface JobQueue {
  readonly name: string;
  enqueue(job: QueuedJob): Promise<void>;
}

export const EXTRACTION_QUEUE = 'memory-extraction';
/** The `queue_name` of the completed-at-once jobs of direct writes (docs/direct-operations.md). */
export const DIRECT_QUEUE = 'memory-direct';
/** The `queue_name` of correction jobs (docs/lifecycle.md, "Corrections"). */
export const CORRECTION_QUEUE = 'memory-correction';

/** What a correction job needs to know about its feedback (kept in the job's extraction_metadata). */
export interface CorrectionContext {
  kind: 'correction';
  retrieval_feedback_id: string;
  retrieval_id: string;
  /** The memories the feedback is about: the named ones, else all the retrieval returned. */
  target_memory_ids: string[];
  /** Only the memories the agent named in used_memory_ids. */
  named_memory_ids: string[];
}
