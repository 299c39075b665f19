/**
 * An extraction job as the API shows it (GET /v1/jobs/{id} and the user's export bundle): kept beside the memories'
 * serialisers, so the export in manage.ts needs nothing of jobs/ (whose pipelines write memories).
 */
import type { extractionJobs } from '@memory/db';
import { type TokenUsage, addTokenUsage } from '../llm/openai-compatible';
import type { ExtractionJobView } from '../schemas/memories';

export type JobRow = typeof extractionJobs.$inferSelect;

const emptyCompositional = {
  compositional_pass_attempted: false,
  compositional_pass_used: false,
  compositional_entities: 0,
  compositional_relationships: 0,
  compositional_error: null,
};

export function toJobView(job: JobRow, externalUserId: string): ExtractionJobView {
  return {
    job_id: job.id,
    status: job.status as ExtractionJobView['status'],
    memories_created: job.memoriesCreated,
    pending_candidates_buffered: job.pendingCandidatesBuffered,
    pending_candidates_promoted: job.pendingCandidatesPromoted,
    attempts: job.attempts,
    queue_name: job.queueName,
    error: job.error,
    error_summary: job.errorSummary,
    extraction_metadata: { ...emptyCompositional, ...(job.extractionMetadata as Record<string, unknown>) },
    provider: job.provider,
    token_usage: tokenUsageView(job.tokenUsage),
    external_user_id: externalUserId,
    source_event_id: job.sourceEventId,
    created_at: job.createdAt.toISOString(),
    updated_at: job.updatedAt.toISOString(),
    finished_at: job.finishedAt ? job.finishedAt.toISOString() : null,
  };
}

/** The job row keeps `{}` until a model is called; the API says null then. */
function tokenUsageView(stored: unknown): TokenUsage | null {
  const u = stored as Partial<TokenUsage> | null;
  return u && typeof u.calls === 'number' && u.calls > 0 ? addTokenUsage(u, null) : null;
}
