/**
 * The store step for one extracted memory (extraction-pipeline.ts): the same fact again reinforces it, a weak signal
 * waits in pending_candidates until it is confirmed, a claim that contradicts an active one supersedes it or opens
 * a review according to the writers' authority (conflicts/plan.ts), anything else is a new memory.
 */
import { randomUUID } from 'node:crypto';
import { type Db, and, eq, memories, pendingCandidates, sql } from '@memory/db';
import { type Claim, claimOfMemory, detectClaim, relateClaims } from '../conflicts/claims';
import { openConflictReview } from '../conflicts/conflict-review';
import { DECIDED_BY_REASON as BY_REASON, type DecidedBy, authorityFor } from '../conflicts/decide';
import { existingClaimsOf } from '../conflicts/evidence';
import { planClaim } from '../conflicts/plan';
import { holdForReview, holdsForReview } from '../conflicts/review-before-write';
import type { ExtractedMemory } from '../extraction/types';
import { memoryFingerprint } from '../memories/fingerprint';
import type { StoredAnalysis } from '../text/analysis';
import {
  type Found,
  type MemoryRow,
  type StoreContext,
  type StoreOrigin,
  activeWithFingerprint,
  insertMemory,
  ledger,
  reinforce,
  writerRules,
} from './store-context';

const ORIGIN_REASON: Record<StoreOrigin, string> = {
  extraction: 'extracted from a conversation',
  direct: 'written directly through the API',
};

/** `held`: stored `pending` for review before write (conflicts/review-before-write.ts). */
type StoreOutcome = { outcome: 'created' | 'reinforced' | 'buffered' | 'promoted' | 'held'; id: string | null; confirmed: number };

/**
 * Pending candidates (docs/memory-model.md): a weak signal (confidence below PENDING.maxConfidence: hedged,
 * or a low-confidence provider result) is buffered in `pending_candidates` instead of becoming a memory.
 * It is promoted to a memory when it is said again in another conversation (PENDING.promoteAfter
 * occurrences), or confirmed when a confident memory states the same fact (same fingerprint) or the same
 * claim (subject and value).
 */
export const PENDING = { maxConfidence: 0.6, promoteAfter: 2, promotedConfidence: 0.7 } as const;

export async function storeOne(tx: Db, ctx: StoreContext, m: ExtractedMemory, claim: Claim | null, analysis: StoredAnalysis): Promise<StoreOutcome> {
  const fingerprint = memoryFingerprint(m.content);
  const found = { fingerprint, claim, analysis };
  if (m.confidence < PENDING.maxConfidence) {
    const weak = await bufferWeakSignal(tx, ctx, m, fingerprint);
    if (weak) return weak;
    const r = await storeMemory(tx, ctx, { ...m, confidence: Math.max(m.confidence, PENDING.promotedConfidence) }, found);
    return r.outcome === 'held' ? r : { ...r, outcome: 'promoted' };
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
  if (!claim || rivals.length === 0) {
    return (await holdIfAsked(tx, ctx, m, { id, fingerprint, claim, analysis })) ?? storeNew(tx, ctx, m, { id, fingerprint, claim, analysis, supersede: [], ties: [] });
  }

  // The plan (conflicts/plan.ts) is decided before anything is written.
  const existing = await existingClaimsOf(tx, rivals, (writerId) => writerRules(tx, ctx, writerId));
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
  // Held for review before write: its conflicts are decided when an admin approves it (conflicts/pending-writes.ts).
  const held = await holdIfAsked(tx, ctx, m, { id, fingerprint, claim, analysis });
  if (held) return held;
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

/**
 * Stores a new memory `pending` with its review when the tenant's review-before-write setting holds it (its
 * category, or its writer's authority for that category); null when it does not.
 */
async function holdIfAsked(tx: Db, ctx: StoreContext, m: ExtractedMemory, o: Found & { id: string }): Promise<StoreOutcome | null> {
  if (!ctx.reviewBeforeWrite) return null;
  const authority = authorityFor(await writerRules(tx, ctx, ctx.writerId), m.category);
  if (!holdsForReview(ctx.reviewBeforeWrite, { category: m.category, authority })) return null;
  const { job } = ctx;
  insertMemory(ctx, m, { ...o, status: 'pending', supersededBy: null });
  const memory = { id: o.id, tenantId: job.tenantId, userId: job.userId, content: m.content, category: m.category, subject: o.claim?.subject ?? null };
  const held = await holdForReview(tx, ctx.writer, { ...memory, sourceEventId: job.sourceEventId, jobId: job.id }, ctx.actor, {
    importance: m.importance,
    confidence: m.confidence,
    message_indices: m.messageIndices,
  });
  ctx.reviewsOpened.push({ ...held });
  return { outcome: 'held', id: o.id, confirmed: 0 };
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
    reason: `${ORIGIN_REASON[ctx.origin]}${ties.length > 0 ? '; contradicts an equally trusted claim, waiting for review' : ''}`,
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
    const review = await openConflictReview(tx, { tenantId: job.tenantId, userId: job.userId }, claim, rival, { id, content: m.content });
    ctx.reviewsOpened.push({ ...review, job_id: job.id });
    for (const memory of [rival, { id, content: m.content }]) {
      ledger(ctx, memory, {
        action: 'review_opened',
        from: memory.id === id ? 'inactive' : 'active',
        to: 'inactive',
        reason: `equally trusted claims about ${claim?.subject} disagree; a person decides`,
        details: { review_id: review.review_id },
      });
    }
  }
  return created(id);
}
