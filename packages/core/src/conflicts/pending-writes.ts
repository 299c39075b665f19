/**
 * Deciding a memory held for review before write (docs/review-before-write.md), inside resolveReview's
 * transaction: reject archives it; approve writes it, after an optional edit of its content, and then applies the
 * conflict rules as the store step would have (the same fact already active is reinforced instead; a claim that
 * contradicts an active one supersedes it, loses to it or opens a conflict review: plan.ts). Every change has its
 * ledger row (`edited`, `approved`, `rejected`, and those of the conflict), so webhooks say what happened.
 */
import { type Db, and, eq, inArray, memories, ne, or, reviews, sql } from '@memory/db';
import type { ReviewDecision } from '@memory/db';
import { recordAudit } from '../audit/audit';
import { Errors } from '../errors';
import { memoryFingerprint } from '../memories/fingerprint';
import { ledgerRow } from '../memories/ledger';
import { MemoryWriter } from '../memories/writer';
import type { Principal } from '../principal';
import { analyseForIndex } from '../text/analysis';
import { detectClaim, slotWords, storedClaim } from './claims';
import { openConflictReview } from './conflict-review';
import { DECIDED_BY_REASON } from './decide';
import { existingClaimsOf, storedClaimEvidence } from './evidence';
import { planClaim, reinforcedScores } from './plan';
import { writerRulesOf } from './review-before-write';

type MemoryRow = typeof memories.$inferSelect;
type ReviewRow = typeof reviews.$inferSelect;
type OpenedReview = Awaited<ReturnType<typeof openConflictReview>>;
type Change = { action: string; from: string | null; to: string; reason: string; details?: Record<string, unknown> };

export interface PendingWriteDecision {
  action: 'approve' | 'reject';
  /** With approve: the content as the admin edited it. */
  content?: string;
  note?: string;
}

export async function decidePendingWrite(tx: Db, principal: Principal, r: ReviewRow, input: PendingWriteDecision): Promise<void> {
  const { tenantId, actor } = principal;
  const [held] = await tx
    .select()
    .from(memories)
    .where(and(eq(memories.tenantId, tenantId), eq(memories.id, r.claimBId)))
    .for('update');
  if (!held || held.status !== 'pending') throw Errors.conflict('The held memory is no longer pending (it was deleted or erased).');
  const writer = new MemoryWriter(tx, tenantId);
  const details = { review_id: r.id, ...(input.note ? { note: input.note } : {}) };
  const record = (m: MemoryRow, change: Change) => writer.record(ledgerRow(m, { ...change, actor, details: { ...details, ...change.details } }));
  let decision: ReviewDecision;
  let opened: OpenedReview[] = [];
  if (input.action === 'reject') {
    await tx.update(memories).set({ status: 'archived', updatedAt: sql`now()` }).where(eq(memories.id, held.id));
    record(held, { action: 'rejected', from: 'pending', to: 'archived', reason: 'rejected in review before write: it is discarded' });
    decision = 'rejected';
  } else {
    const edited = input.content !== undefined && input.content !== held.content ? await editHeld(tx, held, input.content) : null;
    if (edited) record(edited, { action: 'edited', from: 'pending', to: 'pending', reason: 'edited in review before write' });
    opened = await approveHeld(tx, edited ?? held, record);
    decision = edited ? 'edited' : 'approved';
  }
  await tx
    .update(reviews)
    .set({
      status: 'resolved',
      decision,
      resolutionMemoryId: decision === 'rejected' ? null : held.id,
      resolvedBy: actor,
      resolutionNote: input.note ?? null,
      resolvedAt: sql`now()`,
    })
    .where(eq(reviews.id, r.id));
  await recordAudit(tx, { tenantId, actor, action: 'review.resolved', targetType: 'review', targetId: r.id, details: { decision, memory_id: held.id } });
  await writer.commit(
    (ids) => [
      ...opened.map((o) => ({ type: 'review.created' as const, data: { ...o, external_user_id: ids.get(r.userId) ?? null } })),
      {
        type: 'review.resolved',
        data: { review_id: r.id, kind: 'pending_write', decision, subject: r.subject, memory_id: held.id, external_user_id: ids.get(r.userId) ?? null, resolved_by: actor },
      },
    ],
    [r.userId],
  );
}

/**
 * The held memory with the admin's content: its fingerprint, claim and index analysis follow the new text, and a
 * vector of the old text is dropped (the embeddings heal makes a new one). 409 when its job already stored a
 * memory with this content.
 */
async function editHeld(tx: Db, held: MemoryRow, content: string): Promise<MemoryRow> {
  const fingerprint = memoryFingerprint(content);
  if (held.jobId) {
    const [twin] = await tx
      .select({ id: memories.id })
      .from(memories)
      .where(and(eq(memories.jobId, held.jobId), eq(memories.fingerprint, fingerprint), ne(memories.id, held.id)))
      .limit(1);
    if (twin) throw Errors.conflict(`The same conversation already stored this content as memory ${twin.id}.`);
  }
  const claim = detectClaim(content);
  const change = {
    content,
    fingerprint,
    subject: claim?.subject ?? null,
    claimValue: claim?.value ?? null,
    claimNegated: claim?.negated ?? false,
    ...analyseForIndex(content, undefined, slotWords(claim)),
    embedding: null,
    embeddingModel: null,
  };
  await tx.update(memories).set({ ...change, updatedAt: sql`now()` }).where(eq(memories.id, held.id));
  return { ...held, ...change };
}

/**
 * Writes an approved memory and applies the conflict rules to the user's active claims (plan.ts); returns the
 * conflict reviews it opened.
 */
async function approveHeld(tx: Db, m: MemoryRow, record: (m: MemoryRow, change: Change) => void): Promise<OpenedReview[]> {
  const approved = (to: MemoryRow['status'], reason: string, supersededBy: string | null = null) => {
    record(m, { action: 'approved', from: 'pending', to, reason });
    return tx.update(memories).set({ status: to, supersededBy, updatedAt: sql`now()` }).where(eq(memories.id, m.id));
  };
  const mine = and(eq(memories.tenantId, m.tenantId), eq(memories.userId, m.userId), eq(memories.status, 'active'), ne(memories.id, m.id));
  const related = await tx
    .select()
    .from(memories)
    .where(and(mine, m.subject ? or(eq(memories.fingerprint, m.fingerprint), eq(memories.subject, m.subject)) : eq(memories.fingerprint, m.fingerprint)))
    .for('update');
  const sameFact = related.find((r) => r.fingerprint === m.fingerprint);
  const claim = storedClaim(m);
  const rivals = claim ? related.filter((r) => r.subject === claim.subject) : [];
  const rules = new Map<string | null, Awaited<ReturnType<typeof writerRulesOf>>>();
  const rulesOf = async (writerId: string | null) => {
    if (!rules.has(writerId)) rules.set(writerId, await writerRulesOf(tx, writerId));
    return rules.get(writerId) ?? null;
  };
  const plan =
    !sameFact && claim && rivals.length > 0
      ? planClaim({ claim, evidence: storedClaimEvidence(m, await rulesOf(m.writerId)) }, await existingClaimsOf(tx, rivals, rulesOf))
      : null;
  const duplicateOf = sameFact ?? (plan?.kind === 'reinforce' ? rivals.find((r) => r.id === plan.memoryId) : undefined);
  if (duplicateOf) {
    // The same fact became active while this one waited: strengthen it rather than keep two copies.
    const scores = reinforcedScores(duplicateOf, m);
    await tx.update(memories).set({ ...scores, updatedAt: sql`now()` }).where(eq(memories.id, duplicateOf.id));
    record(duplicateOf, {
      action: 'reinforced',
      from: 'active',
      to: 'active',
      reason: `an approved held memory states the same fact (memory ${m.id})`,
      details: { importance_before: duplicateOf.importance, importance_after: scores.importance },
    });
    await approved('archived', `approved; the same fact is already memory ${duplicateOf.id}, which was reinforced`, duplicateOf.id);
    return [];
  }
  if (!plan || plan.kind === 'reinforce') {
    await approved('active', 'approved in review before write');
    return [];
  }
  if (plan.kind === 'lose') {
    await approved('inactive', `approved; lost a conflict about ${claim?.subject} to memory ${plan.to}: it has ${DECIDED_BY_REASON[plan.by]}`, plan.to);
    return [];
  }
  const byId = new Map(rivals.map((r) => [r.id, r]));
  for (const s of plan.supersede) {
    const rival = byId.get(s.memoryId)!;
    await tx.update(memories).set({ status: 'inactive', supersededBy: m.id, updatedAt: sql`now()` }).where(eq(memories.id, rival.id));
    record(rival, {
      action: 'superseded',
      from: 'active',
      to: 'inactive',
      reason: `superseded by memory ${m.id} about ${claim?.subject}: it has ${DECIDED_BY_REASON[s.by]}`,
      details: { superseded_by: m.id, decided_by: s.by, superseding_source_event_id: m.sourceEventId, ...(claim?.negated ? { ended: true } : {}) },
    });
  }
  const ties = plan.review.map((id) => byId.get(id)!);
  if (ties.length === 0) {
    await approved('active', 'approved in review before write');
    return [];
  }
  await approved('inactive', 'approved; contradicts an equally trusted claim, waiting for a conflict review');
  await tx.update(memories).set({ status: 'inactive', updatedAt: sql`now()` }).where(inArray(memories.id, ties.map((t) => t.id)));
  const display = detectClaim(m.content);
  const opened: OpenedReview[] = [];
  for (const rival of ties) {
    const review = await openConflictReview(tx, { tenantId: m.tenantId, userId: m.userId }, display, rival, m);
    opened.push(review);
    for (const memory of [rival, m]) {
      record(memory, {
        action: 'review_opened',
        from: memory.id === m.id ? 'inactive' : 'active',
        to: 'inactive',
        reason: `equally trusted claims about ${claim?.subject} disagree; a person decides`,
        details: { review_id: review.review_id },
      });
    }
  }
  return opened;
}
