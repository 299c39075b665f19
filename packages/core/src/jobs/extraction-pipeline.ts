/**
 * The two database-facing steps of an extraction run. The extraction function (packages/jobs) calls
 * them as steps, so the same code runs under Inngest and in the embedded runner.
 */
import { randomUUID } from 'node:crypto';
import { type Db, and, claimRevisions, endUsers, eq, extractionJobs, memories, sourceEvents, sql } from '@memory/db';
import type { ExtractedMemory, ExtractionResult } from '../extraction/types';
import type { ConversationMessage } from '../messages';
import { memoryFingerprint } from '../memories/fingerprint';

export class PermanentJobError extends Error {
  override name = 'PermanentJobError';
}

export interface ExtractionInputSnapshot {
  jobId: string;
  finished: boolean;
  summary: StoreSummary | null;
  messages: ConversationMessage[];
  observedAt: string;
}

export interface StoreSummary {
  status: 'completed' | 'processed';
  memories_created: number;
  memories_reinforced: number;
}

/** Loads the conversation a job extracts from. A job whose payload is gone can never succeed. */
export async function loadExtractionInput(db: Db, jobId: string): Promise<ExtractionInputSnapshot> {
  const [row] = await db
    .select({ job: extractionJobs, payload: sourceEvents.payload, observedAt: sourceEvents.observedAt })
    .from(extractionJobs)
    .innerJoin(sourceEvents, eq(sourceEvents.id, extractionJobs.sourceEventId))
    .where(eq(extractionJobs.id, jobId))
    .limit(1);
  if (!row) throw new PermanentJobError(`job ${jobId} or its source event does not exist`);
  const finished = row.job.status === 'completed' || row.job.status === 'processed';
  if (finished) {
    return {
      jobId,
      finished,
      summary: {
        status: row.job.status as StoreSummary['status'],
        memories_created: row.job.memoriesCreated,
        memories_reinforced: Number((row.job.extractionMetadata as Record<string, unknown>).memories_reinforced ?? 0),
      },
      messages: [],
      observedAt: row.observedAt.toISOString(),
    };
  }
  const payload = row.payload as { messages?: ConversationMessage[] } | null;
  if (!payload?.messages) throw new PermanentJobError('the source payload was redacted before extraction ran');
  return { jobId, finished, summary: null, messages: payload.messages, observedAt: row.observedAt.toISOString() };
}

/**
 * Stores what the extractor found, in one transaction with the job's completion, so that a job that runs
 * twice writes each memory once: (job_id, fingerprint) is unique, and a finished job is left as it is.
 * A fact the user already has as an active memory is reinforced instead of copied.
 */
export async function storeExtractionResult(
  db: Db,
  jobId: string,
  result: ExtractionResult,
  extraMetadata: Record<string, unknown> = {},
): Promise<StoreSummary> {
  return db.transaction(async (tx) => {
    const [job] = await tx.select().from(extractionJobs).where(eq(extractionJobs.id, jobId)).for('update');
    if (!job) throw new PermanentJobError(`job ${jobId} does not exist`);
    if (job.status === 'completed' || job.status === 'processed') {
      return {
        status: job.status as StoreSummary['status'],
        memories_created: job.memoriesCreated,
        memories_reinforced: Number((job.extractionMetadata as Record<string, unknown>).memories_reinforced ?? 0),
      };
    }
    const [event] = await tx.select().from(sourceEvents).where(eq(sourceEvents.id, job.sourceEventId));
    const actor = `extractor:${result.metadata.provider}`;
    let created = 0;
    let reinforced = 0;
    for (const m of result.memories) {
      const outcome = await storeOne(tx as unknown as Db, job, event?.agentId ?? null, event?.observedAt ?? null, m, actor);
      if (outcome === 'created') created++;
      if (outcome === 'reinforced') reinforced++;
    }
    if (created + reinforced > 0) {
      await tx
        .update(endUsers)
        .set({ memoryVersion: sql`${endUsers.memoryVersion} + 1` })
        .where(eq(endUsers.id, job.userId));
    }
    const status: StoreSummary['status'] = created + reinforced > 0 ? 'completed' : 'processed';
    await tx
      .update(extractionJobs)
      .set({
        status,
        memoriesCreated: created,
        extractionMetadata: {
          ...(job.extractionMetadata as Record<string, unknown>),
          ...result.metadata,
          ...extraMetadata,
          memories_extracted: result.memories.length,
          memories_reinforced: reinforced,
          nothing_to_extract: result.memories.length === 0,
        },
        error: null,
        errorSummary: null,
        leaseUntil: null,
        lockedBy: null,
        updatedAt: sql`now()`,
        finishedAt: sql`now()`,
      })
      .where(eq(extractionJobs.id, jobId));
    return { status, memories_created: created, memories_reinforced: reinforced };
  });
}

async function storeOne(
  tx: Db,
  job: typeof extractionJobs.$inferSelect,
  agentId: string | null,
  observedAt: Date | null,
  m: ExtractedMemory,
  actor: string,
): Promise<'created' | 'reinforced'> {
  const fingerprint = memoryFingerprint(m.content);
  const [existing] = await tx
    .select()
    .from(memories)
    .where(
      and(
        eq(memories.tenantId, job.tenantId),
        eq(memories.userId, job.userId),
        eq(memories.fingerprint, fingerprint),
        eq(memories.status, 'active'),
      ),
    )
    .limit(1);
  if (existing) {
    // Written by an earlier run of this same job: it counts as created, once.
    if (existing.jobId === job.id) return 'created';
    const importance = Math.min(1, Math.max(existing.importance, m.importance) + 0.05);
    const confidence = Math.min(1, Math.max(existing.confidence, m.confidence) + 0.02);
    await tx
      .update(memories)
      .set({ importance, confidence, updatedAt: sql`now()` })
      .where(eq(memories.id, existing.id));
    await tx.insert(claimRevisions).values({
      id: randomUUID(),
      tenantId: job.tenantId,
      userId: job.userId,
      memoryId: existing.id,
      action: 'reinforced',
      fromStatus: 'active',
      toStatus: 'active',
      reason: 'the same fact was stated again',
      actor,
      sourceEventId: job.sourceEventId,
      jobId: job.id,
      content: existing.content,
      details: { importance_before: existing.importance, importance_after: importance, message_indices: m.messageIndices },
    });
    return 'reinforced';
  }
  const id = randomUUID();
  const inserted = await tx
    .insert(memories)
    .values({
      id,
      tenantId: job.tenantId,
      userId: job.userId,
      agentId,
      content: m.content,
      category: m.category,
      importance: m.importance,
      confidence: m.confidence,
      fingerprint,
      sourceEventId: job.sourceEventId,
      jobId: job.id,
      messageIndices: m.messageIndices,
      observedAt,
    })
    .onConflictDoNothing()
    .returning({ id: memories.id });
  // The (job_id, fingerprint) row exists from an earlier run of this job.
  if (inserted.length === 0) return 'created';
  await tx.insert(claimRevisions).values({
    id: randomUUID(),
    tenantId: job.tenantId,
    userId: job.userId,
    memoryId: id,
    action: 'created',
    fromStatus: null,
    toStatus: 'active',
    reason: 'extracted from a conversation',
    actor,
    sourceEventId: job.sourceEventId,
    jobId: job.id,
    content: m.content,
    details: { category: m.category, importance: m.importance, confidence: m.confidence, message_indices: m.messageIndices },
  });
  return 'created';
}
