/** Opening a conflict review (docs/conflicts.md), shared by the extraction store step and the approval of a held memory. */
import { randomUUID } from 'node:crypto';
import { type Db, reviews } from '@memory/db';
import { type Claim, clarificationQuestion, detectClaim } from './claims';

/**
 * Opens a review between an active claim (`rival`, claim a) and a new one that ties with it (claim b); the caller
 * makes both inactive and records their `review_opened` ledger rows. Returns the `review.created` event's data.
 */
export async function openConflictReview(
  tx: Db,
  owner: { tenantId: string; userId: string },
  claim: Pick<Claim, 'subject' | 'display'> | null,
  rival: { id: string; content: string; claimValue: string | null },
  incoming: { id: string; content: string },
) {
  const reviewId = randomUUID();
  const subject = claim?.subject ?? 'unknown';
  const rivalClaim = detectClaim(rival.content);
  await tx.insert(reviews).values({
    id: reviewId,
    tenantId: owner.tenantId,
    userId: owner.userId,
    kind: 'conflict',
    subject,
    claimAId: rival.id,
    claimBId: incoming.id,
    question: clarificationQuestion(claim?.subject ?? '', rivalClaim?.display ?? rival.claimValue ?? rival.content, claim?.display ?? incoming.content),
  });
  return { review_id: reviewId, kind: 'conflict' as const, subject, claim_a_id: rival.id, claim_b_id: incoming.id };
}
