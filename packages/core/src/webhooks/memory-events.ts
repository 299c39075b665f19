/**
 * Webhook events for changes of memories, reviews and jobs, derived from what the domain already records: each
 * claim-ledger entry is one memory event (`created` → memory.created, or memory.pending when it is held for review
 * before write; `approved` → memory.approved, `rejected` → memory.rejected; a move to `archived` → memory.archived,
 * anything else → memory.updated with `change` = the ledger action). Called inside the writer's transaction.
 */
import { type Db, inArray } from '@memory/db';
import { endUsers } from '@memory/db';
import type { WebhookEventInput } from './outbox';
import { recordWebhookEventsWith } from './outbox';

export interface MemoryChange {
  memoryId: string;
  /** The internal end-user id; events carry the tenant's `external_user_id`. */
  userId: string;
  action: string;
  from: string | null;
  to: string;
  jobId?: string | null;
  reviewId?: string | null;
}

function memoryEventType(c: MemoryChange): WebhookEventInput['type'] {
  if (c.action === 'created') return c.to === 'pending' ? 'memory.pending' : 'memory.created';
  if (c.action === 'approved') return 'memory.approved';
  if (c.action === 'rejected') return 'memory.rejected';
  return c.to === 'archived' && c.from !== 'archived' ? 'memory.archived' : 'memory.updated';
}

export function memoryChangeEvent(c: MemoryChange, externalUserId: string | null): WebhookEventInput {
  const type = memoryEventType(c);
  return {
    type,
    data: {
      memory_id: c.memoryId,
      external_user_id: externalUserId,
      change: c.action,
      status: c.to,
      previous_status: c.from,
      job_id: c.jobId ?? null,
      ...(c.reviewId ? { review_id: c.reviewId } : {}),
    },
  };
}

export type ExternalIds = ReadonlyMap<string, string>;

/**
 * Records the memory events of `changes` and any further events `more` builds (reviews, the job), resolving
 * the end users' external ids once, only when the tenant has an enabled endpoint.
 */
export function recordMemoryWebhookEvents(
  db: Db,
  tenantId: string,
  changes: readonly MemoryChange[],
  more: (externalIds: ExternalIds) => WebhookEventInput[] = () => [],
  userIds: readonly string[] = [],
): Promise<number> {
  return recordWebhookEventsWith(db, tenantId, async () => {
    const ids = [...new Set([...changes.map((c) => c.userId), ...userIds])];
    const found = ids.length
      ? await db.select({ id: endUsers.id, external: endUsers.externalUserId }).from(endUsers).where(inArray(endUsers.id, ids))
      : [];
    const external = new Map(found.map((u) => [u.id, u.external]));
    return [...changes.map((c) => memoryChangeEvent(c, external.get(c.userId) ?? null)), ...more(external)];
  });
}

/** job.completed / job.failed for a tenant job (extraction or correction). */
export function jobEvent(
  job: { id: string; kind: string; userId: string; sourceEventId: string; attempts: number },
  outcome: { status: string; memories_created?: number; memories_reinforced?: number; error_summary?: string | null },
  externalIds: ExternalIds,
): WebhookEventInput {
  const finishedOk = outcome.status === 'completed' || outcome.status === 'processed';
  return {
    type: finishedOk ? 'job.completed' : 'job.failed',
    data: {
      job_id: job.id,
      kind: job.kind,
      status: outcome.status,
      external_user_id: externalIds.get(job.userId) ?? null,
      source_event_id: job.sourceEventId,
      attempts: job.attempts,
      ...(finishedOk
        ? { memories_created: outcome.memories_created ?? 0, memories_reinforced: outcome.memories_reinforced ?? 0 }
        : { error_summary: outcome.error_summary ?? null }),
    },
  };
}

/** The change a claim-ledger row records (the row as inserted into `claim_revisions`). */
export function ledgerChange(row: {
  memoryId: string;
  userId: string;
  action: string;
  fromStatus?: string | null;
  toStatus: string;
  jobId?: string | null;
  details?: unknown;
}): MemoryChange {
  const reviewId = (row.details as { review_id?: unknown } | undefined)?.review_id;
  return {
    memoryId: row.memoryId,
    userId: row.userId,
    action: row.action,
    from: row.fromStatus ?? null,
    to: row.toStatus,
    jobId: row.jobId ?? null,
    reviewId: typeof reviewId === 'string' ? reviewId : null,
  };
}
