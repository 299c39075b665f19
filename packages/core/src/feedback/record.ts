/**
 * POST /v1/memories/retrieval-feedback. The feedback row, its effect on the memories (importance and
 * feedback score, docs/lifecycle.md), the user's memory_version bump and — for `user_corrected` — the
 * correction's source event and queued correction job are written in one transaction, together with the
 * Idempotency-Key. The job is handed to the queue after commit and never waited for.
 */
import { randomUUID } from 'node:crypto';
import {
  type Db,
  and,
  endUsers,
  eq,
  inArray,
  memories,
  retrievalFeedback,
  retrievals,
} from '@memory/db';
import type { AppConfig } from '../config';
import { canonicalJson, sha256Hex } from '../crypto';
import { ApiError, Errors } from '../errors';
import { DEFAULT_SERVICE, payloadHash, redactJsonStrings } from '../ingestion/add';
import { insertSourceEventAndJob, queuedJobRow, sourceEventRow } from '../ingestion/source-event';
import {
  type IdempotencyScope,
  type IdempotentOutcome,
  RetryAfterRace,
  findIdempotent,
  saveIdempotentResponse,
  withIdempotency,
} from '../ingestion/idempotency';
import { redactSecrets } from '../secrets';
import { CORRECTION_QUEUE, type CorrectionContext, type JobQueue, type QueuedJob } from '../jobs/queue';
import { type FeedbackEffect, applyFeedbackEffect, feedbackEffect, isNoEffect } from '../lifecycle/feedback-effects';
import { writeMemoryScores } from '../lifecycle/write';
import type { ActivityRecorder } from '../retrieval/activity';
import type { RetrievalFeedbackRequest, RetrievalFeedbackResponse } from '../schemas/feedback';
import type { TenantAuth } from '../tenants/tenants';
import { bumpMemoryVersion } from '../users';

export const FEEDBACK_PATH = '/v1/memories/retrieval-feedback';

/**
 * A retrieval served by another server process reaches the table with that process's next activity flush
 * (every 200 ms). On PostgreSQL, where several processes may serve one tenant, an unknown id is looked up
 * once more after this long before it is a 404.
 */
export const RETRIEVAL_VISIBILITY_WAIT_MS = 300;

export interface FeedbackDeps {
  db: Db;
  config: AppConfig;
  queue: JobQueue;
  /** This process's retrieval recorder: flushed first, so feedback right after a retrieve finds it. */
  activity: ActivityRecorder;
}

export async function recordRetrievalFeedback(
  deps: FeedbackDeps,
  auth: TenantAuth,
  body: RetrievalFeedbackRequest,
  opts: { idempotencyKey?: string; requestId: string; now?: Date },
): Promise<IdempotentOutcome<RetrievalFeedbackResponse>> {
  const now = opts.now ?? new Date();
  const requestHash = sha256Hex(canonicalJson(body));
  const scope: IdempotencyScope | null = opts.idempotencyKey
    ? { tenantId: auth.tenantId, apiKeyId: auth.apiKeyId, method: 'POST', path: FEEDBACK_PATH, key: opts.idempotencyKey }
    : null;
  return withIdempotency(deps.db, scope, requestHash, now, async () => {
    const retrieval = await findRetrieval(deps, auth.tenantId, body.retrieval_id);
    const returned = retrieval.memoryIds;
    const errors = body.used_memory_ids.flatMap((id, i) =>
      returned.includes(id) ? [] : [{ path: `used_memory_ids[${i}]`, message: 'is not a memory this retrieval returned' }],
    );
    if (errors.length > 0) throw Errors.validation(errors);
    const named = [...new Set(body.used_memory_ids)];
    const targets = named.length > 0 ? named : [...new Set(returned)];

    const { response, job } = await deps.db.transaction(async (tx) => {
      await firstOfItsOutcome(tx, auth.tenantId, retrieval.id, body.outcome, scope, now);
      const feedbackId = randomUUID();
      const updated = await applyEffect(tx, auth.tenantId, retrieval.userId, targets, feedbackEffect(body.outcome, body.agent_confidence));
      const metadata = body.metadata ? (redactJsonStrings(body.metadata) as Record<string, unknown>) : {};
      const correction = body.correction != null ? redactSecrets(body.correction) : null;
      let queued: QueuedJob | null = null;
      if (body.outcome === 'user_corrected' && body.correction != null && correction) {
        queued = await queueCorrection(tx, deps.config, {
          tenantId: auth.tenantId,
          userId: retrieval.userId,
          externalUserId: retrieval.externalUserId,
          received: { text: body.correction, metadata: body.metadata ?? null },
          stored: { text: correction.text, metadata: body.metadata ? metadata : null, secretsRedacted: correction.redacted },
          now,
          context: {
            kind: 'correction',
            retrieval_feedback_id: feedbackId,
            retrieval_id: retrieval.id,
            target_memory_ids: targets,
            named_memory_ids: named,
          },
        });
      }
      await tx.insert(retrievalFeedback).values({
        id: feedbackId,
        tenantId: auth.tenantId,
        userId: retrieval.userId,
        retrievalId: retrieval.id,
        outcome: body.outcome,
        usedMemoryIds: named,
        correction: correction?.text ?? null,
        agentConfidence: body.agent_confidence ?? null,
        metadata,
        correctionJobId: queued?.jobId ?? null,
        createdAt: now,
      });
      if (updated > 0) await bumpMemoryVersion(tx, [retrieval.userId]);
      const response: RetrievalFeedbackResponse = {
        data: {
          feedback_id: feedbackId,
          retrieval_id: retrieval.id,
          outcome: body.outcome,
          used_memory_ids: targets,
          memories_updated: updated,
          correction_job_id: queued?.jobId ?? null,
          created_at: now.toISOString(),
        },
        request_id: opts.requestId,
        timestamp: now.toISOString(),
      };
      if (scope) {
        await saveIdempotentResponse(tx, scope, { requestHash, status: 200, response, now, ttlHours: deps.config.idempotencyTtlHours });
      }
      return { response, job: queued };
    });
    if (job) await deps.queue.enqueue(job);
    return { httpStatus: 200, body: response, replayed: false };
  });
}

/**
 * Feedback for one retrieval is serialised on the retrieval's row, so "one per outcome" holds under concurrency.
 * A request that waited for the lock behind one with the same Idempotency-Key replays that one's answer.
 */
async function firstOfItsOutcome(tx: Db, tenantId: string, retrievalId: string, outcome: string, scope: IdempotencyScope | null, now: Date) {
  await tx.select({ id: retrievals.id }).from(retrievals).where(eq(retrievals.id, retrievalId)).for('update');
  if (scope && (await findIdempotent(tx, scope, now))) throw new RetryAfterRace();
  const [earlier] = await tx
    .select({ id: retrievalFeedback.id })
    .from(retrievalFeedback)
    .where(and(eq(retrievalFeedback.tenantId, tenantId), eq(retrievalFeedback.retrievalId, retrievalId), eq(retrievalFeedback.outcome, outcome)))
    .limit(1);
  if (earlier) {
    throw new ApiError(409, 'conflict', `Feedback with outcome "${outcome}" was already recorded for this retrieval.`, {
      fields: { feedback_id: earlier.id },
    });
  }
}

interface RetrievalRef {
  id: string;
  userId: string;
  externalUserId: string;
  memoryIds: string[];
}

async function findRetrieval(deps: FeedbackDeps, tenantId: string, retrievalId: string): Promise<RetrievalRef> {
  await deps.activity.flush();
  const lookup = async () => {
    const [r] = await deps.db
      .select({ id: retrievals.id, userId: retrievals.userId, memoryIds: retrievals.memoryIds, externalUserId: endUsers.externalUserId })
      .from(retrievals)
      .innerJoin(endUsers, eq(endUsers.id, retrievals.userId))
      .where(and(eq(retrievals.tenantId, tenantId), eq(retrievals.id, retrievalId)))
      .limit(1);
    return r ? { ...r, memoryIds: (r.memoryIds as string[]) ?? [] } : null;
  };
  let found = await lookup();
  if (!found && deps.config.database.kind === 'postgres') {
    await new Promise((resolve) => setTimeout(resolve, RETRIEVAL_VISIBILITY_WAIT_MS));
    found = await lookup();
  }
  // Another tenant's retrieval and one that does not exist answer the same.
  if (!found) throw Errors.notFound(`Retrieval ${retrievalId}`);
  return found;
}

/** Applies the outcome's step to each target memory of the user; returns how many changed. */
async function applyEffect(tx: Db, tenantId: string, userId: string, ids: string[], effect: FeedbackEffect): Promise<number> {
  if (ids.length === 0 || isNoEffect(effect)) return 0;
  const found = await tx
    .select({ id: memories.id, importance: memories.importance, feedbackScore: memories.feedbackScore })
    .from(memories)
    .where(and(eq(memories.tenantId, tenantId), eq(memories.userId, userId), inArray(memories.id, ids)))
    .orderBy(memories.id)
    .for('update');
  const changed = found
    .map((m) => ({ id: m.id, before: m, after: applyFeedbackEffect(m, effect) }))
    .filter((c) => c.after.importance !== c.before.importance || c.after.feedbackScore !== c.before.feedbackScore)
    .map((c) => ({ id: c.id, importance: c.after.importance, feedback_score: c.after.feedbackScore }));
  await writeMemoryScores(tx, changed);
  return changed.length;
}

/**
 * The correction becomes a source event (service `default`, event id `feedback_<feedback id>`, the user's
 * words as one user message, evidence pointing at the feedback) and a queued job of kind `correction`.
 */
async function queueCorrection(
  tx: Db,
  config: AppConfig,
  c: {
    tenantId: string;
    userId: string;
    externalUserId: string;
    /** The correction as received (its hash is the payload hash) and as stored (secrets redacted). */
    received: { text: string; metadata: Record<string, unknown> | null };
    stored: { text: string; metadata: Record<string, unknown> | null; secretsRedacted: number };
    now: Date;
    context: CorrectionContext;
  },
): Promise<QueuedJob> {
  const sourceEventId = randomUUID();
  const jobId = randomUUID();
  const feedbackId = c.context.retrieval_feedback_id;
  const event = sourceEventRow({
    id: sourceEventId,
    tenantId: c.tenantId,
    userId: c.userId,
    service: DEFAULT_SERVICE,
    eventId: `feedback_${feedbackId}`,
    eventIdGenerated: 1,
    observedAt: c.now,
    receivedAt: c.now,
    // The hash covers the correction as received, like an add's payload hash (docs/provenance.md).
    payloadHash: payloadHash({
      external_user_id: c.externalUserId,
      messages: [{ role: 'user', content: c.received.text }],
      metadata: c.received.metadata ?? undefined,
    }),
    payload: { messages: [{ role: 'user', content: c.stored.text }], metadata: c.stored.metadata },
    evidence: [{ source_type: 'retrieval_feedback', reference: feedbackId }],
    jobId,
  });
  const job = queuedJobRow({
    id: jobId,
    tenantId: c.tenantId,
    userId: c.userId,
    sourceEventId,
    kind: 'correction',
    queueName: CORRECTION_QUEUE,
    maxAttempts: config.jobs.maxAttempts,
    extractionMetadata: { ...c.context, ...(c.stored.secretsRedacted > 0 ? { secrets_redacted: c.stored.secretsRedacted } : {}) },
    now: c.now,
  });
  // the event id is new (it names this feedback), so no earlier event can take its place
  if ((await insertSourceEventAndJob(tx, event, job)) === 0) throw new Error(`source event feedback_${feedbackId} already exists`);
  return { jobId, tenantId: c.tenantId, userId: c.userId, kind: 'correction' };
}
