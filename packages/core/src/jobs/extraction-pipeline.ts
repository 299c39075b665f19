/**
 * The two database-facing steps of an extraction run. The extraction function (packages/jobs) calls
 * them as steps, so the same code runs under Inngest and in the embedded runner.
 */
import { randomUUID } from 'node:crypto';
import {
  type Db,
  type MemoryStatus,
  and,
  entities,
  entityRelationships,
  eq,
  extractionJobs,
  inArray,
  memories,
  or,
  memoryEntities,
  pendingCandidates,
  reviews,
  serviceWriters,
  sourceEvents,
  sql,
  tenants,
} from '@memory/db';
import { type Claim, claimOfMemory, clarificationQuestion, detectClaim, relateClaims, storedClaim } from '../conflicts/claims';
import { type DecidedBy, authorityFor } from '../conflicts/decide';
import { type ExistingClaim, planClaim, reinforcedScores } from '../conflicts/plan';
import type { Composition } from '../extraction/compose';
import type { ExtractedMemory, ExtractionResult } from '../extraction/types';
import type { ConversationMessage } from '../messages';
import { memoryFingerprint } from '../memories/fingerprint';
import { storeAnalysedPassages } from '../evidence/store';
import type { StoredAnalysis } from '../text/analysis';
import { jobEvent } from '../webhooks/memory-events';
import { ledgerRow } from '../memories/ledger';
import { MemoryWriter } from '../memories/writer';
import type { WebhookEventInput } from '../webhooks/outbox';
import { type PreparedStore, prepareStore, preparedFits } from './prepare-store';
import { completeJob } from './repository';

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
  const composed = prepared.composition;
  return db.transaction(async (tx) => {
    // The job (locked: one run stores at a time), its source event, and whether the user has pending candidates.
    const [row] = await tx
      .select({
        job: extractionJobs,
        event: sourceEvents,
        hasPending: sql<boolean>`exists (select 1 from ${pendingCandidates} where ${pendingCandidates.tenantId} = ${extractionJobs.tenantId} and ${pendingCandidates.userId} = ${extractionJobs.userId} and ${pendingCandidates.status} = 'pending')`,
      })
      .from(extractionJobs)
      .leftJoin(sourceEvents, eq(sourceEvents.id, extractionJobs.sourceEventId))
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
    if (event && conversation.sentiment !== undefined && conversation.sentiment !== event.sentiment) {
      await tx.update(sourceEvents).set({ sentiment: conversation.sentiment }).where(eq(sourceEvents.id, event.id));
    }
    const ctx: StoreContext = {
      job,
      agentId: event?.agentId ?? null,
      observedAt: event?.observedAt ?? null,
      writerId: event?.writerId ?? null,
      actor: `extractor:${result.metadata.provider}`,
      rules: new Map(),
      writer: new MemoryWriter(tx, job.tenantId),
      reviewsOpened: [],
      // none to read when the user has none: the ones this run buffers are added as it goes
      ...(row.hasPending ? {} : { pending: [] }),
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
    const stored: (string | null)[] = [];
    for (const [i, m] of result.memories.entries()) {
      const { outcome, id, confirmed } = await storeOne(tx, ctx, m, claims[i], analyses[i]);
      if (outcome === 'created' || outcome === 'promoted') created++;
      if (outcome === 'reinforced') reinforced++;
      if (outcome === 'buffered') buffered++;
      if (outcome === 'promoted') promoted++;
      promoted += confirmed;
      stored.push(id);
    }
    await flushInserts(tx, ctx);
    const compositional = await storeComposition(tx, ctx, result, composed, stored);
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
    await completeJob(tx, jobId, {
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
        jobEvent(job, { status, memories_created: created, memories_reinforced: reinforced }, ids),
      ],
      [job.userId],
    );
    return { status, memories_created: created, memories_reinforced: reinforced, passages_indexed: passagesIndexed };
  });
}


type JobRow = typeof extractionJobs.$inferSelect;
type MemoryRow = typeof memories.$inferSelect;
type Rules = { default_priority: number; categories?: Record<string, number> };

/** Per-job context for conflict decisions: the event's writer and a cache of other writers' rules. */
interface StoreContext {
  job: JobRow;
  agentId: string | null;
  observedAt: Date | null;
  writerId: string | null;
  actor: string;
  rules: Map<string, Rules | null>;
  /** The user's pending candidates, read once per job when a confident memory first needs them. */
  pending?: { id: string; fingerprint: string; content: string }[];
  /** Every memory change of this run (memories/writer.ts), committed with the job's completion. */
  writer: MemoryWriter;
  /** The reviews this run opened: their webhook events are recorded with the job's completion. */
  reviewsOpened: WebhookEventInput['data'][];
  /**
   * The user's active memories that share a fingerprint or a claim subject with this run's memories, read once
   * (`loadKnown`) and kept current as this run reinforces and supersedes them.
   */
  known: Map<string, MemoryRow>;
  /** This run's memories by fingerprint: the id, and whether it was stored active. */
  thisJob: Map<string, { id: string; active: boolean }>;
  /** This run's new memories, written in one statement (`flushInserts`) before anything links to them. */
  inserts: (typeof memories.$inferInsert)[];
}

/** Reads, in one statement, the user's active memories any of this run's memories may repeat or contradict. */
async function loadKnown(tx: Db, ctx: StoreContext, found: readonly ExtractedMemory[], claims: readonly (Claim | null)[]) {
  if (found.length === 0) return;
  const fingerprints = [...new Set(found.map((m) => memoryFingerprint(m.content)))];
  const subjects = [...new Set(claims.flatMap((c) => (c ? [c.subject] : [])))];
  const rows = await tx
    .select()
    .from(memories)
    .where(
      and(
        eq(memories.tenantId, ctx.job.tenantId),
        eq(memories.userId, ctx.job.userId),
        eq(memories.status, 'active'),
        subjects.length > 0 ? or(inArray(memories.fingerprint, fingerprints), inArray(memories.subject, subjects)) : inArray(memories.fingerprint, fingerprints),
      ),
    );
  for (const r of rows) ctx.known.set(r.id, r);
}

/** An active memory of the user with this fingerprint: this run's own first, then one read by `loadKnown`. */
function activeWithFingerprint(ctx: StoreContext, fingerprint: string): { id: string; jobId: string | null; row: MemoryRow | null } | null {
  const own = ctx.thisJob.get(fingerprint);
  if (own?.active) return { id: own.id, jobId: ctx.job.id, row: null };
  for (const r of ctx.known.values()) if (r.status === 'active' && r.fingerprint === fingerprint) return { id: r.id, jobId: r.jobId, row: r };
  return null;
}

/** Writes this run's new memories (one statement). Every one must be new: a conflict means another run stored them. */
async function flushInserts(tx: Db, ctx: StoreContext) {
  if (ctx.inserts.length === 0) return;
  const rows = ctx.inserts.splice(0);
  const inserted = await tx.insert(memories).values(rows).onConflictDoNothing().returning({ id: memories.id });
  if (inserted.length !== rows.length) throw new Error(`job ${ctx.job.id}: ${rows.length - inserted.length} of its memories were already stored`);
}

async function writerRules(tx: Db, ctx: StoreContext, writerId: string | null): Promise<Rules | null> {
  if (!writerId) return null;
  if (!ctx.rules.has(writerId)) {
    const [w] = await tx.select().from(serviceWriters).where(eq(serviceWriters.id, writerId));
    ctx.rules.set(writerId, (w?.authorityRules as Rules | undefined) ?? null);
  }
  return ctx.rules.get(writerId) ?? null;
}

/** Records a change of a memory of this job's user on the job's write path, with the job as its provenance. */
function ledger(
  ctx: StoreContext,
  memory: Pick<MemoryRow, 'id' | 'content'>,
  entry: { action: string; from: string | null; to: string; reason: string; details?: Record<string, unknown> },
) {
  ctx.writer.record(
    ledgerRow(
      { id: memory.id, tenantId: ctx.job.tenantId, userId: ctx.job.userId, content: memory.content, sourceEventId: ctx.job.sourceEventId, jobId: ctx.job.id },
      { ...entry, actor: ctx.actor },
    ),
  );
}

async function reinforce(tx: Db, ctx: StoreContext, existing: MemoryRow, m: ExtractedMemory, why: string) {
  const { importance, confidence } = reinforcedScores(existing, m);
  await tx.update(memories).set({ importance, confidence, updatedAt: sql`now()` }).where(eq(memories.id, existing.id));
  const importanceBefore = existing.importance;
  existing.importance = importance;
  existing.confidence = confidence;
  ledger(ctx, existing, {
    action: 'reinforced',
    from: existing.status,
    to: existing.status,
    reason: why,
    details: { importance_before: importanceBefore, importance_after: importance, message_indices: m.messageIndices },
  });
}

const BY_REASON: Record<DecidedBy, string> = {
  authority: 'higher writer authority',
  recency: 'a more recent observation',
  change: 'change language at the same moment',
  confidence: 'higher extraction confidence',
  user_correction: "the user's own correction",
};

type StoreOutcome = { outcome: 'created' | 'reinforced' | 'buffered' | 'promoted'; id: string | null; confirmed: number };

/**
 * Pending candidates (docs/memory-model.md): a weak signal (confidence below PENDING.maxConfidence: hedged,
 * or a low-confidence provider result) is buffered in `pending_candidates` instead of becoming a memory.
 * It is promoted to a memory when it is said again in another conversation (PENDING.promoteAfter
 * occurrences), or confirmed when a confident memory states the same fact (same fingerprint) or the same
 * claim (subject and value).
 */
export const PENDING = { maxConfidence: 0.6, promoteAfter: 2, promotedConfidence: 0.7 } as const;

async function storeOne(tx: Db, ctx: StoreContext, m: ExtractedMemory, claim: Claim | null, analysis: StoredAnalysis): Promise<StoreOutcome> {
  const fingerprint = memoryFingerprint(m.content);
  const found = { fingerprint, claim, analysis };
  if (m.confidence < PENDING.maxConfidence) {
    const weak = await bufferWeakSignal(tx, ctx, m, fingerprint);
    if (weak) return weak;
    const r = await storeMemory(tx, ctx, { ...m, confidence: Math.max(m.confidence, PENDING.promotedConfidence) }, found);
    return { ...r, outcome: 'promoted' };
  }
  const r = await storeMemory(tx, ctx, m, found);
  const confirmed = r.outcome === 'created' && r.id ? await confirmPending(tx, ctx, m, fingerprint, r.id) : 0;
  return { ...r, confirmed };
}

/** Buffers a weak signal; null means "promote it now" (it has been said often enough). */
async function bufferWeakSignal(tx: Db, ctx: StoreContext, m: ExtractedMemory, fingerprint: string): Promise<StoreOutcome | null> {
  const { job } = ctx;
  // Already a memory: storeMemory reinforces it.
  if (activeWithFingerprint(ctx, fingerprint)) return null;
  const [candidate] = await tx
    .select()
    .from(pendingCandidates)
    .where(and(eq(pendingCandidates.tenantId, job.tenantId), eq(pendingCandidates.userId, job.userId), eq(pendingCandidates.fingerprint, fingerprint)))
    .for('update');
  if (!candidate) {
    const id = randomUUID();
    // a confident statement later in this job may still confirm it
    ctx.pending?.push({ id, fingerprint, content: m.content });
    await tx.insert(pendingCandidates).values({
      id,
      tenantId: job.tenantId,
      userId: job.userId,
      fingerprint,
      content: m.content,
      category: m.category,
      importance: m.importance,
      confidence: m.confidence,
      reason: m.confidence <= 0.5 ? 'hedged' : 'low_confidence',
      sourceEventId: job.sourceEventId,
      jobId: job.id,
      messageIndices: m.messageIndices,
      observedAt: ctx.observedAt,
    });
    return { outcome: 'buffered', id: null, confirmed: 0 };
  }
  // The same job seen again (a retried run): it was counted then.
  if (candidate.jobId === job.id || candidate.status !== 'pending') {
    return candidate.status === 'pending' ? { outcome: 'buffered', id: null, confirmed: 0 } : null;
  }
  const occurrences = candidate.occurrences + 1;
  if (occurrences < PENDING.promoteAfter) {
    await tx
      .update(pendingCandidates)
      .set({ occurrences, jobId: job.id, updatedAt: sql`now()` })
      .where(eq(pendingCandidates.id, candidate.id));
    return { outcome: 'buffered', id: null, confirmed: 0 };
  }
  await tx
    .update(pendingCandidates)
    .set({ occurrences, status: 'promoted', jobId: job.id, updatedAt: sql`now()` })
    .where(eq(pendingCandidates.id, candidate.id));
  return null;
}

/** A confident memory confirms the user's pending candidates that state the same fact or claim. */
async function confirmPending(tx: Db, ctx: StoreContext, m: ExtractedMemory, fingerprint: string, memoryId: string): Promise<number> {
  const { job } = ctx;
  ctx.pending ??= await tx
    .select({ id: pendingCandidates.id, fingerprint: pendingCandidates.fingerprint, content: pendingCandidates.content })
    .from(pendingCandidates)
    .where(and(eq(pendingCandidates.tenantId, job.tenantId), eq(pendingCandidates.userId, job.userId), eq(pendingCandidates.status, 'pending')));
  const pending = ctx.pending;
  if (pending.length === 0) return 0;
  const claim = claimOfMemory(m);
  const confirmed = pending.filter((p) => {
    if (p.fingerprint === fingerprint) return true;
    if (!claim) return false;
    const c = detectClaim(p.content);
    return c !== null && relateClaims(c, claim) === 'same';
  });
  for (const p of confirmed) {
    await tx
      .update(pendingCandidates)
      .set({ status: 'promoted', promotedMemoryId: memoryId, updatedAt: sql`now()` })
      .where(eq(pendingCandidates.id, p.id));
  }
  ctx.pending = pending.filter((p) => !confirmed.includes(p));
  return confirmed.length;
}

/** What the store step knows of a memory before it looks at the database (`claim`: jobs/prepare-store.ts). */
interface Found {
  fingerprint: string;
  claim: Claim | null;
  analysis: StoredAnalysis;
}

async function storeMemory(tx: Db, ctx: StoreContext, m: ExtractedMemory, found: Found): Promise<StoreOutcome> {
  const { fingerprint, claim, analysis } = found;
  const { job } = ctx;
  const created = (id: string | null): StoreOutcome => ({ outcome: 'created', id, confirmed: 0 });
  const reinforced = (id: string): StoreOutcome => ({ outcome: 'reinforced', id, confirmed: 0 });
  const same = activeWithFingerprint(ctx, fingerprint);
  if (same) {
    // Said earlier in this same run: it counts as created, once more.
    if (same.jobId === job.id || !same.row) return created(same.id);
    await reinforce(tx, ctx, same.row, m, 'the same fact was stated again');
    return reinforced(same.id);
  }
  // Said earlier in this run and stored inactive (it lost a conflict, or waits for a review): nothing more to store.
  if (ctx.thisJob.has(fingerprint)) return created(null);

  const rivals = claim
    ? [...ctx.known.values()].filter((r) => r.status === 'active' && r.subject === claim.subject && r.jobId !== job.id)
    : [];
  const id = randomUUID();
  if (!claim || rivals.length === 0) return storeNew(tx, ctx, m, { id, fingerprint, claim, analysis, supersede: [], ties: [] });

  // The plan (conflicts/plan.ts) is decided before anything is written.
  const corrected = await correctionJobIds(tx, rivals);
  const existing: ExistingClaim[] = [];
  for (const rival of rivals) {
    const stored = storedClaim(rival);
    if (!stored) continue;
    existing.push({
      memoryId: rival.id,
      claim: stored,
      evidence: {
        authority: authorityFor(await writerRules(tx, ctx, rival.writerId), rival.category),
        observedAt: rival.observedAt ?? rival.createdAt,
        confidence: rival.confidence,
        writerId: rival.writerId,
        change: detectClaim(rival.content)?.change ?? false,
        userCorrected: rival.jobId !== null && corrected.has(rival.jobId),
      },
    });
  }
  const plan = planClaim(
    {
      claim,
      evidence: {
        authority: authorityFor(await writerRules(tx, ctx, ctx.writerId), m.category),
        observedAt: ctx.observedAt ?? new Date(),
        confidence: m.confidence,
        writerId: ctx.writerId,
        change: claim.change,
      },
    },
    existing,
  );
  const byId = new Map(rivals.map((r) => [r.id, r]));
  if (plan.kind === 'reinforce') {
    await reinforce(tx, ctx, byId.get(plan.memoryId)!, m, 'the same claim was stated again in other words');
    return reinforced(plan.memoryId);
  }
  if (plan.kind === 'lose') {
    insertMemory(ctx, m, { id, fingerprint, claim, analysis, status: 'inactive', supersededBy: plan.to });
    ledger(ctx, { id, content: m.content }, {
      action: 'created',
      from: null,
      to: 'inactive',
      reason: `lost a conflict about ${claim.subject} to memory ${plan.to}: it has ${BY_REASON[plan.by]}`,
      details: { conflict_with: plan.to, decided_by: plan.by, message_indices: m.messageIndices },
    });
    return created(id);
  }
  return storeNew(tx, ctx, m, {
    id,
    fingerprint,
    claim,
    analysis,
    supersede: plan.supersede.map((s) => ({ rival: byId.get(s.memoryId)!, by: s.by })),
    ties: plan.review.map((r) => byId.get(r)!),
  });
}

/** Stores a new memory active (inactive while a review it opens is pending), superseding the claims it beat. */
async function storeNew(
  tx: Db,
  ctx: StoreContext,
  m: ExtractedMemory,
  o: Found & { id: string; supersede: { rival: MemoryRow; by: DecidedBy }[]; ties: MemoryRow[] },
): Promise<StoreOutcome> {
  const { job } = ctx;
  const { id, fingerprint, claim, ties } = o;
  const created = (memoryId: string | null): StoreOutcome => ({ outcome: 'created', id: memoryId, confirmed: 0 });
  const losers = o.supersede;
  const status: 'active' | 'inactive' = ties.length > 0 ? 'inactive' : 'active';
  insertMemory(ctx, m, { id, fingerprint, claim, analysis: o.analysis, status, supersededBy: null });
  ledger(ctx, { id, content: m.content }, {
    action: 'created',
    from: null,
    to: status,
    reason: ties.length > 0 ? 'extracted from a conversation; contradicts an equally trusted claim, waiting for review' : 'extracted from a conversation',
    details: { category: m.category, importance: m.importance, confidence: m.confidence, message_indices: m.messageIndices },
  });
  for (const { rival, by } of losers) {
    await tx.update(memories).set({ status: 'inactive', supersededBy: id, updatedAt: sql`now()` }).where(eq(memories.id, rival.id));
    rival.status = 'inactive';
    rival.supersededBy = id;
    ledger(ctx, rival, {
      action: 'superseded',
      from: 'active',
      to: 'inactive',
      reason: `superseded by memory ${id} about ${claim?.subject}: it has ${BY_REASON[by]}`,
      details: { superseded_by: id, decided_by: by, superseding_source_event_id: job.sourceEventId, ...(claim?.negated ? { ended: true } : {}) },
    });
  }
  for (const rival of ties) {
    await tx.update(memories).set({ status: 'inactive', updatedAt: sql`now()` }).where(eq(memories.id, rival.id));
    rival.status = 'inactive';
    const reviewId = randomUUID();
    const rivalClaim = detectClaim(rival.content);
    await tx.insert(reviews).values({
      id: reviewId,
      tenantId: job.tenantId,
      userId: job.userId,
      subject: claim?.subject ?? 'unknown',
      claimAId: rival.id,
      claimBId: id,
      question: clarificationQuestion(claim?.subject ?? '', rivalClaim?.display ?? rival.claimValue ?? rival.content, claim?.display ?? m.content),
    });
    ctx.reviewsOpened.push({ review_id: reviewId, subject: claim?.subject ?? 'unknown', claim_a_id: rival.id, claim_b_id: id, job_id: job.id });
    for (const memory of [rival, { id, content: m.content }]) {
      ledger(ctx, memory, {
        action: 'review_opened',
        from: memory.id === id ? 'inactive' : 'active',
        to: 'inactive',
        reason: `equally trusted claims about ${claim?.subject} disagree; a person decides`,
        details: { review_id: reviewId },
      });
    }
  }
  return created(id);
}

/** Which of these memories came from a user's correction (a `correction` job): such a claim never waits for a review. */
async function correctionJobIds(tx: Db, rows: MemoryRow[]): Promise<Set<string>> {
  const jobIds = [...new Set(rows.map((r) => r.jobId).filter((id): id is string => id !== null))];
  if (jobIds.length === 0) return new Set();
  const found = await tx
    .select({ id: extractionJobs.id })
    .from(extractionJobs)
    .where(and(inArray(extractionJobs.id, jobIds), eq(extractionJobs.kind, 'correction')));
  return new Set(found.map((j) => j.id));
}

async function storeComposition(
  tx: Db,
  ctx: StoreContext,
  result: ExtractionResult,
  composed: Composition | { error: string },
  stored: (string | null)[],
) {
  const report = {
    compositional_pass_attempted: true,
    compositional_pass_used: false,
    compositional_entities: 0,
    compositional_relationships: 0,
    compositional_error: null as string | null,
  };
  if (result.memories.length === 0) return { ...report, compositional_pass_attempted: false };
  if ('error' in composed) return { ...report, compositional_error: composed.error };
  const composition = composed;
  const { job } = ctx;
  // Three statements for the whole job, whatever the number of entities: the entities (new ones inserted, known
  // ones counted once more), the memory links, the relationships.
  const linked = new Map<string, { e: Composition['entities'][number]; memoryIds: string[] }>();
  for (const e of composition.entities) {
    const memoryIds = [...new Set(e.memoryIndices.map((i) => stored[i]).filter((id): id is string => Boolean(id)))];
    if (memoryIds.length === 0) continue;
    const seen = linked.get(e.normalized);
    // one row per normalized name: a statement may not update the same row twice
    if (seen) seen.memoryIds = [...new Set([...seen.memoryIds, ...memoryIds])];
    else linked.set(e.normalized, { e, memoryIds });
  }
  const ids = new Map<string, string>();
  if (linked.size > 0) {
    const rows = await tx
      .insert(entities)
      .values([...linked.values()].map(({ e }) => ({ id: randomUUID(), tenantId: job.tenantId, userId: job.userId, name: e.name, normalized: e.normalized, kind: e.kind })))
      .onConflictDoUpdate({
        target: [entities.tenantId, entities.userId, entities.normalized],
        set: { mentionCount: sql`${entities.mentionCount} + 1`, updatedAt: sql`now()` },
      })
      .returning({ id: entities.id, normalized: entities.normalized });
    for (const row of rows) ids.set(row.normalized, row.id);
    await tx
      .insert(memoryEntities)
      .values([...linked].flatMap(([normalized, { memoryIds }]) => memoryIds.map((memoryId) => ({ tenantId: job.tenantId, memoryId, entityId: ids.get(normalized)! }))))
      .onConflictDoNothing();
  }
  const relationshipRows = composition.relationships.flatMap((r) => {
    const subject = ids.get(r.subject);
    const object = ids.get(r.object);
    if (!subject || !object) return [];
    return [{ id: randomUUID(), tenantId: job.tenantId, userId: job.userId, subjectEntityId: subject, predicate: r.predicate, objectEntityId: object, memoryId: stored[r.memoryIndex] ?? null }];
  });
  const relationships =
    relationshipRows.length === 0
      ? 0
      : (await tx.insert(entityRelationships).values(relationshipRows).onConflictDoNothing().returning({ id: entityRelationships.id })).length;
  return {
    ...report,
    compositional_pass_used: ids.size > 0,
    compositional_entities: ids.size,
    compositional_relationships: relationships,
  };
}

/** Queues a new memory of this run for `flushInserts`. */
function insertMemory(
  ctx: StoreContext,
  m: ExtractedMemory,
  o: Found & { id: string; status: MemoryStatus; supersededBy: string | null },
): void {
  ctx.thisJob.set(o.fingerprint, { id: o.id, active: o.status === 'active' });
  ctx.inserts.push({
    id: o.id,
    tenantId: ctx.job.tenantId,
    userId: ctx.job.userId,
    agentId: ctx.agentId,
    content: m.content,
    category: m.category,
    status: o.status,
    importance: m.importance,
    confidence: m.confidence,
    fingerprint: o.fingerprint,
    sourceEventId: ctx.job.sourceEventId,
    jobId: ctx.job.id,
    messageIndices: m.messageIndices,
    observedAt: ctx.observedAt,
    subject: o.claim?.subject ?? null,
    claimValue: o.claim?.value ?? null,
    claimNegated: o.claim?.negated ?? false,
    writerId: ctx.writerId,
    supersededBy: o.supersededBy,
    ...o.analysis,
  });
}
