/**
 * POST /v1/memories: a memory written directly, without extraction (docs/direct-operations.md). It is stored on
 * the same path as an extracted memory: a source event records where it came from (the `source` block's writer,
 * or default provenance), a job of kind `direct` is created and completed in the same transaction, and the store
 * step (jobs/extraction-pipeline.ts `storeLocked`) applies the conflict rules, writes the ledger, the webhook
 * events and the version bump. Its index analysis is stored with it, so retrieve finds it at once.
 */
import { randomUUID } from 'node:crypto';
import { type Db, eq, sourceEvents } from '@memory/db';
import type { AppConfig } from '../config';
import { canonicalJson, sha256Hex } from '../crypto';
import { embedMemoriesById } from '../embeddings/store';
import type { EmbeddingsProvider } from '../embeddings/types';
import { Errors } from '../errors';
import { COMPOSITIONAL_NOT_RUN, type ExtractionResult } from '../extraction/types';
import { DEFAULT_SERVICE, redactJsonStrings } from '../ingestion/add';
import { type IdempotencyScope, type IdempotentOutcome, RetryAfterRace, saveIdempotentResponse, withIdempotency } from '../ingestion/idempotency';
import { insertSourceEventAndJob, priorSourceEvent, queuedJobRow, sourceEventRow } from '../ingestion/source-event';
import { reviewBeforeWriteOf } from '../conflicts/review-before-write';
import { storeLocked } from '../jobs/extraction-pipeline';
import { prepareStore } from '../jobs/prepare-store';
import { DIRECT_QUEUE } from '../jobs/queue';
import type { Logger } from '../logger';
import { getMemoryDetail } from '../memories/detail';
import { resolveWriter } from '../provenance/writers';
import { type CreateMemoryRequest, type CreatedMemory, DIRECT_DEFAULT_IMPORTANCE } from '../schemas/direct';
import type { TenantAuth } from '../tenants/tenants';
import { ensureUser } from '../users';

export const MEMORIES_PATH = '/v1/memories';
/** The provider a direct write's job names (`provider`, `extraction_metadata.provider`). */
export const DIRECT_PROVIDER = 'direct';
/**
 * A direct write is the tenant's own statement, not an inference from a conversation: it is stored with full
 * confidence (never held back as a weak signal). Authority and recency still decide conflicts before confidence.
 */
export const DIRECT_CONFIDENCE = 1;

export interface DirectDeps {
  db: Db;
  config: AppConfig;
  /** The configured embeddings endpoint: the new memory gets its vector right after the write. */
  embeddings?: EmbeddingsProvider | null;
  log?: Logger;
}

export interface CreatedEnvelope {
  data: CreatedMemory;
  request_id: string;
  timestamp: string;
}

/** The canonical payload whose SHA-256 is a direct write's `payload_hash` (docs/direct-operations.md). */
export function directPayloadHash(body: CreateMemoryRequest): string {
  return sha256Hex(
    canonicalJson({
      external_user_id: body.external_user_id,
      content: body.content,
      category: body.category,
      importance: body.importance ?? null,
      metadata: body.metadata ?? null,
    }),
  );
}

const statusOf = (body: CreatedEnvelope) => (body.data.outcome === 'created' ? 201 : 200);

export async function createMemory(
  deps: DirectDeps,
  auth: TenantAuth,
  body: CreateMemoryRequest,
  opts: { idempotencyKey?: string; requestId: string; now?: Date },
): Promise<IdempotentOutcome<CreatedEnvelope>> {
  const now = opts.now ?? new Date();
  const requestHash = sha256Hex(canonicalJson(body));
  const idem: IdempotencyScope | null = opts.idempotencyKey
    ? { tenantId: auth.tenantId, apiKeyId: auth.apiKeyId, method: 'POST', path: MEMORIES_PATH, key: opts.idempotencyKey }
    : null;
  const outcome = await withIdempotency(deps.db, idem, requestHash, now, () => write(deps, auth, body, { requestId: opts.requestId, now, requestHash, idem }));
  if (!outcome.replayed && deps.embeddings) {
    // never fails the write: a memory without a vector is ranked by the offline vectors until retrieval heals it
    await embedMemoriesById(deps.db, auth.tenantId, [outcome.body.data.id], deps.embeddings, deps.log);
  }
  return outcome;
}

async function write(
  deps: DirectDeps,
  auth: TenantAuth,
  body: CreateMemoryRequest,
  ctx: { requestId: string; now: Date; requestHash: string; idem: IdempotencyScope | null },
): Promise<IdempotentOutcome<CreatedEnvelope>> {
  const { db } = deps;
  // Unknown writer: PROV_404; a writer bound to another key: PROV_403.
  const writer = body.source ? await resolveWriter(db, auth, body.source.service) : null;
  const service = body.source?.service ?? DEFAULT_SERVICE;
  const eventId = body.source?.event_id ?? `evt_${randomUUID()}`;
  const hash = directPayloadHash(body);
  if (body.source) {
    const existing = await priorSourceEvent(db, auth.tenantId, service, eventId, hash);
    if (existing) {
      // The same event again: the first answer, as for an add (docs/provenance.md).
      const original = existing.addResponse as CreatedEnvelope | null;
      if (!original?.data) throw Errors.provConflict(`The source event "${eventId}" from service "${service}" was not a direct write.`);
      return { httpStatus: statusOf(original), body: original, replayed: true };
    }
  }
  const metadata = body.metadata ? (redactJsonStrings(body.metadata) as Record<string, unknown>) : null;
  const importance = body.importance ?? DIRECT_DEFAULT_IMPORTANCE;
  const result: ExtractionResult = {
    memories: [{ content: body.content.trim(), category: body.category, importance, confidence: DIRECT_CONFIDENCE, messageIndices: [] }],
    metadata: {
      provider: DIRECT_PROVIDER,
      sentences_considered: 0,
      skipped: {},
      ...COMPOSITIONAL_NOT_RUN,
    },
  };
  // the CPU work (claim, index analysis, entities) before the transaction takes its locks
  const prepared = prepareStore(result);

  const envelope = await db.transaction(async (tx) => {
    const userId = await ensureUser(tx, auth.tenantId, body.external_user_id);
    const sourceEventId = randomUUID();
    const jobId = randomUUID();
    const event = sourceEventRow({
      id: sourceEventId,
      tenantId: auth.tenantId,
      userId,
      service,
      writerId: writer?.id ?? null,
      eventId,
      eventIdGenerated: body.source ? 0 : 1,
      agentId: body.agent_id ?? null,
      observedAt: body.source?.observed_at ? new Date(body.source.observed_at) : ctx.now,
      receivedAt: ctx.now,
      payloadHash: hash,
      payload: { direct: { content: body.content, category: body.category, importance }, metadata },
      metadata: metadata ?? {},
      scope: body.source?.scope ?? {},
      evidence: body.source?.evidence ?? [],
      jobId,
    });
    const job = queuedJobRow({
      id: jobId,
      tenantId: auth.tenantId,
      userId,
      sourceEventId,
      kind: 'direct',
      queueName: DIRECT_QUEUE,
      maxAttempts: 1,
      extractionMetadata: {},
      now: ctx.now,
    });
    if ((await insertSourceEventAndJob(tx, event, job)) === 0) throw new RetryAfterRace();
    // held `pending` like an extracted memory when the tenant's review-before-write setting matches it
    const reviewBeforeWrite = await reviewBeforeWriteOf(tx, auth.tenantId);
    const run = await storeLocked(tx, job, event, result, prepared, { origin: 'direct', actor: `api_key:${auth.apiKeyId}`, reviewBeforeWrite });
    const memoryId = run.stored[0];
    if (!memoryId) throw new Error(`direct write ${jobId} stored no memory`);
    const detail = await getMemoryDetail(tx, auth, memoryId);
    // a conflict review (`review_opened`) or a review before write (`created` to `pending`)
    const reviewOpened = run.changes.find((c) => c.memoryId === memoryId && (c.details as { review_id?: string } | undefined)?.review_id);
    const answer: CreatedEnvelope = {
      data: {
        ...detail,
        outcome: run.summary.memories_reinforced > 0 ? 'reinforced' : 'created',
        superseded_memory_ids: run.changes
          .filter((c) => c.action === 'superseded' && (c.details as { superseded_by?: string } | undefined)?.superseded_by === memoryId)
          .map((c) => c.memoryId),
        review_id: ((reviewOpened?.details as { review_id?: string } | undefined)?.review_id ?? null),
      },
      request_id: ctx.requestId,
      timestamp: ctx.now.toISOString(),
    };
    // replayed when the same source event is sent again
    await tx.update(sourceEvents).set({ addResponse: answer }).where(eq(sourceEvents.id, sourceEventId));
    if (ctx.idem) {
      await saveIdempotentResponse(tx, ctx.idem, {
        requestHash: ctx.requestHash,
        status: statusOf(answer),
        response: answer,
        now: ctx.now,
        ttlHours: deps.config.idempotencyTtlHours,
      });
    }
    return answer;
  });
  return { httpStatus: statusOf(envelope), body: envelope, replayed: false };
}
