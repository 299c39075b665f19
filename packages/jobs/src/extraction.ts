import {
  type ExtractionProvider,
  type StoreSummary,
  loadExtractionInput,
  storeExtractionResult,
} from '@memory/core';
import type { Db } from '@memory/db';
import type { StepRunner } from './steps';

export const EXTRACTION_REQUESTED = 'memory/extraction.requested';

export interface ExtractionEventData {
  job_id: string;
  tenant_id: string;
  user_id: string;
}

export interface JobDeps {
  db: Db;
  extractor: ExtractionProvider;
}

/**
 * The extraction function body: load the conversation, extract, store. It is the same code under
 * Inngest and in the embedded runner; only the StepRunner differs.
 */
export async function runExtraction(jobId: string, step: StepRunner, deps: JobDeps): Promise<StoreSummary | null> {
  const input = await step.run('load-conversation', () => loadExtractionInput(deps.db, jobId));
  if (input.finished) return input.summary;
  const result = await step.run('extract-memories', () =>
    deps.extractor.extract({ messages: input.messages, observedAt: new Date(input.observedAt) }),
  );
  return step.run('store-memories', () => storeExtractionResult(deps.db, jobId, result));
}
