/**
 * Reviews: conflicts between equally trusted claims that a person resolves (docs/conflicts.md). While a
 * review is open both claims are inactive (out of retrieval) and retrieve asks the review's question.
 * Resolving activates the chosen claim and archives the other, with ledger entries for both.
 */
import { type Db, and, claimRevisions, endUsers, eq, inArray, memories, reviews, rows, sql } from '@memory/db';
import type { ReviewKind, ReviewStatus, SQL } from '@memory/db';
import { recordAudit } from '../audit/audit';
import { Errors } from '../errors';
import { ledgerRow } from '../memories/ledger';
import { MemoryWriter } from '../memories/writer';
import {
  type ClaimRevisionView,
  MEMORY_WITH_SOURCE_COLUMNS,
  type MemoryWithSourceRow,
  toClaimRevisionView,
  toMemoryRecord,
} from '../memories/serialize';

export type { ClaimRevisionView };
import { decodeCursor, keysetPage } from '../pagination';
import type { Principal } from '../tenants/tenants';
import type { MemoryRecord } from '../schemas/memories';
import type { ResolveReviewInput, reviewView } from '../schemas/provenance';
import { decidePendingWrite } from './pending-writes';
import type { z } from 'zod';

export type ReviewView = z.infer<typeof reviewView>;

type ReviewRow = typeof reviews.$inferSelect & { externalUserId: string };

async function claimsOf(db: Db, tenantId: string, ids: string[]): Promise<MemoryWithSourceRow[]> {
  return rows<MemoryWithSourceRow>(
    db,
    sql`SELECT ${sql.raw(MEMORY_WITH_SOURCE_COLUMNS)}
        FROM memories m LEFT JOIN source_events se ON se.id = m.source_event_id
        WHERE m.tenant_id = ${tenantId} AND m.id IN (${sql.join(ids.map((id) => sql`${id}::uuid`), sql`, `)})`,
  );
}

/** Both claims of a review, in order (a, b), from rows fetched for one or many reviews. */
function toView(r: ReviewRow, claimRows: Map<string, MemoryWithSourceRow>): ReviewView {
  const ordered = [r.claimAId, r.claimBId].map((id) => (id ? claimRows.get(id) : undefined)).filter((x): x is MemoryWithSourceRow => !!x);
  return {
    id: r.id,
    kind: r.kind,
    external_user_id: r.externalUserId,
    subject: r.subject,
    question: r.question,
    status: r.status as ReviewView['status'],
    claims: ordered.map((m) => toMemoryRecord(m, r.externalUserId)),
    resolution_memory_id: r.resolutionMemoryId,
    decision: r.decision,
    resolved_by: r.resolvedBy,
    resolution_note: r.resolutionNote,
    created_at: r.createdAt.toISOString(),
    resolved_at: r.resolvedAt ? r.resolvedAt.toISOString() : null,
  };
}

const reviewColumns = {
  review: reviews,
  externalUserId: endUsers.externalUserId,
};

async function withClaims(db: Db, tenantId: string, found: { review: typeof reviews.$inferSelect; externalUserId: string }[]) {
  if (found.length === 0) return [];
  const claimRows = await claimsOf(db, tenantId, found.flatMap((f) => (f.review.claimAId ? [f.review.claimAId, f.review.claimBId] : [f.review.claimBId])));
  const byId = new Map(claimRows.map((c) => [c.id, c]));
  return found.map((f) => toView({ ...f.review, externalUserId: f.externalUserId }, byId));
}

export async function getReview(db: Db, tenantId: string, reviewId: string): Promise<ReviewView | null> {
  const found = await db
    .select(reviewColumns)
    .from(reviews)
    .innerJoin(endUsers, eq(endUsers.id, reviews.userId))
    .where(and(eq(reviews.tenantId, tenantId), eq(reviews.id, reviewId)))
    .limit(1);
  const [view] = await withClaims(db, tenantId, found);
  return view ?? null;
}

/** Open reviews first, then newest; keyset-paged. */
export async function listReviews(
  db: Db,
  tenantId: string,
  q: { status?: ReviewStatus; kind?: ReviewKind; external_user_id?: string; limit: number; cursor?: string },
): Promise<{ items: ReviewView[]; limit: number; next_cursor: string | null }> {
  const where: SQL[] = [sql`r.tenant_id = ${tenantId}`];
  if (q.status) where.push(sql`r.status = ${q.status}`);
  if (q.kind) where.push(sql`r.kind = ${q.kind}`);
  if (q.external_user_id) where.push(sql`u.external_user_id = ${q.external_user_id}`);
  if (q.cursor) {
    const c = decodeCursor(q.cursor);
    where.push(sql`(r.created_at, r.id) < (${c.ts}::timestamptz, ${c.id}::uuid)`);
  }
  const found = await rows<{ id: string; cursor_ts: string }>(
    db,
    sql`SELECT r.id, r.created_at::text AS cursor_ts FROM reviews r JOIN end_users u ON u.id = r.user_id
        WHERE ${sql.join(where, sql` AND `)}
        ORDER BY r.created_at DESC, r.id DESC LIMIT ${q.limit + 1}`,
  );
  const { page, next_cursor } = keysetPage(found, q.limit);
  if (page.length === 0) return { items: [], limit: q.limit, next_cursor };
  // The page's reviews and all their claims in two queries, not two per review.
  const selected = await db
    .select(reviewColumns)
    .from(reviews)
    .innerJoin(endUsers, eq(endUsers.id, reviews.userId))
    .where(and(eq(reviews.tenantId, tenantId), inArray(reviews.id, page.map((p) => p.id))));
  const order = new Map(page.map((p, i) => [p.id, i]));
  selected.sort((a, b) => (order.get(a.review.id) ?? 0) - (order.get(b.review.id) ?? 0));
  return { items: await withClaims(db, tenantId, selected), limit: q.limit, next_cursor };
}

/**
 * A conflict: activates the chosen claim and archives the other, in one transaction with ledger entries for both.
 * A pending write: approves (optionally edited) or rejects the held memory (pending-writes.ts).
 * Resolving a resolved review is 409; choosing a memory that is not one of its claims, or the other kind's
 * decision, is 422.
 */
export async function resolveReview(db: Db, principal: Principal, reviewId: string, choice: ResolveReviewInput): Promise<ReviewView> {
  const { tenantId } = principal;
  // the principal's actor resolves it: `api_key:<id>` over REST, `admin:<id>` in the console
  const input = { ...choice, resolved_by: principal.actor };
  await db.transaction(async (tx) => {
    const [r] = await tx
      .select()
      .from(reviews)
      .where(and(eq(reviews.tenantId, tenantId), eq(reviews.id, reviewId)))
      .for('update');
    if (!r) throw Errors.notFound(`Review ${reviewId}`);
    if (r.status !== 'open') throw Errors.conflict('This review is already resolved.');
    if (r.kind === 'pending_write') {
      if (!input.action) throw Errors.validation([{ path: 'action', message: 'a held memory is approved or rejected: give action' }]);
      return decidePendingWrite(tx, principal, r, { action: input.action, content: input.content, note: input.note });
    }
    const chosen = input.chosen_memory_id;
    if (!chosen || !r.claimAId) {
      throw Errors.validation([{ path: 'chosen_memory_id', message: 'a conflict is resolved by choosing one of its two claims' }]);
    }
    if (chosen !== r.claimAId && chosen !== r.claimBId) {
      throw Errors.validation([{ path: 'chosen_memory_id', message: 'must be one of the two claims of this review' }]);
    }
    const other = chosen === r.claimAId ? r.claimBId : r.claimAId;
    const pair = await tx.select().from(memories).where(and(eq(memories.tenantId, tenantId), sql`${memories.id} IN (${chosen}, ${other})`));
    const writer = new MemoryWriter(tx, tenantId);
    for (const m of pair) {
      const isChosen = m.id === chosen;
      const to = isChosen ? 'active' : 'archived';
      await tx
        .update(memories)
        .set({ status: to, supersededBy: isChosen ? null : chosen, updatedAt: sql`now()` })
        .where(eq(memories.id, m.id));
      writer.record(
        ledgerRow(m, {
          action: 'review_resolved',
          from: m.status,
          to,
          reason: isChosen ? 'chosen in review' : `archived in review: memory ${chosen} was chosen`,
          actor: input.resolved_by,
          details: { review_id: r.id, ...(input.note ? { note: input.note } : {}) },
        }),
      );
    }
    await tx
      .update(reviews)
      .set({ status: 'resolved', decision: 'chosen', resolutionMemoryId: chosen, resolvedBy: input.resolved_by, resolutionNote: input.note ?? null, resolvedAt: sql`now()` })
      .where(eq(reviews.id, r.id));
    // the review's question leaves retrieval with it, even if neither memory row changed
    writer.touch(r.userId);
    await recordAudit(tx, {
      tenantId,
      actor: principal.actor,
      action: 'review.resolved',
      targetType: 'review',
      targetId: r.id,
      details: { chosen_memory_id: chosen },
    });
    await writer.commit((ids) => [
      {
        type: 'review.resolved',
        data: {
          review_id: r.id,
          kind: 'conflict',
          decision: 'chosen',
          subject: r.subject,
          external_user_id: ids.get(r.userId) ?? null,
          chosen_memory_id: chosen,
          archived_memory_id: other,
          resolved_by: input.resolved_by,
        },
      },
    ], [r.userId]);
  });
  const view = await getReview(db, tenantId, reviewId);
  if (!view) throw Errors.notFound(`Review ${reviewId}`);
  return view;
}

/** The ledger of one memory, oldest first; null when the memory is not the tenant's. */
export async function memoryHistory(db: Db, tenantId: string, memoryId: string): Promise<ClaimRevisionView[] | null> {
  const [m] = await db
    .select({ id: memories.id })
    .from(memories)
    .where(and(eq(memories.tenantId, tenantId), eq(memories.id, memoryId)))
    .limit(1);
  if (!m) return null;
  const entries = await db
    .select()
    .from(claimRevisions)
    .where(and(eq(claimRevisions.tenantId, tenantId), eq(claimRevisions.memoryId, memoryId)))
    .orderBy(claimRevisions.createdAt, claimRevisions.id);
  return entries.map(toClaimRevisionView);
}

/** The oldest open conflict review's question for a user, for retrieve's `clarification_question`. */
export async function openQuestion(db: Db, tenantId: string, userId: string): Promise<string | null> {
  const [r] = await db
    .select({ question: reviews.question })
    .from(reviews)
    // a held memory's review is the admin's question, never the user's
    .where(and(eq(reviews.tenantId, tenantId), eq(reviews.userId, userId), eq(reviews.status, 'open'), eq(reviews.kind, 'conflict')))
    .orderBy(reviews.createdAt)
    .limit(1);
  return r?.question ?? null;
}

