/**
 * The lifecycle pass: applies `lifecycleStep` (./rules.ts) to every active memory that has not been
 * stepped for a day, writes the new importance and `lifecycle_at`, archives the memories that fell below
 * the threshold (with a claim revision ledger entry, actor `lifecycle`; nothing is deleted) and bumps the
 * `memory_version` of each user it stepped, once per pass (in the batch that steps the user's last due memory,
 * and at once for an archival), so retrieval's hot tier reloads them.
 *
 * The scheduled job (packages/jobs/src/lifecycle.ts) runs it under Inngest (cron) or the embedded scheduler.
 */
import { type Db, and, eq, gt, memories, rows, sql } from '@memory/db';
import { ledgerRow } from '../memories/ledger';
import { MemoryWriter } from '../memories/writer';
import { LIFECYCLE, lifecycleStep } from './rules';
import { writeMemoryScores } from './write';

/** PostgreSQL advisory lock key of the lifecycle pass (migrations 727274, retention 727275). */
export const LIFECYCLE_LOCK_KEY = 727276;
export const LIFECYCLE_ACTOR = 'lifecycle';

export interface LifecyclePassOptions {
  /** Only this tenant's memories (default: every tenant). */
  tenantId?: string;
  /** Memories per batch (default LIFECYCLE.batchSize). Each batch is one short transaction. */
  batchSize?: number;
  /** When set, each batch first takes `pg_try_advisory_xact_lock(lockKey)`; if taken, the pass stops (`busy`). */
  lockKey?: number;
}

export interface LifecyclePassResult {
  /** Memories stepped (importance recomputed). */
  stepped: number;
  /** Memories archived by this pass. */
  archived: number;
  /** memory_version bumps, one per user and batch (a user bumped for an archival and, in a later batch, at its end counts twice). */
  users_changed: number;
  /** True when the pass stopped because another process held the lifecycle lock. */
  busy: boolean;
}

export async function runLifecyclePass(db: Db, now: Date, opts: LifecyclePassOptions = {}): Promise<LifecyclePassResult> {
  const batchSize = Math.max(1, Math.floor(opts.batchSize ?? LIFECYCLE.batchSize));
  const total: LifecyclePassResult = { stepped: 0, archived: 0, users_changed: 0, busy: false };
  for (;;) {
    const batch = await db.transaction(async (tx) => {
      if (opts.lockKey !== undefined) {
        const [lock] = await rows<{ locked: boolean }>(tx, sql`SELECT pg_try_advisory_xact_lock(${opts.lockKey}) AS locked`);
        if (!lock?.locked) return null;
      }
      return stepBatch(tx, now, batchSize, opts.tenantId);
    });
    if (batch === null) return { ...total, busy: true };
    total.stepped += batch.stepped;
    total.archived += batch.archived;
    total.users_changed += batch.usersChanged;
    if (!batch.more) return total;
  }
}

async function stepBatch(tx: Db, now: Date, batchSize: number, tenantId: string | undefined) {
  const dueBefore = new Date(now.getTime() - LIFECYCLE.minStepHours * 3_600_000);
  // Due: active and not stepped (or, never stepped, not created) in the last day. Rows another transaction
  // is writing are left for the next run; each stepped row leaves the due set, so the loop ends.
  const isDue = and(
    eq(memories.status, 'active'),
    // an ISO string with an explicit cast: postgres.js (unlike PGlite) cannot bind a Date to an untyped parameter
    sql`coalesce(${memories.lifecycleAt}, ${memories.createdAt}) <= ${dueBefore.toISOString()}::timestamptz`,
  );
  const due = await tx
    .select()
    .from(memories)
    .where(and(isDue, tenantId ? eq(memories.tenantId, tenantId) : undefined))
    // in user order, so a user's due memories are stepped in consecutive batches; tenant first, so the walk can
    // follow memories_user_active_idx (tenant, user, …) and stop at the batch instead of sorting every due row
    .orderBy(memories.tenantId, memories.userId, memories.id)
    .limit(batchSize)
    .for('update', { skipLocked: true });
  if (due.length === 0) return { stepped: 0, archived: 0, usersChanged: 0, more: false };
  // more may be due when the selection came back full
  const more = due.length === batchSize;

  // A user is bumped once, by the batch that steps its last due memory (a bump makes retrieval rebuild the
  // user's whole set; a user with 10,000 due memories was bumped by 20 batches). Only the last user of a full
  // batch can have due memories after it; it waits while it has. The bump does not depend on how much this
  // batch changed: an earlier pass may have stepped the user's other memories and stopped before its bump.
  const finished = new Set(due.map((m) => m.userId));
  if (more) {
    const last = due[due.length - 1];
    const [after] = await tx
      .select({ id: memories.id })
      .from(memories)
      .where(and(isDue, eq(memories.tenantId, last.tenantId), eq(memories.userId, last.userId), gt(memories.id, last.id)))
      .limit(1);
    if (after) finished.delete(last.userId);
  }

  const updates: { id: string; importance: number; archive: boolean }[] = [];
  // one write path per tenant (memories/writer.ts): ledger rows, memory.archived events, version bumps
  const writers = new Map<string, MemoryWriter>();
  const writerOf = (tenant: string) => {
    let w = writers.get(tenant);
    if (!w) writers.set(tenant, (w = new MemoryWriter(tx, tenant)));
    return w;
  };
  const bumped = new Set(finished);
  let archived = 0;
  for (const m of due) {
    const step = lifecycleStep(m, now);
    updates.push({ id: m.id, importance: step.importance, archive: step.archive });
    if (finished.has(m.userId)) writerOf(m.tenantId).touch(m.userId);
    if (step.archive) {
      // an archived memory leaves retrieval at once: the ledger entry bumps its user in this batch
      bumped.add(m.userId);
      archived++;
      writerOf(m.tenantId).record({
        ...ledgerRow(m, {
          action: 'archived',
          from: m.status,
          to: 'archived',
          reason: `importance fell to ${step.importance.toFixed(3)}, below the archive threshold ${LIFECYCLE.archiveThreshold}, after ${Math.floor(step.idleDays)} days without use`,
          actor: LIFECYCLE_ACTOR,
          details: {
            importance_before: m.importance,
            importance_after: step.importance,
            archive_threshold: LIFECYCLE.archiveThreshold,
            idle_days: Math.round(step.idleDays * 10) / 10,
            feedback_score: m.feedbackScore,
            access_count: m.accessCount,
          },
        }),
        createdAt: now,
      });
    }
  }
  const at = now.toISOString();
  await writeMemoryScores(
    tx,
    updates.map((u) => ({ ...u, lifecycle_at: at })),
  );
  for (const w of writers.values()) await w.commit();
  return { stepped: due.length, archived, usersChanged: bumped.size, more };
}
