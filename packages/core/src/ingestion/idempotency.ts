/**
 * Idempotency-Key with Stripe semantics (docs/api-choices.md), shared by the POST endpoints that accept one:
 * a key is scoped to (tenant, API key, method, path); the first response is saved in the same transaction as
 * the work it describes; the same key and body replay it; the same key with another body is 422.
 */
import { type Db, and, eq, gt, idempotencyKeys, sql } from '@memory/db';
import { Errors } from '../errors';

export interface IdempotencyScope {
  tenantId: string;
  apiKeyId: string;
  method: string;
  path: string;
  key: string;
}

/** What an idempotent endpoint answers; `replayed` is true when a saved response is returned again. */
export interface IdempotentOutcome<T> {
  httpStatus: number;
  body: T;
  replayed: boolean;
}

/** Thrown inside an attempt when a concurrent request claimed the same key (or event) first: read what it saved. */
export class RetryAfterRace extends Error {}

/** The live saved response of a key, or null. */
export async function findIdempotent(db: Db, k: IdempotencyScope, now: Date) {
  const [row] = await db
    .select()
    .from(idempotencyKeys)
    .where(
      and(
        eq(idempotencyKeys.tenantId, k.tenantId),
        eq(idempotencyKeys.apiKeyId, k.apiKeyId),
        eq(idempotencyKeys.method, k.method),
        eq(idempotencyKeys.path, k.path),
        eq(idempotencyKeys.key, k.key),
        gt(idempotencyKeys.expiresAt, now),
      ),
    )
    .limit(1);
  return row ?? null;
}

/**
 * Runs `attempt` at most three times: a saved response for the key is replayed (or 422 when the body differs);
 * an attempt that lost a race (RetryAfterRace) is retried, so it finds what the winner saved.
 */
export async function withIdempotency<T>(
  db: Db,
  scope: IdempotencyScope | null,
  requestHash: string,
  now: Date,
  attempt: () => Promise<IdempotentOutcome<T>>,
): Promise<IdempotentOutcome<T>> {
  for (let round = 0; round < 3; round++) {
    if (scope) {
      const saved = await findIdempotent(db, scope, now);
      if (saved) {
        if (saved.requestHash !== requestHash) throw Errors.idempotencyReused();
        return { httpStatus: saved.responseStatus, body: saved.responseBody as T, replayed: true };
      }
    }
    try {
      return await attempt();
    } catch (err) {
      if (err instanceof RetryAfterRace) continue;
      throw err;
    }
  }
  throw Errors.idempotencyInProgress();
}

/**
 * Saves the response under the key, in the caller's transaction. An expired row for the same key is replaced;
 * a live one means another request won the race (RetryAfterRace, so the transaction rolls back).
 */
export async function saveIdempotentResponse(
  tx: Db,
  scope: IdempotencyScope,
  saved: { requestHash: string; status: number; response: unknown; now: Date; ttlHours: number },
): Promise<void> {
  const expiresAt = new Date(saved.now.getTime() + saved.ttlHours * 3_600_000);
  const inserted = await tx
    .insert(idempotencyKeys)
    .values({ ...scope, requestHash: saved.requestHash, responseStatus: saved.status, responseBody: saved.response, expiresAt })
    .onConflictDoUpdate({
      target: [idempotencyKeys.tenantId, idempotencyKeys.apiKeyId, idempotencyKeys.method, idempotencyKeys.path, idempotencyKeys.key],
      set: { requestHash: saved.requestHash, responseStatus: saved.status, responseBody: saved.response, createdAt: saved.now, expiresAt },
      setWhere: sql`${idempotencyKeys.expiresAt} <= ${saved.now.toISOString()}::timestamptz`,
    })
    .returning({ key: idempotencyKeys.key });
  if (inserted.length === 0) throw new RetryAfterRace();
}
