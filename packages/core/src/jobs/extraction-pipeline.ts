/**
 * The two database-facing steps of an extraction run. The extraction function (packages/jobs) calls
 * them as steps, so the same code runs under Inngest and in the embedded runner. The store step's parts live
 * beside it: store-context.ts (what a run knows of the user's memories, batched inserts), store-memory.ts (one
 * memory: reinforce, buffer a weak signal, supersede or open a review) and store-composition.ts (entities and
 * relationships of the compositional pass).
 */
import { type Db, eq, extractionJobs, pendingCandidates, sourceEvents, sql, tenants } from '@memory/db';
import type { StoreOrigin } from './store-context';
import type { ExtractionResult } from '../extraction/types';
import type { ConversationMessage } from '../messages';
import { storeAnalysedPassages } from '../evidence/store';
import { jobEvent } from '../webhooks/memory-events';
import { MemoryWriter } from '../memories/writer';
import { type PreparedStore, prepareStore, preparedFits } from './prepare-store';
import { completeJob } from './repository';
import { type StoreContext, flushInserts, loadKnown } from './store-context';
import { storeOne } from './store-memory';
import type { ReviewBeforeWrite } from '../conflicts/review-before-write';

export { PENDING } from './store-memory';
import { storeComposition } from './store-composition';

type JobRow = typeof extractionJobs.$inferSelect;
type SourceEventRow = typeof sourceEvents.$inferSelect;

export class PermanentJobError extends Error {
  override name = 'PermanentJobError';
}

export interface ExtractionInputSnapshot {
  jobId: string;
  finished: boolean;
  summary: StoreSummary | null;
  messages: ConversationMessage[];
  observedAt: string;
  /** The tenant's domain schema when the job runs (the extractor adapts to it; docs/domain-schemas.md). */
  domain: string;
}

export interface StoreSummary {
  status: 'completed' | 'processed';
  memories_created: number;
  memories_reinforced: number;
  /** Passages of the conversation added to the evidence layer by this run (docs/evidence-layer.md). */
  passages_indexed?: number;
}

/** Loads the conversation a job extracts from. A job whose payload is gone can never succeed. */
export async function loadExtractionInput(db: Db, jobId: string): Promise<ExtractionInputSnapshot> {
  const [row] = await db
    .select({ job: extractionJobs, payload: sourceEvents.payload, observedAt: sourceEvents.observedAt, domain: tenants.domainSchema })
    .from(extractionJobs)
    .innerJoin(sourceEvents, eq(sourceEvents.id, extractionJobs.sourceEventId))
    .innerJoin(tenants, eq(tenants.id, extractionJobs.tenantId))
    .where(eq(extractionJobs.id, jobId))
    .limit(1);
  if (!row) throw new PermanentJobError(`job ${jobId} or its source event does not exist`);
  const finished = row.job.status === 'completed' || row.job.status === 'processed';
  if (finished) {
    return {
      jobId,
      finished,
      summary: {
        status: row.job.status as StoreSummary['status'],
        memories_created: row.job.memoriesCreated,
        memories_reinforced: Number((row.job.extractionMetadata as Record<string, unknown>).memories_reinforced ?? 0),
      },
      messages: [],
      observedAt: row.observedAt.toISOString(),
      domain: row.domain,
    };
  }
  const payload = row.payload as { messages?: ConversationMessage[] } | null;
  if (!payload?.messages) throw new PermanentJobError('the source payload was redacted before extraction ran');
  return { jobId, finished, summary: null, messages: payload.messages, observedAt: row.observedAt.toISOString(), domain: row.domain };
}

/**
 * Stores what the extractor found, in one transaction with the job's completion, so that a job that runs
 * twice writes each memory once: (job_id, fingerprint) is unique, and a finished job is left as it is.
 * A fact the user already has as an active memory is reinforced instead of copied. When the conversation's
 * `messages` are given, its passages join the evidence layer in the same transaction.
 */
export async function storeExtractionResult(
  db: Db,
  jobId: string,
  result: ExtractionResult,
  extraMetadata: Record<string, unknown> = {},
  conversation: { sentiment?: number | null; messages?: readonly ConversationMessage[]; prepared?: PreparedStore } = {},
): Promise<StoreSummary> {
  // The CPU work (claims, index analyses, the compositional pass, passages) is done before the transaction holds
  // its locks: by the caller on an extraction thread when it can, else here.
  const given = conversation.prepared;
  const prepared =
    given && preparedFits(given, result) && (given.passages !== null || !conversation.messages) ? given : prepareStore(result, conversation.messages);
  return db.transaction(async (tx) => {
    // The job (locked: one run stores at a time), its source event, and whether the user has pending candidates.
    const [row] = await tx
      .select({
        job: extractionJobs,
        event: sourceEvents,
        reviewBeforeWrite: tenants.reviewBeforeWrite,
        hasPending: sql<boolean>`exists (select 1 from ${pendingCandidates} where ${pendingCandidates.tenantId} = ${extractionJobs.tenantId} and ${pendingCandidates.userId} = ${extractionJobs.userId} and ${pendingCandidates.status} = 'pending')`,
      })
      .from(extractionJobs)
      .leftJoin(sourceEvents, eq(sourceEvents.id, extractionJobs.sourceEventId))
      .leftJoin(tenants, eq(tenants.id, extractionJobs.tenantId))
      .where(eq(extractionJobs.id, jobId))
      .for('update', { of: extractionJobs });
    if (!row) throw new PermanentJobError(`job ${jobId} does not exist`);
    const { job, event } = row;
    if (job.status === 'completed' || job.status === 'processed') {
      return {
        status: job.status as StoreSummary['status'],
        memories_created: job.memoriesCreated,
        memories_reinforced: Number((job.extractionMetadata as Record<string, unknown>).memories_reinforced ?? 0),
      };
    }
    return (
      await storeLocked(tx, job, event, result, prepared, {
        extraMetadata,
        sentiment: conversation.sentiment,
        hasPending: row.hasPending,
        reviewBeforeWrite: (row.reviewBeforeWrite as ReviewBeforeWrite | null) ?? null,
      })
    ).summary;
  });
}

/** How a run of the store step differs when it is a direct write (docs/direct-operations.md) rather than an extraction. */
export interface StoreRunOptions {
  extraMetadata?: Record<string, unknown>;
  sentiment?: number | null;
  /** `direct`: the ledger names `actor` and says the memory was written directly; no job event is sent. */
  origin?: StoreOrigin;
  actor?: string;
  /** Whether the user has pending candidates (false: none to read); unknown reads them when first needed. */
  hasPending?: boolean;
  /** The tenant's review-before-write setting (null or absent: off): new memories it matches are stored `pending`. */
  reviewBeforeWrite?: ReviewBeforeWrite | null;
}

/** What a run stored: the summary, each memory's id (null when buffered) and every ledger row it recorded. */
export interface StoreRun {
  summary: StoreSummary;
  stored: (string | null)[];
  changes: MemoryWriter['changes'];
}

/**
 * The store step inside its transaction, the job row already locked (or, for a direct write, inserted in this
 * transaction): reinforce, buffer, supersede or open reviews (store-memory.ts), the compositional pass, the
 * passages, the job's completion and the one write path's commit.
 */
export async function storeLocked(
  tx: Db,
  job: JobRow,
  event: SourceEventRow | null,
  result: ExtractionResult,
  prepared: PreparedStore,
  o: StoreRunOptions = {},
): Promise<StoreRun> {
  const extraMetadata = o.extraMetadata ?? {};
  const composed = prepared.composition;
  if (event && o.sentiment !== undefined && o.sentiment !== event.sentiment) {
    await tx.update(sourceEvents).set({ sentiment: o.sentiment }).where(eq(sourceEvents.id, event.id));
  }
  const ctx: StoreContext = {
    job,
    agentId: event?.agentId ?? null,
    observedAt: event?.observedAt ?? null,
    writerId: event?.writerId ?? null,
    actor: o.actor ?? `extractor:${result.metadata.provider}`,
    origin: o.origin ?? 'extraction',
    rules: new Map(),
    reviewBeforeWrite: o.reviewBeforeWrite ?? null,
    writer: new MemoryWriter(tx, job.tenantId),
    reviewsOpened: [],
    // none to read when the user has none: the ones this run buffers are added as it goes
    ...(o.hasPending === false ? { pending: [] } : {}),
    known: new Map(),
    thisJob: new Map(),
    inserts: [],
  };
  const { claims, analyses } = prepared;
  await loadKnown(tx, ctx, result.memories, claims);
  let created = 0;
  let reinforced = 0;
  let buffered = 0;
  let promoted = 0;
  let held = 0;
  const stored: (string | null)[] = [];
  for (const [i, m] of result.memories.entries()) {
    const { outcome, id, confirmed } = await storeOne(tx, ctx, m, claims[i], analyses[i]);
    // a held memory is stored (pending): it counts as created, and apart as held
    if (outcome === 'created' || outcome === 'promoted' || outcome === 'held') created++;
    if (outcome === 'held') held++;
    if (outcome === 'reinforced') reinforced++;
    if (outcome === 'buffered') buffered++;
    if (outcome === 'promoted') promoted++;
    promoted += confirmed;
    stored.push(id);
  }
  await flushInserts(tx, ctx);
  const compositional = await storeComposition(tx, job, result, composed, stored);
  const passagesIndexed =
    event && prepared.passages
      ? await storeAnalysedPassages(
          tx,
          { tenantId: job.tenantId, userId: job.userId, sourceEventId: event.id, jobId: job.id, agentId: event.agentId, observedAt: event.observedAt },
          prepared.passages,
        )
      : 0;
  // the new passages are read by retrieval too
  if (passagesIndexed > 0) ctx.writer.touch(job.userId);
  const status: StoreSummary['status'] = created + reinforced > 0 ? 'completed' : 'processed';
  await completeJob(tx, job.id, {
    status,
    memoriesCreated: created,
    pendingCandidatesBuffered: buffered,
    pendingCandidatesPromoted: promoted,
    extractionMetadata: {
      ...(job.extractionMetadata as Record<string, unknown>),
      ...result.metadata,
      ...compositional,
      ...extraMetadata,
      memories_extracted: result.memories.length,
      memories_reinforced: reinforced,
      memories_held_for_review: held,
      passages_indexed: passagesIndexed,
      nothing_to_extract: result.memories.length === 0,
    },
    provider: result.metadata.provider,
    // The job's total over all its attempts (runExtraction includes what failed attempts spent); `{}` while no model was called.
    tokenUsage: result.usage ?? job.tokenUsage,
  });
  await ctx.writer.commit(
    (ids) => [
      ...ctx.reviewsOpened.map((r) => ({ type: 'review.created' as const, data: { ...r, external_user_id: ids.get(job.userId) ?? null } })),
      // a direct write answers its caller at once: no job to announce
      ...(o.origin === 'direct' ? [] : [jobEvent(job, { status, memories_created: created, memories_reinforced: reinforced }, ids)]),
    ],
    [job.userId],
  );
  const summary: StoreSummary = { status, memories_created: created, memories_reinforced: reinforced, passages_indexed: passagesIndexed };
  return { summary, stored, changes: ctx.writer.changes };
}
