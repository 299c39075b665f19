/** How accepted work reaches a worker: the embedded runner (wake-up) or an Inngest event. */
export interface QueuedJob {
  jobId: string;
  tenantId: string;
  userId: string;
  kind: 'extraction';
}

export interface JobQueue {
  readonly name: string;
  enqueue(job: QueuedJob): Promise<void>;
}

export const EXTRACTION_QUEUE = 'memory-extraction';
