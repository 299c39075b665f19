/**
 * The store step's state for one run (extraction-pipeline.ts): the user's memories that share a fingerprint or a
 * claim subject with what was found, read once; the inserts collected and written in one statement; the writer's
 * authority rules; ledger rows and reinforcement of an existing memory.
 */
import {
  type Db,
  type MemoryStatus,
  and,
  eq,
  extractionJobs,
  inArray,
  memories,
  or,
  serviceWriters,
  sql,
} from '@memory/db';
import { type Claim } from '../conflicts/claims';
import type { ReviewBeforeWrite } from '../conflicts/review-before-write';
import { reinforcedScores } from '../conflicts/plan';
import type { ExtractedMemory } from '../extraction/types';
import { memoryFingerprint } from '../memories/fingerprint';
import type { StoredAnalysis } from '../text/analysis';
import { ledgerRow } from '../memories/ledger';
import { MemoryWriter } from '../memories/writer';
import type { WebhookEventInput } from '../webhooks/outbox';

type JobRow = typeof extractionJobs.$inferSelect;
export type MemoryRow = typeof memories.$inferSelect;
type Rules = { default_priority: number; categories?: Record<string, number> };

/** Where the memories of a run come from: a conversation's extraction, or a direct write (POST /v1/memories). */
export type StoreOrigin = 'extraction' | 'direct';

/** Per-job context for conflict decisions: the event's writer and a cache of other writers' rules. */
export interface StoreContext {
  job: JobRow;
  agentId: string | null;
  observedAt: Date | null;
  writerId: string | null;
  actor: string;
  origin: StoreOrigin;
  rules: Map<string, Rules | null>;
  /** The tenant's review-before-write setting (null: off): new memories it matches are stored `pending`. */
  reviewBeforeWrite: ReviewBeforeWrite | null;
  /** The user's pending candidates, read once per job when a confident memory first needs them. */
  pending?: { id: string; fingerprint: string; content: string }[];
  /** Every memory change of this run (memories/writer.ts), committed with the job's completion. */
  writer: MemoryWriter;
  /** The reviews this run opened: their webhook events are recorded with the job's completion. */
  reviewsOpened: WebhookEventInput['data'][];
  /**
   * The user's active memories that share a fingerprint or a claim subject with this run's memories, read once
   * (`loadKnown`) and kept current as this run reinforces and supersedes them.
   */
  known: Map<string, MemoryRow>;
  /** This run's memories by fingerprint: the id, and whether it was stored active. */
  thisJob: Map<string, { id: string; active: boolean }>;
  /** This run's new memories, written in one statement (`flushInserts`) before anything links to them. */
  inserts: (typeof memories.$inferInsert)[];
}

/** Reads, in one statement, the user's active memories any of this run's memories may repeat or contradict. */
export async function loadKnown(tx: Db, ctx: StoreContext, found: readonly ExtractedMemory[], claims: readonly (Claim | null)[]) {
  if (found.length === 0) return;
  const fingerprints = [...new Set(found.map((m) => memoryFingerprint(m.content)))];
  const subjects = [...new Set(claims.flatMap((c) => (c ? [c.subject] : [])))];
  const rows = await tx
    .select()
    .from(memories)
    .where(
      and(
        eq(memories.tenantId, ctx.job.tenantId),
        eq(memories.userId, ctx.job.userId),
        eq(memories.status, 'active'),
        subjects.length > 0 ? or(inArray(memories.fingerprint, fingerprints), inArray(memories.subject, subjects)) : inArray(memories.fingerprint, fingerprints),
      ),
    );
  for (const r of rows) ctx.known.set(r.id, r);
}

/** An active memory of the user with this fingerprint: this run's own first, then one read by `loadKnown`. */
export function activeWithFingerprint(ctx: StoreContext, fingerprint: string): { id: string; jobId: string | null; row: MemoryRow | null } | null {
  const own = ctx.thisJob.get(fingerprint);
  if (own?.active) return { id: own.id, jobId: ctx.job.id, row: null };
  for (const r of ctx.known.values()) if (r.status === 'active' && r.fingerprint === fingerprint) return { id: r.id, jobId: r.jobId, row: r };
  return null;
}

/** Writes this run's new memories (one statement). Every one must be new: a conflict means another run stored them. */
export async function flushInserts(tx: Db, ctx: StoreContext) {
  if (ctx.inserts.length === 0) return;
  const rows = ctx.inserts.splice(0);
  const inserted = await tx.insert(memories).values(rows).onConflictDoNothing().returning({ id: memories.id });
  if (inserted.length !== rows.length) throw new Error(`job ${ctx.job.id}: ${rows.length - inserted.length} of its memories were already stored`);
}

export async function writerRules(tx: Db, ctx: StoreContext, writerId: string | null): Promise<Rules | null> {
  if (!writerId) return null;
  if (!ctx.rules.has(writerId)) {
    const [w] = await tx.select().from(serviceWriters).where(eq(serviceWriters.id, writerId));
    ctx.rules.set(writerId, (w?.authorityRules as Rules | undefined) ?? null);
  }
  return ctx.rules.get(writerId) ?? null;
}

/** Records a change of a memory of this job's user on the job's write path, with the job as its provenance. */
export function ledger(
  ctx: StoreContext,
  memory: Pick<MemoryRow, 'id' | 'content'>,
  entry: { action: string; from: string | null; to: string; reason: string; details?: Record<string, unknown> },
) {
  ctx.writer.record(
    ledgerRow(
      { id: memory.id, tenantId: ctx.job.tenantId, userId: ctx.job.userId, content: memory.content, sourceEventId: ctx.job.sourceEventId, jobId: ctx.job.id },
      { ...entry, actor: ctx.actor },
    ),
  );
}

export async function reinforce(tx: Db, ctx: StoreContext, existing: MemoryRow, m: ExtractedMemory, why: string) {
  const { importance, confidence } = reinforcedScores(existing, m);
  await tx.update(memories).set({ importance, confidence, updatedAt: sql`now()` }).where(eq(memories.id, existing.id));
  const importanceBefore = existing.importance;
  existing.importance = importance;
  existing.confidence = confidence;
  ledger(ctx, existing, {
    action: 'reinforced',
    from: existing.status,
    to: existing.status,
    reason: why,
    details: { importance_before: importanceBefore, importance_after: importance, message_indices: m.messageIndices },
  });
}

/** What the store step knows of a memory before it looks at the database (`claim`: jobs/prepare-store.ts). */
export interface Found {
  fingerprint: string;
  claim: Claim | null;
  analysis: StoredAnalysis;
}

/** Queues a new memory of this run for `flushInserts`. */
export function insertMemory(
  ctx: StoreContext,
  m: ExtractedMemory,
  o: Found & { id: string; status: MemoryStatus; supersededBy: string | null },
): void {
  ctx.thisJob.set(o.fingerprint, { id: o.id, active: o.status === 'active' });
  ctx.inserts.push({
    id: o.id,
    tenantId: ctx.job.tenantId,
    userId: ctx.job.userId,
    agentId: ctx.agentId,
    content: m.content,
    category: m.category,
    status: o.status,
    importance: m.importance,
    confidence: m.confidence,
    fingerprint: o.fingerprint,
    sourceEventId: ctx.job.sourceEventId,
    jobId: ctx.job.id,
    messageIndices: m.messageIndices,
    observedAt: ctx.observedAt,
    subject: o.claim?.subject ?? null,
    claimValue: o.claim?.value ?? null,
    claimNegated: o.claim?.negated ?? false,
    writerId: ctx.writerId,
    supersededBy: o.supersededBy,
    ...o.analysis,
  });
}
