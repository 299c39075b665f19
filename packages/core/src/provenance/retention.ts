/**
 * Payload retention: raw source payloads are redacted once they are older than the tenant's
 * `payload_retention_days` (null keeps them forever). Redaction sets `payload = NULL` and
 * `payload_redacted_at`; the payload hash, the rest of the source event, the memories, the ledger and the
 * jobs are left as they are, so provenance still proves what was received. The event's passages (the evidence
 * layer, docs/evidence-layer.md: what was said, word for word) leave the index in the same statement, and
 * their users' memory version moves so no process keeps serving them from its hot tier.
 *
 * The scheduled run (packages/jobs/src/retention.ts) calls `redactExpiredPayloads` hourly under Inngest and
 * from the embedded scheduler otherwise.
 */
import { type Db, rows, sql } from '@memory/db';

export const RETENTION_BATCH_SIZE = 1000;
/**
 * PostgreSQL advisory lock key of the retention run (the migration lock is 727274). Processes that share
 * a database take it per batch, so only one of them redacts at a time.
 */
export const RETENTION_LOCK_KEY = 727275;

export interface RedactOptions {
  /** Source events per statement (default 1000). Each batch is its own short statement/transaction. */
  batchSize?: number;
  /**
   * When set, each batch runs in a transaction that first takes `pg_try_advisory_xact_lock(lockKey)`.
   * If another process holds it, this run stops (`busy: true`): that process is redacting already.
   */
  lockKey?: number;
}

export interface RedactResult {
  /** Source events whose payload this run redacted. */
  redacted: number;
  /** True when the run stopped because another process held the retention lock. */
  busy: boolean;
}

/**
 * Redacts every payload older than its tenant's retention window, `batchSize` rows per statement, until
 * none is left. Never one long transaction: PGlite is a single connection and PostgreSQL row locks are held
 * only for one batch. `SKIP LOCKED` leaves rows another transaction is writing for the next run.
 *
 * The queued-job exception: a payload past the window whose extraction job is still `queued` or `running`
 * is kept until the job finishes (completed, processed, failed or dead), and redacted by the first run after
 * that. The job reads the payload when it runs; redacting it first would make the job fail permanently
 * ("the source payload was redacted before extraction ran") and the conversation would never yield its
 * memories. A job between retries is `queued`, so it is covered too.
 */
export async function redactExpiredPayloads(db: Db, now: Date, opts: RedactOptions = {}): Promise<RedactResult> {
  const batchSize = Math.max(1, Math.floor(opts.batchSize ?? RETENTION_BATCH_SIZE));
  const at = now.toISOString();
  let redacted = 0;
  for (;;) {
    const n = opts.lockKey === undefined ? await redactBatch(db, at, batchSize) : await lockedBatch(db, at, batchSize, opts.lockKey);
    if (n === null) return { redacted, busy: true };
    redacted += n;
    if (n < batchSize) return { redacted, busy: false };
  }
}

async function lockedBatch(db: Db, at: string, batchSize: number, lockKey: number): Promise<number | null> {
  return db.transaction(async (tx) => {
    const [lock] = await rows<{ locked: boolean }>(tx, sql`SELECT pg_try_advisory_xact_lock(${lockKey}) AS locked`);
    if (!lock?.locked) return null;
    return redactBatch(tx, at, batchSize);
  });
}

async function redactBatch(db: Db, at: string, batchSize: number): Promise<number> {
  const done = await rows<{ id: string }>(
    db,
    sql`WITH batch AS (
          SELECT se.id
            FROM source_events se
            JOIN tenants t ON t.id = se.tenant_id
           WHERE se.payload IS NOT NULL
             AND t.payload_retention_days IS NOT NULL
             AND se.received_at < ${at}::timestamptz - make_interval(days => t.payload_retention_days)
             AND NOT EXISTS (
                   SELECT 1 FROM extraction_jobs j
                    WHERE (j.id = se.job_id OR j.source_event_id = se.id)
                      AND j.status IN ('queued', 'running'))
           LIMIT ${batchSize}
             FOR UPDATE OF se SKIP LOCKED)
        , redacted AS (
        UPDATE source_events s
           SET payload = NULL, payload_redacted_at = ${at}::timestamptz
          FROM batch
         WHERE s.id = batch.id
        RETURNING s.id, s.user_id)
        , dropped AS (
        DELETE FROM passages p USING redacted r WHERE p.source_event_id = r.id RETURNING p.user_id)
        , bumped AS (
        UPDATE end_users u SET memory_version = u.memory_version + 1
         WHERE u.id IN (SELECT user_id FROM dropped))
        SELECT id FROM redacted`,
  );
  return done.length;
}
