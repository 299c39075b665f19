/**
 * POST /v1/universal/memories/add: an agent with a read-write grant sends a conversation of a passport user.
 * The same quality gate and secret redaction as the tenant add; an accepted conversation becomes one
 * `universal_jobs` row (redacted payload, the grant's categories, the idempotency key and the response to
 * replay). Nothing is written to tenant tables.
 */
import { randomUUID } from 'node:crypto';
import { type Db, and, eq, universalJobs } from '@memory/db';
import { MEMORY_CATEGORIES } from '../categories';
import type { AppConfig } from '../config';
import { canonicalJson, sha256Hex } from '../crypto';
import { Errors } from '../errors';
import { addResponseBase, redactJsonStrings } from '../ingestion/add';
import { runQualityGate } from '../ingestion/gate';
import type { IdempotentOutcome } from '../ingestion/idempotency';
import type { JobQueue } from '../jobs/queue';
import type { UniversalAgentAuth } from '../passport/auth';
import type { UniversalAddRequest, UniversalAddResponse } from '../schemas/universal';

export interface UniversalAddDeps {
  db: Db;
  config: AppConfig;
  queue: JobQueue;
}

/** The grant's categories that are memory categories, in the documented order. */
export const grantedCategories = (grant: { categories: string[] } | null): string[] =>
  grant ? MEMORY_CATEGORIES.filter((c) => grant.categories.includes(c)) : [];

/** SHA-256 of the canonical `{messages, metadata}` as received: the job's `payload_hash` and the idempotency check. */
export const universalPayloadHash = (body: Pick<UniversalAddRequest, 'messages' | 'metadata'>): string =>
  sha256Hex(canonicalJson({ messages: body.messages, metadata: body.metadata ?? null }));

export async function addUniversalMemories(
  deps: UniversalAddDeps,
  auth: UniversalAgentAuth,
  body: UniversalAddRequest,
  opts: { requestId: string; now?: Date },
): Promise<IdempotentOutcome<UniversalAddResponse>> {
  const { db } = deps;
  if (!auth.grant) throw Errors.uatNoGrant();
  if (auth.grant.accessType !== 'read_write') throw Errors.uatWriteNotPermitted();
  const now = opts.now ?? new Date();
  const hash = universalPayloadHash(body);
  const key = body.idempotency_key ?? null;
  if (key) {
    const saved = await replay(db, auth, key, hash);
    if (saved) return saved;
  }

  const categories = grantedCategories(auth.grant);
  const gate = runQualityGate(body.messages);
  const base: UniversalAddResponse = { ...addResponseBase(opts.requestId, now), categories };
  // Blocked and passthrough answers create no job, so nothing holds their key: the gate is deterministic,
  // so a retry gets the same status anyway (docs/passport-universal.md).
  if (gate.decision === 'block') return { httpStatus: 200, body: { ...base, status: gate.level, blocked_reason: gate.reason }, replayed: false };
  if (gate.decision === 'nothing_to_extract') {
    return { httpStatus: 200, body: { ...base, status: 'passthrough', nothing_to_extract: true }, replayed: false };
  }

  const jobId = randomUUID();
  const response: UniversalAddResponse = { ...base, job_id: jobId };
  const inserted = await db
    .insert(universalJobs)
    .values({
      id: jobId,
      passportUserId: auth.passportUserId,
      agentId: auth.agent.id,
      categories,
      payload: { messages: gate.messages, metadata: body.metadata ? redactJsonStrings(body.metadata) : null },
      payloadHash: hash,
      idempotencyKey: key,
      status: 'queued',
      maxAttempts: deps.config.jobs.maxAttempts,
      runAfter: now,
      extractionMetadata: gate.redactions > 0 ? { secrets_redacted: gate.redactions, secret_kinds: gate.redactedKinds } : {},
      response,
      observedAt: now,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: universalJobs.id });
  if (inserted.length === 0 && key) {
    // A concurrent request with the same key won the unique index: answer with what it saved.
    const saved = await replay(db, auth, key, hash);
    if (saved) return saved;
    throw Errors.idempotencyInProgress();
  }
  await deps.queue.enqueue({ kind: 'universal', jobId, passportUserId: auth.passportUserId });
  return { httpStatus: 200, body: response, replayed: false };
}

/** The saved response of an earlier add with this key (same content), 422 when the content differs. */
async function replay(
  db: Db,
  auth: UniversalAgentAuth,
  key: string,
  hash: string,
): Promise<IdempotentOutcome<UniversalAddResponse> | null> {
  const [earlier] = await db
    .select({ payloadHash: universalJobs.payloadHash, response: universalJobs.response })
    .from(universalJobs)
    .where(
      and(
        eq(universalJobs.passportUserId, auth.passportUserId),
        eq(universalJobs.agentId, auth.agent.id),
        eq(universalJobs.idempotencyKey, key),
      ),
    )
    .limit(1);
  if (!earlier) return null;
  if (earlier.payloadHash !== hash) throw Errors.idempotencyReused();
  return { httpStatus: 200, body: earlier.response as UniversalAddResponse, replayed: true };
}
