/**
 * POST /v1/memories/add. The quality gate decides first; accepted conversations become a source event
 * and a queued extraction job in one transaction together with the Idempotency-Key, so a crash can leave
 * neither a job without its key nor a key without its job. The queue is told after commit; if that
 * notification is lost the job row is still there: a runner (embedded or a worker process) claims it from the table,
 * and in Inngest mode the `memory-job-relay` cron sends its event again.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '@memory/db';
import { type PassageSource, storePassages } from '../evidence/store';
import type { ConversationMessage } from '../messages';
import type { AppConfig } from '../config';
import { canonicalJson, sha256Hex } from '../crypto';
import { EXTRACTION_QUEUE, type JobQueue } from '../jobs/queue';
import type { TenantAuth } from '../tenants/tenants';
import { bumpMemoryVersion, ensureUser, forgetUser } from '../users';
import { describeError } from '../logger';
import type { AddRequest, AddResponse } from '../schemas/memories';
import { resolveWriter } from '../provenance/writers';
import { type IdempotencyScope, type IdempotentOutcome, RetryAfterRace, saveIdempotentResponse, withIdempotency } from './idempotency';
import { runQualityGate } from './gate';
import { insertSourceEventAndJob, priorSourceEvent, queuedJobRow, sourceEventRow } from './source-event';
import { redactSecrets } from '../secrets';
import type { QuotaDeps } from '../quota/service';
import { consumeBudget, quotaFields, readQuotaState, announceModeChange } from '../quota/usage';
import { writeRules } from '../quota/rate-limit';
import { NORMAL } from '../quota/backlog';

export const ADD_PATH = '/v1/memories/add';
export const DEFAULT_SERVICE = 'default';

/** SQLSTATE 23503. */
const FOREIGN_KEY_VIOLATION = '23503';

export interface AddDeps {
  db: Db;
  config: AppConfig;
  queue: JobQueue;
  quota: QuotaDeps;
}

export type AddOutcome = IdempotentOutcome<AddResponse>;

/** The canonical payload whose SHA-256 is the source event's `payload_hash` (docs/provenance.md). */
export function payloadHash(body: Pick<AddRequest, 'external_user_id' | 'messages' | 'metadata'>): string {
  return sha256Hex(
    canonicalJson({
      external_user_id: body.external_user_id,
      messages: body.messages.map((m) => ({ role: m.role, content: m.content })),
      metadata: body.metadata ?? null,
    }),
  );
}

export async function addMemories(
  deps: AddDeps,
  auth: TenantAuth,
  body: AddRequest,
  opts: { idempotencyKey?: string; requestId: string; now?: Date },
): Promise<AddOutcome> {
  const { db } = deps;
  const now = opts.now ?? new Date();
  const requestHash = sha256Hex(canonicalJson(body));
  const idem: IdempotencyScope | null = opts.idempotencyKey
    ? { tenantId: auth.tenantId, apiKeyId: auth.apiKeyId, method: 'POST', path: ADD_PATH, key: opts.idempotencyKey }
    : null;
  // Another request that claimed the same Idempotency-Key or source event id first is read back and replayed.
  return withIdempotency(db, idem, requestHash, now, () => accept(deps, auth, body, { ...opts, now, requestHash, idem }));
}

async function accept(
  deps: AddDeps,
  auth: TenantAuth,
  body: AddRequest,
  ctx: { requestId: string; now: Date; requestHash: string; idem: IdempotencyScope | null },
): Promise<AddOutcome> {
  const { db, config } = deps;
  // Unknown writer: PROV_404; a writer bound to another key: PROV_403. Checked before the gate decides.
  const [writer, quota] = await Promise.all([
    body.source ? resolveWriter(db, auth, body.source.service) : null,
    readQuotaState(db, auth.tenantId, ctx.now, deps.quota.rateLimitDefaults),
  ]);
  await announceModeChange(db, quota);
  const gate = runQualityGate(body.messages);
  const base: AddResponse = { ...addResponseBase(ctx.requestId, ctx.now), ...quotaFields(quota) };
  const saveIdem = async (tx: Db, response: AddResponse) => {
    if (!ctx.idem) return;
    await saveIdempotentResponse(tx, ctx.idem, {
      requestHash: ctx.requestHash,
      status: 200,
      response,
      now: ctx.now,
      ttlHours: config.idempotencyTtlHours,
    });
  };

  if (gate.decision === 'block') {
    const response: AddResponse = { ...base, status: gate.level, blocked_reason: gate.reason };
    await saveIdem(db, response);
    return { httpStatus: 200, body: response, replayed: false };
  }

  const service = body.source?.service ?? DEFAULT_SERVICE;
  const eventId = body.source?.event_id ?? `evt_${randomUUID()}`;
  const hash = payloadHash(body);
  if (body.source) {
    const existing = await priorSourceEvent(db, auth.tenantId, service, eventId, hash);
    if (existing) {
      const original = existing.addResponse as AddResponse;
      await saveIdem(db, original);
      return { httpStatus: 200, body: original, replayed: true };
    }
  }

  // Usage controls (docs/quotas.md). These answers are not saved under the Idempotency-Key: a retry with the same
  // key after the window, a plan change or a new period is a new attempt.
  if (quota.mode === 'BLOCKED') {
    return { httpStatus: 200, body: { ...base, status: 'blocked', blocked_reason: 'quota_exhausted' }, replayed: false };
  }
  const rate = await deps.quota.limiter.hit(writeRules(auth.tenantId, body.external_user_id, quota.plan.rate_limits), ctx.now);
  if (!rate.allowed) {
    const response: AddResponse = { ...base, status: 'L1', blocked_reason: 'rate_limited', retry_after_seconds: rate.retryAfterSeconds };
    return { httpStatus: 200, body: response, replayed: false };
  }
  // PASSTHROUGH: the source event is kept (nothing lost) but no extraction is queued for it.
  const passthrough = quota.mode === 'PASSTHROUGH';
  const nothing = gate.decision === 'nothing_to_extract';
  const jobId = nothing || passthrough ? null : randomUUID();
  const [after, backlog] = await Promise.all([
    consumeBudget(db, quota, 'add_calls', ctx.now),
    jobId ? deps.quota.backlog.health(ctx.now) : NORMAL,
  ]);
  const counted: AddResponse = { ...base, ...quotaFields(after), ...backlog };
  const response: AddResponse = jobId
    ? { ...counted, job_id: jobId }
    : { ...counted, status: 'passthrough', nothing_to_extract: nothing };

  const sourceEventId = randomUUID();
  const metadata = body.metadata ? (redactJsonStrings(body.metadata) as Record<string, unknown>) : null;
  const observedAt = body.source?.observed_at ? new Date(body.source.observed_at) : ctx.now;
  const rowsFor = (userId: string) => ({
    event: sourceEventRow({
      id: sourceEventId,
      tenantId: auth.tenantId,
      userId,
      service,
      writerId: writer?.id ?? null,
      eventId,
      eventIdGenerated: body.source ? 0 : 1,
      agentId: body.agent_id ?? null,
      observedAt,
      receivedAt: ctx.now,
      payloadHash: hash,
      payload: { messages: gate.messages, metadata },
      metadata: metadata ?? {},
      scope: body.source?.scope ?? {},
      evidence: body.source?.evidence ?? [],
      jobId,
      addResponse: response,
    }),
    job: jobId
      ? queuedJobRow({
          id: jobId,
          tenantId: auth.tenantId,
          userId,
          sourceEventId,
          kind: 'extraction',
          queueName: EXTRACTION_QUEUE,
          maxAttempts: config.jobs.maxAttempts,
          extractionMetadata: gate.redactions > 0 ? { secrets_redacted: gate.redactions, secret_kinds: gate.redactedKinds } : {},
          now: ctx.now,
        })
      : null,
  });

  let userId: string;
  if (!ctx.idem) {
    // Common path, one round trip: the event and its job in one statement (atomic on its own).
    const insertFor = async (uid: string) => {
      const { event, job } = rowsFor(uid);
      return insertSourceEventAndJob(db, event, job).catch((err: unknown) => {
        if (describeError(err).err_code !== FOREIGN_KEY_VIOLATION) throw err;
        return null;
      });
    };
    userId = await ensureUser(db, auth.tenantId, body.external_user_id, { cache: true });
    let inserted = await insertFor(userId);
    if (inserted === null) {
      // The cached user was erased (possibly by another process): forget it and insert again for a new row.
      // Here, not by running the whole add again: this add is already counted against the rate limit and budget.
      forgetUser(auth.tenantId, body.external_user_id);
      userId = await ensureUser(db, auth.tenantId, body.external_user_id, { cache: true });
      inserted = await insertFor(userId);
    }
    if (!inserted) throw new RetryAfterRace();
  } else {
    userId = await db.transaction(async (tx) => {
      const uid = await ensureUser(tx, auth.tenantId, body.external_user_id);
      const { event, job } = rowsFor(uid);
      if ((await insertSourceEventAndJob(tx, event, job)) === 0) throw new RetryAfterRace();
      await saveIdem(tx, response);
      return uid;
    });
  }

  if (jobId) {
    await deps.queue.enqueue({ jobId, tenantId: auth.tenantId, userId, kind: 'extraction' });
  } else if (nothing && !passthrough) {
    // Nothing durable about the user, but what was said (a question and the assistant's answer) is evidence.
    await indexWithoutJob(db, { tenantId: auth.tenantId, userId, sourceEventId, jobId: null, agentId: body.agent_id ?? null, observedAt }, gate.messages);
  }
  return { httpStatus: 200, body: response, replayed: false };
}

/** The passages of an event that has no job, and the user's version bump so retrieval sees them. */
async function indexWithoutJob(db: Db, source: PassageSource, messages: readonly ConversationMessage[]): Promise<void> {
  await db.transaction(async (tx) => {
    const stored = await storePassages(tx, source, messages);
    if (stored > 0) await bumpMemoryVersion(tx, [source.userId]);
  });
}

/** An add answer before anything is decided: queued, nothing blocked, no budget (the unlimited plan), normal backlog. */
export const addResponseBase = (requestId: string, now: Date): AddResponse => ({
  job_id: null,
  status: 'queued',
  blocked_reason: null,
  nothing_to_extract: false,
  retry_after_seconds: null,
  budget_remaining_pct: null,
  quota_mode: 'FULL',
  processing_eta_seconds: null,
  processing_status: 'normal',
  request_id: requestId,
  timestamp: now.toISOString(),
});

/** Secrets can hide in metadata too: every string value in it is redacted before it is stored. */
export function redactJsonStrings(value: unknown): unknown {
  if (typeof value === 'string') return redactSecrets(value).text;
  if (Array.isArray(value)) return value.map(redactJsonStrings);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactJsonStrings(v)]));
  }
  return value;
}
