/**
 * The correction job (kind `correction`): a user corrected a memory through retrieval feedback. Load the
 * correction text, extract memories from it with the configured extractor, store them and supersede what
 * they contradict (packages/core/src/jobs/correction-pipeline.ts). The same body runs under Inngest
 * (`memory/correction.requested`) and in the embedded runner, like extraction.
 */
import { type CorrectionSummary, loadCorrectionInput, storeCorrectionResult } from '@memory/core';
import type { JobDeps } from './extraction';
import { NO_CHECKPOINT, type StepRunner, extractionCheckpoint } from './steps';

export const CORRECTION_REQUESTED = 'memory/correction.requested';
export const CORRECTION_FUNCTION_ID = 'memory-correction';

export async function runCorrection(jobId: string, step: StepRunner, deps: JobDeps): Promise<CorrectionSummary | null> {
  const input = await step.run('load-correction', () => loadCorrectionInput(deps.db, jobId), NO_CHECKPOINT);
  if (input.finished) return input.summary;
  const result = await step.run(
    'extract-memories',
    () => deps.extractor.extract({ messages: input.messages, observedAt: new Date(input.observedAt), domain: input.domain }),
    extractionCheckpoint(deps.extractor),
  );
  return step.run('store-correction', () => storeCorrectionResult(deps.db, jobId, result), NO_CHECKPOINT);
}
