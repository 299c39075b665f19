/**
 * The lifecycle pass: applies `lifecycleStep` (./rules.ts) to every active memory that has not been
 * stepped for a day, writes the new importance and `lifecycle_at`, archives the memories that fell below
 * the threshold (with a claim revision ledger entry, actor `lifecycle`; nothing is deleted) and bumps the
 * `memory_version` of each user whose memories changed, so retrieval's hot tier reloads them. A batch holds
 * whole users (up to `userBatchSize` memories of one), so a user is bumped once per pass, not once per batch.
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
  /** The most memories of one user in one batch (default LIFECYCLE.userBatchSize, at least `batchSize`). */
  userBatchSize?: number;
  /** When set, each batch first takes `pg_try_advisory_xact_lock(lockKey)`; if taken, the pass stops (`busy`). */
  lockKey?: number;
}

export interface LifecyclePassResult {
  /** Memories stepped (importance recomputed). */
  stepped: number;
  /** Memories archived by this pass. */
  archived: number;
  /** Users whose memory_version was bumped. */
  users_changed: number;
  /** True when the pass stopped because another process held the lifecycle lock. */
  busy: boolean;
}

/** Importance changes smaller than this are written but do not invalidate the hot tier. */
const VISIBLE_CHANGE = 1e-4;

export async function runLifecyclePass(db: Db, now: Date, opts: LifecyclePassOptions = {}): Promise<LifecyclePassResult> {
  const batchSize = Math.max(1, Math.floor(opts.batchSize ?? LIFECYCLE.batchSize));
  const sizes = { batchSize, userBatchSize: Math.max(batchSize, Math.floor(opts.userBatchSize ?? LIFECYCLE.userBatchSize)) };
  const total: LifecyclePassResult = { stepped: 0, archived: 0, users_changed: 0, busy: false };
  for (;;) {
    const batch = await db.transaction(async (tx) => {
      if (opts.lockKey !== undefined) {
        const [lock] = await rows<{ locked: boolean }>(tx, sql`SELECT pg_try_advisory_xact_lock(${opts.lockKey}) AS locked`);
        if (!lock?.locked) return null;
      }
      return stepBatch(tx, now, sizes, opts.tenantId);
    });
    if (batch === null) return { ...total, busy: true };
    total.stepped += batch.stepped;
    total.archived += batch.archived;
    total.users_changed += batch.usersChanged;
    if (!batch.more) return total;
  }
}

async function stepBatch(tx: Db, now: Date, sizes: { batchSize: number; userBatchSize: number }, tenantId: string | undefined) {
  const dueBefore = new Date(now.getTime() - LIFECYCLE.minStepHours * 3_600_000);
  // Due: active and not stepped (or, never stepped, not created) in the last day. Rows another transaction
  // is writing are left for the next run; each stepped row leaves the due set, so the loop ends.
  const selectDue = (limit: number, after?: { userId: string; id: string }) =>
    tx
      .select()
      .from(memories)
      .where(
        and(
          eq(memories.status, 'active'),
          tenantId ? eq(memories.tenantId, tenantId) : undefined,
          after ? and(eq(memories.userId, after.userId), gt(memories.id, after.id)) : undefined,
          // an ISO string with an explicit cast: postgres.js (unlike PGlite) cannot bind a Date to an untyped parameter
          sql`coalesce(${memories.lifecycleAt}, ${memories.createdAt}) <= ${dueBefore.toISOString()}::timestamptz`,
        ),
      )
      .orderBy(memories.userId, memories.id)
      .limit(limit)
      .for('update', { skipLocked: true });
  let due = await selectDue(sizes.batchSize);
  // more may be due when the selection came back full
  const more = due.length === sizes.batchSize;
  if (more) {
    // Whole users per batch, so each changed user is bumped once (one hot-tier reload), in the transaction
    // that wrote its last change: the last user of a full batch may go on past it, so it waits for the next
    // batch (which it starts), unless it fills the batch alone; then the rest of its due memories join this
    // batch, up to userBatchSize.
    const last = due[due.length - 1];
    if (due[0].userId !== last.userId) due = due.filter((m) => m.userId !== last.userId);
    else due = due.concat(await selectDue(sizes.userBatchSize - due.length, last));
  }
  if (due.length === 0) return { stepped: 0, archived: 0, usersChanged: 0, more };

  const updates: { id: string; importance: number; archive: boolean }[] = [];
  // one write path per tenant (memories/writer.ts): ledger rows, memory.archived events, version bumps
  const writers = new Map<string, MemoryWriter>();
  const writerOf = (tenant: string) => {
    let w = writers.get(tenant);
    if (!w) writers.set(tenant, (w = new MemoryWriter(tx, tenant)));
    return w;
  };
  const changedUsers = new Set<string>();
  let archived = 0;
  for (const m of due) {
    const step = lifecycleStep(m, now);
    updates.push({ id: m.id, importance: step.importance, archive: step.archive });
    if (step.archive || Math.abs(step.importance - m.importance) >= VISIBLE_CHANGE) {
      changedUsers.add(m.userId);
      writerOf(m.tenantId).touch(m.userId);
    }
    if (step.archive) {
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
  return { stepped: due.length, archived, usersChanged: changedUsers.size, more };
}
