import {
  type ExtractionInput,
  type ExtractionProvider,
  type ExtractionResult,
  type ExtractionThreads,
  type Logger,
  ProviderCallError,
  type StoreSummary,
  type TokenUsage,
  type EmbeddingsProvider,
  addJobTokenUsage,
  addTokenUsage,
  conversationSentiment,
  embedJobMemories,
  jobTokenUsage,
  loadExtractionInput,
  storeExtractionResult,
} from '@memory/core';
import { type Db, eq, extractionJobs } from '@memory/db';
import { NO_CHECKPOINT, type StepRunner, extractionCheckpoint } from './steps';

export const EXTRACTION_REQUESTED = 'memory/extraction.requested';

export interface ExtractionEventData {
  job_id: string;
  tenant_id: string;
  user_id: string;
}

export interface JobDeps {
  db: Db;
  extractor: ExtractionProvider;
  /**
   * Takes over when `extractor` fails on the job's last attempt, or at once when its failure is permanent
   * (bad key, unknown model): the built-in extractor when an LLM is configured, so no conversation is lost.
   */
  fallback?: ExtractionProvider | null;
  /** Worker threads for the store step's CPU work (and, through `extractor`, the built-in extractor); null: inline. */
  threads?: ExtractionThreads | null;
  /** The configured embeddings endpoint: new memories get a vector after they are stored. */
  embeddings?: EmbeddingsProvider | null;
  log?: Logger;
}

/** Which attempt of the job this run is (1-based), as the execution mode counts them. */
export interface AttemptInfo {
  attempt: number;
  maxAttempts: number;
}

/**
 * The extraction function body: load the conversation, extract, store. It is the same code under
 * Inngest and in the embedded runner; only the StepRunner (and where the attempt count comes from) differs.
 * Without `attempt` the job row's attempts/max_attempts are read.
 */
export async function runExtraction(
  jobId: string,
  step: StepRunner,
  deps: JobDeps,
  attempt?: AttemptInfo,
): Promise<StoreSummary | null> {
  const input = await step.run('load-conversation', () => loadExtractionInput(deps.db, jobId), NO_CHECKPOINT);
  if (input.finished) return input.summary;
  const result = await step.run(
    'extract-memories',
    async () =>
      withEarlierUsage(
        deps.db,
        jobId,
        await extractOrFallBack(jobId, { messages: input.messages, observedAt: new Date(input.observedAt), domain: input.domain }, deps, attempt),
      ),
    extractionCheckpoint(deps.extractor),
  );
  const summary = await step.run('store-memories', async () => {
    // claims, vectors, the compositional pass and the passages: on a thread when there are threads
    const prepared = deps.threads ? await deps.threads.prepare(result, input.messages) : undefined;
    return storeExtractionResult(deps.db, jobId, result, {}, { sentiment: conversationSentiment(input.messages), messages: input.messages, prepared });
  }, NO_CHECKPOINT);
  const embeddings = deps.embeddings;
  if (embeddings && summary.memories_created > 0) {
    await step.run('embed-memories', () => embedJobMemories(deps.db, jobId, embeddings, deps.log));
  }
  return summary;
}

/**
 * A failing provider is retried by the job's own retries (the step throws); the tokens a failed attempt
 * spent are added to the job row first. On the last attempt, or for a permanent failure, the fallback
 * extracts instead and `extraction_metadata` says so (`fallback_from`, `fallback_reason`).
 */
function extractOrFallBack(jobId: string, input: ExtractionInput, deps: JobDeps, attempt: AttemptInfo | undefined) {
  return extractWithFallback(jobId, input, deps, {
    lastAttempt: () => isLastAttempt(deps.db, jobId, attempt),
    spent: (usage) => addJobTokenUsage(deps.db, jobId, usage),
  });
}

/** The provider, or its fallback on the last attempt or after a permanent failure (any job table). */
export async function extractWithFallback(
  jobId: string,
  input: ExtractionInput,
  deps: JobDeps,
  job: { lastAttempt: () => Promise<boolean>; spent?: (usage: TokenUsage) => Promise<void> },
): Promise<ExtractionResult> {
  try {
    return await deps.extractor.extract(input);
  } catch (err) {
    const failure = err instanceof ProviderCallError ? err : null;
    if (!deps.fallback || (!failure?.permanent && !(await job.lastAttempt()))) {
      // The job retries (or ends dead); the tokens this attempt paid for still count.
      if (failure?.usage?.calls) await job.spent?.(failure.usage);
      throw err;
    }
    const reason = failure?.reason ?? 'provider_error';
    deps.log?.warn({ job_id: jobId, provider: deps.extractor.name, fallback: deps.fallback.name, reason }, 'extraction falls back');
    const fallen = await deps.fallback.extract(input);
    const spent = failure?.usage?.calls ? addTokenUsage(fallen.usage, failure.usage) : fallen.usage;
    return {
      ...fallen,
      metadata: { ...fallen.metadata, fallback_from: deps.extractor.name, fallback_reason: reason },
      ...(spent ? { usage: spent } : {}),
    };
  }
}

/** A result's usage becomes the job's total: plus what earlier, failed attempts spent. */
async function withEarlierUsage(db: Db, jobId: string, result: ExtractionResult): Promise<ExtractionResult> {
  if (!result.usage) return result;
  return { ...result, usage: addTokenUsage(await jobTokenUsage(db, jobId), result.usage) };
}

async function isLastAttempt(db: Db, jobId: string, attempt: AttemptInfo | undefined): Promise<boolean> {
  if (attempt) return attempt.attempt >= attempt.maxAttempts;
  const [row] = await db
    .select({ attempts: extractionJobs.attempts, maxAttempts: extractionJobs.maxAttempts })
    .from(extractionJobs)
    .where(eq(extractionJobs.id, jobId));
  return !row || row.attempts >= row.maxAttempts;
}
