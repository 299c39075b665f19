/**
 * The database-facing steps of a universal extraction job (packages/jobs runs them as steps, under Inngest
 * or the embedded runner). The store step writes only `universal_memories` and `passport_reviews`, only in
 * the categories the job may write, in one transaction with the job's completion.
 *
 * Conflicts follow the tenant store's rules (conflicts/claims.ts, conflicts/decide.ts) with every agent as an
 * equally trusted writer (the universal store has no authority rules): the same agent's later observation
 * supersedes its earlier claim, a later day wins between agents, and so does change language ("actually I
 * moved to …") on the same day. What is left — two agents disagreeing at the same moment — is never decided
 * by the service: both become inactive and the passport user gets a question (a `passport_reviews` row).
 */
import { randomUUID } from 'node:crypto';
import { type Db, type SQL, and, eq, grants, inArray, passportReviews, sql, universalJobs, universalMemories } from '@memory/db';
import { claimOfMemory, clarificationQuestion, detectClaim, slotWords, storedClaim } from '../conflicts/claims';
import { planClaim, reinforcedScores } from '../conflicts/plan';
import type { ExtractedMemory, ExtractionResult } from '../extraction/types';
import { PENDING, PermanentJobError, type StoreSummary } from '../jobs/extraction-pipeline';
import { finishedJobColumns } from '../jobs/repository';
import { memoryFingerprint } from '../memories/fingerprint';
import type { ConversationMessage } from '../messages';
import { analyseForIndex } from '../text/analysis';
import { bumpPassportMemoryVersion } from '../users';

export interface UniversalInputSnapshot {
  jobId: string;
  finished: boolean;
  summary: StoreSummary | null;
  messages: ConversationMessage[];
  observedAt: string;
}

const summaryOf = (job: typeof universalJobs.$inferSelect): StoreSummary => ({
  status: job.status as StoreSummary['status'],
  memories_created: job.memoriesCreated,
  memories_reinforced: Number((job.extractionMetadata as Record<string, unknown>).memories_reinforced ?? 0),
});

const isFinished = (status: string) => status === 'completed' || status === 'processed';

export async function loadUniversalInput(db: Db, jobId: string): Promise<UniversalInputSnapshot> {
  const [job] = await db.select().from(universalJobs).where(eq(universalJobs.id, jobId)).limit(1);
  if (!job) throw new PermanentJobError(`universal job ${jobId} does not exist`);
  const observedAt = job.observedAt.toISOString();
  if (isFinished(job.status)) return { jobId, finished: true, summary: summaryOf(job), messages: [], observedAt };
  const payload = job.payload as { messages?: ConversationMessage[] } | null;
  if (!payload?.messages) throw new PermanentJobError('the universal job has no payload');
  return { jobId, finished: false, summary: null, messages: payload.messages, observedAt };
}

type MemoryRow = typeof universalMemories.$inferSelect;
type JobRow = typeof universalJobs.$inferSelect;
type Outcome = 'created' | 'reinforced' | 'dropped_outside_grant' | 'dropped_low_confidence';

/**
 * Stores what the extractor found. Idempotent: (job_id, fingerprint) is unique and a finished job is left
 * as it is. The categories written are the job's (the grant's at acceptance) that the grant still covers
 * now: a grant revoked or narrowed while the job waited is respected.
 */
export async function storeUniversalResult(db: Db, jobId: string, result: ExtractionResult): Promise<StoreSummary> {
  return db.transaction(async (tx) => {
    const [job] = await tx.select().from(universalJobs).where(eq(universalJobs.id, jobId)).for('update');
    if (!job) throw new PermanentJobError(`universal job ${jobId} does not exist`);
    if (isFinished(job.status)) return summaryOf(job);

    const [grant] = await tx
      .select({ categories: grants.categories })
      .from(grants)
      .where(
        and(
          eq(grants.passportUserId, job.passportUserId),
          eq(grants.agentId, job.agentId),
          eq(grants.status, 'active'),
          eq(grants.accessType, 'read_write'),
        ),
      );
    const now = (grant?.categories as string[] | undefined) ?? [];
    const allowed = new Set((job.categories as string[]).filter((c) => now.includes(c)));

    const counts: Record<Outcome, number> = { created: 0, reinforced: 0, dropped_outside_grant: 0, dropped_low_confidence: 0 };
    let reviewsOpened = 0;
    for (const m of result.memories) {
      if (!allowed.has(m.category)) {
        counts.dropped_outside_grant++;
        continue;
      }
      // There are no pending candidates in the universal store: a hedged statement is not shared with other agents.
      if (m.confidence < PENDING.maxConfidence) {
        counts.dropped_low_confidence++;
        continue;
      }
      const r = await storeOne(tx, job, m);
      counts[r.outcome]++;
      reviewsOpened += r.reviews;
    }
    if (counts.created + counts.reinforced > 0) {
      await bumpPassportMemoryVersion(tx, job.passportUserId);
    }
    const status: StoreSummary['status'] = counts.created + counts.reinforced > 0 ? 'completed' : 'processed';
    await tx
      .update(universalJobs)
      .set({
        status,
        memoriesCreated: counts.created,
        extractionMetadata: {
          ...(job.extractionMetadata as Record<string, unknown>),
          ...result.metadata,
          memories_extracted: result.memories.length,
          memories_reinforced: counts.reinforced,
          dropped_outside_grant: counts.dropped_outside_grant,
          dropped_low_confidence: counts.dropped_low_confidence,
          reviews_opened: reviewsOpened,
          categories_written: [...allowed],
          grant_active: Boolean(grant),
          nothing_to_extract: result.memories.length === 0,
        },
        ...finishedJobColumns(),
      })
      .where(eq(universalJobs.id, jobId));
    return { status, memories_created: counts.created, memories_reinforced: counts.reinforced };
  });
}

async function activeOf(tx: Db, job: JobRow, where: SQL): Promise<MemoryRow[]> {
  return tx
    .select()
    .from(universalMemories)
    .where(and(eq(universalMemories.passportUserId, job.passportUserId), eq(universalMemories.status, 'active'), where));
}

async function reinforce(tx: Db, existing: MemoryRow, m: ExtractedMemory): Promise<void> {
  await tx
    .update(universalMemories)
    .set({ ...reinforcedScores(existing, m), updatedAt: sql`now()` })
    .where(eq(universalMemories.id, existing.id));
}

async function storeOne(tx: Db, job: JobRow, m: ExtractedMemory): Promise<{ outcome: 'created' | 'reinforced'; reviews: number }> {
  const fingerprint = memoryFingerprint(m.content);
  const [same] = await activeOf(tx, job, eq(universalMemories.fingerprint, fingerprint));
  if (same) {
    // Written by an earlier run of this job: it counts as created, once.
    if (same.jobId === job.id) return { outcome: 'created', reviews: 0 };
    await reinforce(tx, same, m);
    return { outcome: 'reinforced', reviews: 0 };
  }
  const claim = claimOfMemory(m);
  const rivals = claim ? (await activeOf(tx, job, eq(universalMemories.subject, claim.subject))).filter((r) => r.jobId !== job.id) : [];
  // every agent is a writer of equal authority; the plan is the tenant store's (conflicts/plan.ts)
  const plan = claim
    ? planClaim(
        { claim, evidence: { authority: 0, observedAt: job.observedAt ?? new Date(), confidence: m.confidence, writerId: job.agentId, change: claim.change } },
        rivals.flatMap((r) => {
          const stored = storedClaim(r);
          return stored
            ? [{ memoryId: r.id, claim: stored, evidence: { authority: 0, observedAt: r.observedAt ?? r.createdAt, confidence: r.confidence, writerId: r.agentId, change: detectClaim(r.content)?.change } }]
            : [];
        }),
      )
    : ({ kind: 'store', supersede: [], review: [] } as const);
  const byId = new Map(rivals.map((r) => [r.id, r]));
  if (plan.kind === 'reinforce') {
    await reinforce(tx, byId.get(plan.memoryId)!, m);
    return { outcome: 'reinforced', reviews: 0 };
  }
  const winner = plan.kind === 'lose' ? plan.to : null;
  const superseded = plan.kind === 'store' ? plan.supersede.map((s) => byId.get(s.memoryId)!) : [];
  const contradicting = plan.kind === 'store' ? plan.review.map((r) => byId.get(r)!) : [];

  const id = randomUUID();
  const inserted = await tx
    .insert(universalMemories)
    .values({
      id,
      passportUserId: job.passportUserId,
      agentId: job.agentId,
      content: m.content,
      category: m.category,
      status: winner || contradicting.length > 0 ? 'inactive' : 'active',
      importance: m.importance,
      confidence: m.confidence,
      fingerprint,
      jobId: job.id,
      messageIndices: m.messageIndices,
      subject: claim?.subject ?? null,
      claimValue: claim?.value ?? null,
      claimNegated: claim?.negated ?? false,
      supersededBy: winner,
      observedAt: job.observedAt,
      // the ranking inputs, once, so a load parses them (text/analysis.ts); a claim is found by its slot's words too
      ...analyseForIndex(m.content, undefined, slotWords(claim)),
    })
    .onConflictDoNothing()
    .returning({ id: universalMemories.id });
  // The (job_id, fingerprint) row exists from an earlier run of this job.
  if (inserted.length === 0 || !claim) return { outcome: 'created', reviews: 0 };
  if (superseded.length > 0) {
    await tx
      .update(universalMemories)
      .set({ status: 'inactive', supersededBy: id, updatedAt: sql`now()` })
      .where(inArray(universalMemories.id, superseded.map((r) => r.id)));
  }
  if (contradicting.length === 0) return { outcome: 'created', reviews: 0 };

  await tx
    .update(universalMemories)
    .set({ status: 'inactive', updatedAt: sql`now()` })
    .where(inArray(universalMemories.id, contradicting.map((r) => r.id)));
  for (const rival of contradicting) {
    await tx.insert(passportReviews).values({
      id: randomUUID(),
      passportUserId: job.passportUserId,
      subject: claim.subject,
      claimAId: rival.id,
      claimBId: id,
      question: clarificationQuestion(claim.subject, detectClaim(rival.content)?.display ?? rival.claimValue ?? rival.content, claim.display),
    });
  }
  return { outcome: 'created', reviews: contradicting.length };
}
