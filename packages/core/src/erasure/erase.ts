/**
 * DELETE /v1/users/{external_user_id} (docs/erasure.md): erases everything the tenant holds about one end user in
 * one transaction, following the erasure plan, and answers with a receipt. The transaction also writes the
 * tombstone (counts and hashes only), the `user.erased` webhook event and the audit entry. Afterwards the
 * process's hot tier and user-id cache forget the user.
 */
import { randomUUID } from 'node:crypto';
import { type Db, type UserErasure, and, desc, eq, rows, sql, userErasures } from '@memory/db';
import { recordAudit } from '../audit/audit';
import { Errors } from '../errors';
import { describeError } from '../logger';
import type { Principal } from '../principal';
import { type RateLimiter, userWriteKey } from '../quota/rate-limit';
import type { ActivityRecorder } from '../retrieval/activity';
import type { HotTier } from '../retrieval/hot-tier';
import type { ErasureReceipt } from '../schemas/erasure';
import { forgetUser } from '../users';
import { recordWebhookEvent } from '../webhooks/outbox';
import { ERASURE_PLAN, type ErasureTarget } from './plan';
import { countsOf, externalUserIdSha256, listingSha256, sortedListing } from './receipt';

export interface ErasureDeps {
  db: Db;
  /** This process's retrieval state: buffered retrieval records are written first, the hot tier's set dropped after. */
  retrieval?: { hotTier: HotTier; activity: ActivityRecorder };
  /**
   * The write-rate limiter, whose per-user counter key holds the external id: forgotten after the commit (in the
   * database the plan's step removes it inside the transaction; Redis is outside it).
   */
  limiter?: Pick<RateLimiter, 'forget'>;
}

const receiptOf = (t: UserErasure, listing: Record<string, string[]> | null): ErasureReceipt => ({
  receipt_id: t.id,
  external_user_id_sha256: t.externalUserIdSha256,
  erased_at: t.erasedAt.toISOString(),
  counts: t.counts as Record<string, number>,
  sha256: t.sha256,
  erased: listing,
  already_erased: listing === null,
});

/** SQLSTATE deadlock_detected and serialization_failure: PostgreSQL rolled the transaction back; running it again is safe. */
const RETRYABLE = new Set(['40P01', '40001']);

/**
 * Runs the erasure's transaction again (three tries in all) when PostgreSQL chose it as the victim of a deadlock.
 * One can form with a job's store step that is running at the same moment: the step holds its job row and waits
 * to reference the user row, which the erasure holds while it waits to delete that job row. PostgreSQL ends one of
 * the two; when it ends the erasure, the next try finds the job's memories committed and erases them too.
 */
async function retryOnConflict<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      const code = describeError(err).err_code;
      if (attempt >= 3 || !code || !RETRYABLE.has(code)) throw err;
    }
  }
}

/**
 * Erases the user. A user erased before, with nothing held since, answers the earlier receipt (`already_erased`);
 * an id the tenant never sent (nothing held, no tombstone) is 404.
 */
export async function eraseUser(deps: ErasureDeps, principal: Principal, externalUserId: string, now = new Date()): Promise<ErasureReceipt> {
  // A retrieval record still in this process's buffer would otherwise be written after the user is gone.
  await deps.retrieval?.activity.flush();
  const idHash = externalUserIdSha256(externalUserId);
  const { receipt, userId } = await retryOnConflict(() => deps.db.transaction(async (tx) => {
    // Locked first: a job's write that references the user waits for this transaction and then fails on the
    // missing row, so nothing it stores can outlive the erasure.
    const [user] = await rows<{ id: string }>(
      tx,
      sql`SELECT id FROM end_users WHERE tenant_id = ${principal.tenantId} AND external_user_id = ${externalUserId} FOR UPDATE`,
    );
    const target: ErasureTarget = { tenantId: principal.tenantId, externalUserId, userId: user?.id ?? null };
    const erased = new Map<string, string[]>();
    for (const step of ERASURE_PLAN) erased.set(step.kind, await step.erase(tx, target, erased));
    const listing = sortedListing(erased);
    const counts = countsOf(listing);
    if (Object.values(counts).every((n) => n === 0)) {
      const [earlier] = await tx
        .select()
        .from(userErasures)
        .where(and(eq(userErasures.tenantId, principal.tenantId), eq(userErasures.externalUserIdSha256, idHash)))
        .orderBy(desc(userErasures.erasedAt))
        .limit(1);
      if (!earlier) throw Errors.notFound('This user');
      return { receipt: receiptOf(earlier, null), userId: null };
    }
    const [tombstone] = await tx
      .insert(userErasures)
      .values({
        id: randomUUID(),
        tenantId: principal.tenantId,
        externalUserIdSha256: idHash,
        counts,
        sha256: listingSha256(listing),
        actor: principal.actor,
        erasedAt: now,
      })
      .returning();
    const made = receiptOf(tombstone, listing);
    await recordWebhookEvent(tx, principal.tenantId, 'user.erased', {
      receipt_id: made.receipt_id,
      external_user_id_sha256: made.external_user_id_sha256,
      erased_at: made.erased_at,
      counts,
      sha256: made.sha256,
    });
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    await recordAudit(tx, {
      tenantId: principal.tenantId,
      actor: principal.actor,
      action: 'user.erased',
      targetType: 'user_erasure',
      targetId: made.receipt_id,
      details: { records: total, sha256: made.sha256 },
    });
    return { receipt: made, userId: target.userId };
  }));
  if (userId) deps.retrieval?.hotTier.evict(userId);
  forgetUser(principal.tenantId, externalUserId);
  // Not undone if this fails: the erasure is committed, and a Redis counter expires by itself within three
  // windows (docs/erasure.md).
  await deps.limiter?.forget([userWriteKey(principal.tenantId, externalUserId)]).catch(() => undefined);
  return receipt;
}
