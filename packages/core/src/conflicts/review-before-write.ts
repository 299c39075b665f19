/**
 * Review before write (docs/review-before-write.md): an opt-in tenant setting that holds new memories of some
 * categories, or from writers below an authority, as `pending` until an admin approves, edits or rejects them.
 * A held memory is stored (status `pending`, out of retrieval, listing and the domain profiles) with a
 * `pending_write` review; its conflicts with the user's claims are decided when it is approved
 * (pending-writes.ts).
 *
 * Every path that writes a new memory asks `holdsForReview` first and, when it holds, stores the row with status
 * `pending` and calls `holdForReview` in the same transaction: the extraction store step (jobs/store-memory.ts)
 * does, and a direct create (direct/create.ts) runs the same store step with the setting read by `reviewBeforeWriteOf`.
 */
import { randomUUID } from 'node:crypto';
import { type Db, eq, reviews, serviceWriters, tenants } from '@memory/db';
import { ledgerRow } from '../memories/ledger';
import type { MemoryWriter } from '../memories/writer';
import type { ReviewBeforeWrite } from '../schemas/settings';
import { authorityFor } from './decide';

export type { ReviewBeforeWrite };

/** Whether the setting holds a new memory of this category written with this authority (pure). */
export function holdsForReview(setting: ReviewBeforeWrite | null | undefined, memory: { category: string; authority: number }): boolean {
  if (!setting) return false;
  if ((setting.categories as readonly string[]).includes(memory.category)) return true;
  return setting.below_authority !== null && memory.authority < setting.below_authority;
}

/** The tenant's setting as stored (null: off). */
export async function reviewBeforeWriteOf(db: Db, tenantId: string): Promise<ReviewBeforeWrite | null> {
  const [row] = await db.select({ setting: tenants.reviewBeforeWrite }).from(tenants).where(eq(tenants.id, tenantId)).limit(1);
  return (row?.setting as ReviewBeforeWrite | null | undefined) ?? null;
}

type Rules = { default_priority: number; categories?: Record<string, number> };

/** The authority rules of a service writer (null: default provenance, authority 0). */
export async function writerRulesOf(db: Db, writerId: string | null): Promise<Rules | null> {
  if (!writerId) return null;
  const [w] = await db.select({ rules: serviceWriters.authorityRules }).from(serviceWriters).where(eq(serviceWriters.id, writerId)).limit(1);
  return (w?.rules as Rules | undefined) ?? null;
}

export interface HeldMemory {
  id: string;
  tenantId: string;
  userId: string;
  content: string;
  category: string;
  subject: string | null;
  sourceEventId: string | null;
  jobId: string | null;
}

/** What `holdForReview` opened, for the caller's `review.created` webhook event. */
export interface HeldReview {
  review_id: string;
  kind: 'pending_write';
  subject: string;
  memory_id: string;
  job_id: string | null;
}

/** The question a pending-write review shows: what is waiting, in the admin's words. */
export function pendingWriteQuestion(content: string): string {
  return `Write this new memory? “${content}”`;
}

/**
 * Opens the `pending_write` review of a memory the caller stored with status `pending` (the row may still be in
 * the caller's batch: reviews do not reference memories by foreign key) and records its `created` ledger row
 * (to `pending`, so webhooks send `memory.pending`) on the caller's writer. `why` is the ledger's reason.
 */
export async function holdForReview(tx: Db, writer: MemoryWriter, m: HeldMemory, actor: string, details: Record<string, unknown> = {}): Promise<HeldReview> {
  const reviewId = randomUUID();
  const subject = m.subject ?? m.category;
  await tx.insert(reviews).values({
    id: reviewId,
    tenantId: m.tenantId,
    userId: m.userId,
    kind: 'pending_write',
    subject,
    claimAId: null,
    claimBId: m.id,
    question: pendingWriteQuestion(m.content),
  });
  writer.record(
    ledgerRow(m, {
      action: 'created',
      from: null,
      to: 'pending',
      reason: 'held for review before write: an admin approves, edits or rejects it',
      actor,
      details: { ...details, category: m.category, review_id: reviewId },
    }),
  );
  return { review_id: reviewId, kind: 'pending_write', subject, memory_id: m.id, job_id: m.jobId };
}
