/**
 * Pending Questions: conflicts between universal claims that only the passport user can answer
 * (docs/passport-universal.md). While a question is open both claims are inactive (out of every agent's
 * retrieval); answering keeps one claim active and archives the other.
 */
import { type Db, and, asc, eq, inArray, or, passportReviews, sql, universalMemories } from '@memory/db';
import { bumpPassportMemoryVersion } from '../users';
import { ApiError, Errors } from '../errors';
import type { PassportQuestion } from '../schemas/universal';

/** The user's open questions, oldest first, each with its two claims as options (the older claim first). */
export async function listPassportQuestions(db: Db, passportUserId: string): Promise<PassportQuestion[]> {
  const open = await db
    .select()
    .from(passportReviews)
    .where(and(eq(passportReviews.passportUserId, passportUserId), eq(passportReviews.status, 'open')))
    .orderBy(asc(passportReviews.createdAt), asc(passportReviews.id));
  if (open.length === 0) return [];
  const ids = [...new Set(open.flatMap((r) => [r.claimAId, r.claimBId]))];
  const claims = await db
    .select({ id: universalMemories.id, content: universalMemories.content })
    .from(universalMemories)
    .where(and(eq(universalMemories.passportUserId, passportUserId), inArray(universalMemories.id, ids)));
  const content = new Map(claims.map((c) => [c.id, c.content]));
  return open.map((r) => ({
    id: r.id,
    question: r.question,
    subject: r.subject,
    options: [r.claimAId, r.claimBId]
      .filter((id) => content.has(id))
      .map((id) => ({ memory_id: id, content: content.get(id) as string })),
    created_at: r.createdAt.toISOString(),
  }));
}

export interface ResolvedPassportQuestion {
  id: string;
  status: 'resolved';
  resolution_memory_id: string;
  archived_memory_id: string;
  resolved_at: string;
}

/**
 * The user's answer: `keepMemoryId` becomes active, the other claim archived (superseded by the kept one).
 * Another user's (or an unknown) question is 404; an answered one 409 `conflict`; a memory that is not one of
 * the two claims 422.
 */
export async function resolvePassportQuestion(
  db: Db,
  passportUserId: string,
  reviewId: string,
  keepMemoryId: string,
): Promise<ResolvedPassportQuestion> {
  return db.transaction(async (tx) => {
    const [review] = await tx
      .select()
      .from(passportReviews)
      .where(and(eq(passportReviews.id, reviewId), eq(passportReviews.passportUserId, passportUserId)))
      .for('update');
    if (!review) throw Errors.notFound(`Question ${reviewId}`);
    if (review.status !== 'open') throw Errors.conflict('This question has already been answered.');
    const claims = [review.claimAId, review.claimBId];
    if (!claims.includes(keepMemoryId)) {
      throw new ApiError(422, 'validation_failed', 'The memory to keep must be one of the question’s two options.', {
        errors: [{ path: 'memory_id', message: 'is not one of the options' }],
      });
    }
    const other = claims.find((id) => id !== keepMemoryId) as string;
    const owned = eq(universalMemories.passportUserId, passportUserId);
    await tx
      .update(universalMemories)
      .set({ status: 'active', supersededBy: null, updatedAt: sql`now()` })
      .where(and(owned, eq(universalMemories.id, keepMemoryId)));
    await tx
      .update(universalMemories)
      .set({ status: 'archived', supersededBy: keepMemoryId, updatedAt: sql`now()` })
      .where(and(owned, eq(universalMemories.id, other)));
    const [resolved] = await tx
      .update(passportReviews)
      .set({ status: 'resolved', resolutionMemoryId: keepMemoryId, resolvedAt: sql`now()` })
      .where(eq(passportReviews.id, reviewId))
      .returning({ resolvedAt: passportReviews.resolvedAt });
    await bumpPassportMemoryVersion(tx, passportUserId);
    return {
      id: reviewId,
      status: 'resolved' as const,
      resolution_memory_id: keepMemoryId,
      archived_memory_id: other,
      resolved_at: (resolved.resolvedAt ?? new Date()).toISOString(),
    };
  });
}

/**
 * A claim leaves the question it is part of (the user erased it, or an agent deleted it): each open question
 * about it is settled for the other claim, which becomes active again, as if the user had chosen it. Runs inside
 * the caller's transaction; the caller bumps `memory_version`. Returns how many questions were settled.
 */
export async function settleQuestionsAbout(tx: Db, passportUserId: string, memoryId: string): Promise<number> {
  const open = await tx
    .select()
    .from(passportReviews)
    .where(
      and(
        eq(passportReviews.passportUserId, passportUserId),
        eq(passportReviews.status, 'open'),
        or(eq(passportReviews.claimAId, memoryId), eq(passportReviews.claimBId, memoryId)),
      ),
    )
    .for('update');
  for (const review of open) {
    const other = review.claimAId === memoryId ? review.claimBId : review.claimAId;
    await tx
      .update(universalMemories)
      .set({ status: 'active', supersededBy: null, updatedAt: sql`now()` })
      .where(and(eq(universalMemories.passportUserId, passportUserId), eq(universalMemories.id, other), eq(universalMemories.status, 'inactive')));
    await tx
      .update(passportReviews)
      .set({ status: 'resolved', resolutionMemoryId: other, resolvedAt: sql`now()` })
      .where(eq(passportReviews.id, review.id));
  }
  return open.length;
}
