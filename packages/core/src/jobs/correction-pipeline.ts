/**
 * The database-facing steps of a correction job (kind `correction`, queued by `user_corrected` retrieval
 * feedback; packages/jobs/src/correction.ts runs them under Inngest and in the embedded runner).
 *
 * The user's own words win: every memory extracted from the correction is stored active (or, when the user
 * already has it, reinforced), and the memories it contradicts are superseded through the claim revision
 * ledger whatever writer authority they had. Contradicted means (docs/lifecycle.md, "Corrections"):
 * - the correction is a claim (conflicts/claims.ts): every active claim of the user with the same subject and
 *   another value — the used memories of the retrieval first of all;
 * - otherwise: the memories the feedback named in `used_memory_ids` that share a word stem with it.
 */
import { randomUUID } from 'node:crypto';
import { type Db, and, eq, extractionJobs, inArray, memories, ne, sourceEvents, sql } from '@memory/db';
import { type Claim, claimOfMemory, relateClaims, slotWords, storedClaim } from '../conflicts/claims';
import { reinforcedScores } from '../conflicts/plan';
import type { ExtractedMemory, ExtractionResult } from '../extraction/types';
import type { CorrectionContext } from './queue';
import { memoryFingerprint } from '../memories/fingerprint';
import { type LedgerSubject, ledgerRow } from '../memories/ledger';
import { analyze } from '../text/terms';
import { type ExtractionInputSnapshot, PermanentJobError, loadExtractionInput } from './extraction-pipeline';
import { jobEvent } from '../webhooks/memory-events';
import { MemoryWriter } from '../memories/writer';
import { completeJob } from './repository';
import { analyseForIndex } from '../text/analysis';

export interface CorrectionSummary {
  status: 'completed' | 'processed';
  memories_created: number;
  memories_reinforced: number;
  memories_superseded: number;
}

export interface CorrectionInputSnapshot extends Omit<ExtractionInputSnapshot, 'summary'> {
  summary: CorrectionSummary | null;
  context: CorrectionContext;
}

type JobRow = typeof extractionJobs.$inferSelect;
type MemoryRow = typeof memories.$inferSelect;

const isFinished = (job: JobRow) => job.status === 'completed' || job.status === 'processed';

function summaryOf(job: JobRow): CorrectionSummary {
  const meta = job.extractionMetadata as Record<string, unknown>;
  return {
    status: job.status as CorrectionSummary['status'],
    memories_created: job.memoriesCreated,
    memories_reinforced: Number(meta.memories_reinforced ?? 0),
    memories_superseded: Number(meta.memories_superseded ?? 0),
  };
}

function correctionContext(job: JobRow): CorrectionContext {
  const meta = job.extractionMetadata as Partial<CorrectionContext>;
  if (job.kind !== 'correction' || !meta.retrieval_feedback_id) {
    throw new PermanentJobError(`job ${job.id} is not a correction job`);
  }
  return {
    kind: 'correction',
    retrieval_feedback_id: meta.retrieval_feedback_id,
    retrieval_id: meta.retrieval_id ?? '',
    target_memory_ids: meta.target_memory_ids ?? [],
    named_memory_ids: meta.named_memory_ids ?? [],
  };
}

/** The correction text (the source event's one user message) and the feedback it answers. */
export async function loadCorrectionInput(db: Db, jobId: string): Promise<CorrectionInputSnapshot> {
  const input = await loadExtractionInput(db, jobId);
  const [job] = await db.select().from(extractionJobs).where(eq(extractionJobs.id, jobId));
  if (!job) throw new PermanentJobError(`job ${jobId} does not exist`);
  return { ...input, summary: input.finished ? summaryOf(job) : null, context: correctionContext(job) };
}

const actorOf = (ctx: CorrectionContext) => `feedback:${ctx.retrieval_feedback_id}`;

/**
 * Stores the correction's memories and supersedes what they contradict, in one transaction with the job's
 * completion. A job that runs twice changes nothing the second time (the finished job is returned as it is).
 */
export async function storeCorrectionResult(db: Db, jobId: string, result: ExtractionResult): Promise<CorrectionSummary> {
  return db.transaction(async (tx) => {
    const [job] = await tx.select().from(extractionJobs).where(eq(extractionJobs.id, jobId)).for('update');
    if (!job) throw new PermanentJobError(`job ${jobId} does not exist`);
    if (isFinished(job)) return summaryOf(job);
    const ctx = correctionContext(job);
    const [event] = await tx.select().from(sourceEvents).where(eq(sourceEvents.id, job.sourceEventId));
    const store: CorrectionStore = { tx, job, ctx, observedAt: event?.observedAt ?? new Date(), agentId: event?.agentId ?? null, writer: new MemoryWriter(tx, job.tenantId) };

    let created = 0;
    let reinforced = 0;
    const superseded: string[] = [];
    for (const m of result.memories) {
      const claim = claimOfMemory(m);
      const { winner, isNew } = await storeStatement(store, m, claim);
      if (isNew) created++;
      else reinforced++;
      for (const wrong of await contradicted(store, m, claim, winner.id)) {
        await supersede(store, wrong, winner, claim);
        superseded.push(wrong.id);
      }
    }
    const status: CorrectionSummary['status'] = created + reinforced > 0 ? 'completed' : 'processed';
    await completeJob(tx, jobId, {
      status,
      memoriesCreated: created,
      extractionMetadata: {
        ...(job.extractionMetadata as Record<string, unknown>),
        ...result.metadata,
        memories_extracted: result.memories.length,
        memories_reinforced: reinforced,
        memories_superseded: superseded.length,
        superseded_memory_ids: superseded,
        nothing_to_extract: result.memories.length === 0,
      },
    });
    await store.writer.commit((ids) => [jobEvent(job, { status, memories_created: created, memories_reinforced: reinforced }, ids)], [job.userId]);
    return { status, memories_created: created, memories_reinforced: reinforced, memories_superseded: superseded.length };
  });
}

interface CorrectionStore {
  tx: Db;
  job: JobRow;
  ctx: CorrectionContext;
  observedAt: Date;
  agentId: string | null;
  /** The job's write path (memories/writer.ts): ledger, webhook events and version bump at completion. */
  writer: MemoryWriter;
}

/** A ledger entry on the job's write path. */
async function writeLedger(s: CorrectionStore, row: ReturnType<typeof ledgerRow>) {
  s.writer.record(row);
}

/** The memory that now holds the user's statement: an active one that already says it, else a new one. */
async function storeStatement(s: CorrectionStore, m: ExtractedMemory, claim: Claim | null): Promise<{ winner: LedgerSubject; isNew: boolean }> {
  const { tx, job, ctx } = s;
  const fingerprint = memoryFingerprint(m.content);
  const mine = and(eq(memories.tenantId, job.tenantId), eq(memories.userId, job.userId), eq(memories.status, 'active'));
  const [same] = await tx
    .select()
    .from(memories)
    .where(and(mine, claim ? sql`(${memories.fingerprint} = ${fingerprint} OR (${memories.subject} = ${claim.subject} AND ${memories.claimValue} = ${claim.value} AND ${memories.claimNegated} = ${claim.negated}))` : eq(memories.fingerprint, fingerprint)))
    .limit(1);
  if (same) {
    const { importance, confidence } = reinforcedScores(same, m);
    await tx.update(memories).set({ importance, confidence, updatedAt: sql`now()` }).where(eq(memories.id, same.id));
    await writeLedger(s, 
      ledgerRow(
        same,
        {
          action: 'reinforced',
          from: same.status,
          to: same.status,
          reason: `confirmed by the user via retrieval feedback ${ctx.retrieval_feedback_id}`,
          actor: actorOf(ctx),
          details: { importance_before: same.importance, importance_after: importance, retrieval_id: ctx.retrieval_id },
        },
        { sourceEventId: job.sourceEventId, jobId: job.id },
      ),
    );
    return { winner: same, isNew: false };
  }
  const row = {
    id: randomUUID(),
    tenantId: job.tenantId,
    userId: job.userId,
    agentId: s.agentId,
    content: m.content,
    category: m.category,
    status: 'active' as const,
    importance: m.importance,
    confidence: m.confidence,
    fingerprint,
    sourceEventId: job.sourceEventId,
    jobId: job.id,
    messageIndices: m.messageIndices,
    observedAt: s.observedAt,
    subject: claim?.subject ?? null,
    claimValue: claim?.value ?? null,
    claimNegated: claim?.negated ?? false,
    ...analyseForIndex(m.content, undefined, slotWords(claim)),
  };
  const inserted = await tx.insert(memories).values(row).onConflictDoNothing().returning({ id: memories.id });
  if (inserted.length === 0) {
    // (job_id, fingerprint) exists: an earlier run of this job wrote it, with its ledger entry.
    const [earlier] = await tx.select().from(memories).where(and(eq(memories.jobId, job.id), eq(memories.fingerprint, fingerprint)));
    return { winner: earlier, isNew: true };
  }
  await writeLedger(s, 
    ledgerRow(row, {
      action: 'created',
      from: null,
      to: 'active',
      reason: `stated by the user in a correction (retrieval feedback ${ctx.retrieval_feedback_id})`,
      actor: actorOf(ctx),
      details: { category: m.category, importance: m.importance, confidence: m.confidence, retrieval_id: ctx.retrieval_id },
    }),
  );
  return { winner: row, isNew: true };
}

/** Shared word stems (stop words and "user" left out), the test for a correction that is not a claim. */
export function sharesStems(a: string, b: string): boolean {
  const stems = new Set(analyze(a));
  return analyze(b).some((t) => stems.has(t));
}

async function contradicted(s: CorrectionStore, m: ExtractedMemory, claim: Claim | null, winnerId: string): Promise<MemoryRow[]> {
  const { tx, job, ctx } = s;
  const mine = and(eq(memories.tenantId, job.tenantId), eq(memories.userId, job.userId), eq(memories.status, 'active'), ne(memories.id, winnerId));
  if (claim) {
    const rows = await tx.select().from(memories).where(and(mine, eq(memories.subject, claim.subject))).orderBy(memories.id).for('update');
    return rows.filter((r) => {
      const c = storedClaim(r);
      return c !== null && relateClaims(c, claim) === 'contradiction';
    });
  }
  if (ctx.named_memory_ids.length === 0) return [];
  const named = await tx
    .select()
    .from(memories)
    .where(and(mine, inArray(memories.id, ctx.named_memory_ids)))
    .orderBy(memories.id)
    .for('update');
  return named.filter((w) => sharesStems(w.content, m.content));
}

async function supersede(s: CorrectionStore, wrong: MemoryRow, winner: LedgerSubject, claim: Claim | null) {
  const { tx, job, ctx } = s;
  await tx.update(memories).set({ status: 'inactive', supersededBy: winner.id, updatedAt: sql`now()` }).where(eq(memories.id, wrong.id));
  await writeLedger(s, 
    ledgerRow(
      wrong,
      {
        action: 'superseded',
        from: wrong.status,
        to: 'inactive',
        reason: `corrected by the user via retrieval feedback ${ctx.retrieval_feedback_id}`,
        actor: actorOf(ctx),
        details: {
          superseded_by: winner.id,
          decided_by: 'user_correction',
          retrieval_feedback_id: ctx.retrieval_feedback_id,
          retrieval_id: ctx.retrieval_id,
          was_used: ctx.target_memory_ids.includes(wrong.id),
          ...(claim ? { subject: claim.subject } : {}),
        },
      },
      { sourceEventId: job.sourceEventId, jobId: job.id },
    ),
  );
}
