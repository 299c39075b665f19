/**
 * The universal extraction job (`universal_jobs`, docs/passport-universal.md): an agent with a read-write grant
 * sent a passport user's conversation. Load it, extract with the configured provider (the fallback takes
 * over on the last attempt, as for extraction), store only the granted categories in the universal store.
 * The same body runs under Inngest (`memory/universal.requested`) and in the embedded runner.
 */
import { type StoreSummary, loadUniversalInput, storeUniversalResult } from '@memory/core';
import { type Db, eq, universalJobs } from '@memory/db';
import { type AttemptInfo, type JobDeps, extractWithFallback } from './extraction';
import { NO_CHECKPOINT, type StepRunner, extractionCheckpoint } from './steps';

export const UNIVERSAL_REQUESTED = 'memory/universal.requested';
export const UNIVERSAL_FUNCTION_ID = 'memory-universal-extraction';

export interface UniversalEventData {
  job_id: string;
  passport_user_id: string;
}

export async function runUniversalExtraction(
  jobId: string,
  step: StepRunner,
  deps: JobDeps,
  attempt?: AttemptInfo,
): Promise<StoreSummary | null> {
  const input = await step.run('load-conversation', () => loadUniversalInput(deps.db, jobId), NO_CHECKPOINT);
  if (input.finished) return input.summary;
  const result = await step.run(
    'extract-memories',
    () =>
      extractWithFallback(jobId, { messages: input.messages, observedAt: new Date(input.observedAt) }, deps, {
        lastAttempt: async () => (attempt ? attempt.attempt >= attempt.maxAttempts : isLastAttempt(deps.db, jobId)),
      }),
    extractionCheckpoint(deps.extractor),
  );
  return step.run('store-memories', () => storeUniversalResult(deps.db, jobId, result), NO_CHECKPOINT);
}

async function isLastAttempt(db: Db, jobId: string): Promise<boolean> {
  const [row] = await db
    .select({ attempts: universalJobs.attempts, maxAttempts: universalJobs.maxAttempts })
    .from(universalJobs)
    .where(eq(universalJobs.id, jobId));
  return !row || row.attempts >= row.maxAttempts;
}
