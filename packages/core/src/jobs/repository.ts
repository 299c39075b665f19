/**
 * The job table is the source of truth for job state, in both execution modes.
 * Status moves: queued -> running -> completed | processed; running -> queued (retry after backoff,
 * `error` holds the last failure) -> ... -> dead when attempts are used up; failed when the job can never
 * succeed (its input is gone). A running job whose lease expired is claimable again (crashed worker).
 */
import { type Db, PLAN_EACH_TIME, type SQL, endUsers, extractionJobs, rows, sql } from '@memory/db';
import { and, eq } from '@memory/db';
import { type TokenUsage, addTokenUsage } from '../llm/openai-compatible';
import { describeError } from '../logger';
import { jobEvent, recordMemoryWebhookEvents } from '../webhooks/memory-events';
import type { ExtractionJobView } from '../schemas/memories';
import { type JobRow, toJobView } from '../memories/job-view';
import type { QueuedJob } from './queue';

export type { JobRow };

export async function getJobView(db: Db, tenantId: string, jobId: string): Promise<ExtractionJobView | null> {
  const [row] = await db
    .select({ job: extractionJobs, externalUserId: endUsers.externalUserId })
    .from(extractionJobs)
    .innerJoin(endUsers, eq(endUsers.id, extractionJobs.userId))
    .where(and(eq(extractionJobs.tenantId, tenantId), eq(extractionJobs.id, jobId)))
    .limit(1);
  return row ? toJobView(row.job, row.externalUserId) : null;
}

/** The tokens a job's earlier, failed attempts spent (`{}` in the row reads as zero). */
export async function jobTokenUsage(db: Db, jobId: string): Promise<TokenUsage> {
  const [row] = await db.select({ tokenUsage: extractionJobs.tokenUsage }).from(extractionJobs).where(eq(extractionJobs.id, jobId));
  return addTokenUsage(row?.tokenUsage as Partial<TokenUsage> | undefined, null);
}

/** Records the tokens a failed extraction attempt spent, so `token_usage` counts every call the job paid for. */
export async function addJobTokenUsage(db: Db, jobId: string, usage: TokenUsage): Promise<void> {
  const total = addTokenUsage(await jobTokenUsage(db, jobId), usage);
  await db.update(extractionJobs).set({ tokenUsage: total, updatedAt: sql`now()` }).where(eq(extractionJobs.id, jobId));
}

interface ClaimOptions {
  workerId: string;
  leaseSeconds: number;
  /** Only claim this job (used when a queued job is handed to a specific worker, e.g. tests). */
  jobId?: string;
}

/**
 * The two job tables share their states, lease, attempts and step columns: `extraction_jobs` (a tenant's end
 * user; extraction and correction) and `universal_jobs` (a passport user, universal/jobs.ts). What differs is
 * whose jobs must not run at the same time, and that only extraction jobs record `started_at`.
 */
export type JobTable = 'extraction_jobs' | 'universal_jobs';

const JOB_TABLES: Record<JobTable, { sameUser: SQL; claimed: SQL }> = {
  extraction_jobs: {
    sameUser: sql`r.tenant_id = j.tenant_id AND r.user_id = j.user_id`,
    claimed: sql`, started_at = coalesce(started_at, now())`,
  },
  universal_jobs: { sameUser: sql`r.passport_user_id = j.passport_user_id`, claimed: sql`` },
};

/**
 * Claims one runnable job of a table: queued and due, or running with an expired lease. At most one job per
 * user runs at a time, so one user's memories are never written by two jobs at once. SKIP LOCKED lets several
 * processes claim from one PostgreSQL table without blocking each other. Returns the claimed id.
 *
 * Each of the two kinds of runnable job is looked for on its own, in the order of the claim index (status,
 * run_after, created_at), so finding the next one reads the few rows before it rather than sorting the whole
 * backlog; whether the user already has a job running is a probe of the partial index of running jobs. The
 * statement is planned each time (`PLAN_EACH_TIME`): the queue grows by thousands of rows between two analyses.
 */
export async function claimJobId(db: Db, table: JobTable, opts: ClaimOptions): Promise<string | null> {
  const only = opts.jobId ? sql`AND j.id = ${opts.jobId}` : sql``;
  const t = sql.identifier(table);
  // each kind in a subquery of its own: PostgreSQL takes no row locks in a branch of a UNION
  const runnable = (state: SQL, alias: string) => sql`SELECT * FROM (
      SELECT j.id, j.run_after, j.created_at FROM ${t} j
      WHERE ${state} ${only}
        AND NOT EXISTS (
          SELECT 1 FROM ${t} r
          WHERE r.status = 'running' AND ${JOB_TABLES[table].sameUser} AND r.id <> j.id AND r.lease_until >= now())
      ORDER BY j.status, j.run_after, j.created_at
      LIMIT 1
      FOR UPDATE SKIP LOCKED) ${sql.identifier(alias)}`;
  const claimed = await rows<{ id: string }>(
    db,
    sql`${sql.raw(PLAN_EACH_TIME)}
    UPDATE ${t} SET
      status = 'running',
      attempts = attempts + 1,
      lease_until = now() + make_interval(secs => ${opts.leaseSeconds}),
      locked_by = ${opts.workerId},
      updated_at = now()
      ${JOB_TABLES[table].claimed}
    WHERE id = (
      SELECT c.id FROM (
        ${runnable(sql`j.status = 'queued' AND j.run_after <= now()`, 'due')}
        UNION ALL
        ${runnable(sql`j.status = 'running' AND j.lease_until < now()`, 'expired')}
      ) c
      ORDER BY c.run_after, c.created_at
      LIMIT 1
    )
    RETURNING id`,
  );
  return claimed[0]?.id ?? null;
}

/** Claims one runnable extraction or correction job (see claimJobId). */
export async function claimNextJob(db: Db, opts: ClaimOptions): Promise<JobRow | null> {
  const id = await claimJobId(db, 'extraction_jobs', opts);
  if (!id) return null;
  const [job] = await db.select().from(extractionJobs).where(eq(extractionJobs.id, id));
  return job ?? null;
}

export async function saveStepResult(db: Db, jobId: string, stepId: string, value: unknown, table: JobTable = 'extraction_jobs'): Promise<void> {
  await db.execute(
    sql`UPDATE ${sql.identifier(table)}
        SET step_state = step_state || jsonb_build_object(${stepId}::text, ${JSON.stringify(value ?? null)}::jsonb), updated_at = now()
        WHERE id = ${jobId}`,
  );
}

/**
 * Keeps a running job's lease while its worker is alive (the embedded runner's heartbeat). With `lockedBy`, only
 * while that worker still holds the job: false when the lease was lost (it expired and another worker claimed
 * the job, or the job ended), so a stalled worker cannot extend a lease that is no longer its own.
 */
export async function extendLease(
  db: Db,
  jobId: string,
  leaseSeconds: number,
  table: JobTable = 'extraction_jobs',
  lockedBy?: string,
): Promise<boolean> {
  const owner = lockedBy === undefined ? sql`` : sql`AND status = 'running' AND locked_by = ${lockedBy}`;
  const extended = await rows<{ id: string }>(
    db,
    sql`UPDATE ${sql.identifier(table)} SET lease_until = now() + make_interval(secs => ${leaseSeconds})
        WHERE id = ${jobId} ${owner} RETURNING id`,
  );
  return extended.length > 0;
}

/**
 * Makes the running jobs of a table claimable at once, for the embedded database at start-up: its data-directory
 * lock means no other process can hold a lease, so a job still `running` was left by a process that died (kill -9,
 * power loss) and need not wait out its lease. Jobs run by Inngest (`locked_by = 'inngest'`) keep theirs.
 */
export async function releaseOrphanedLeases(db: Db, table: JobTable): Promise<number> {
  const released = await rows<{ id: string }>(
    db,
    sql`UPDATE ${sql.identifier(table)} SET lease_until = now() - interval '1 second'
        WHERE status = 'running' AND locked_by IS DISTINCT FROM 'inngest' RETURNING id`,
  );
  return released.length;
}

/** Exponential backoff with full jitter: base * 2^(attempt-1), capped at 10 minutes. */
export function retryDelayMs(attempt: number, baseMs: number, random = Math.random): number {
  const ceiling = Math.min(baseMs * 2 ** Math.max(0, attempt - 1), 600_000);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** Short, content-free description of an error for `error_summary`. */
export function summariseError(err: unknown): string {
  const d = describeError(err);
  return (d.err_name ? `${d.err_name}: ${d.err}` : d.err).slice(0, 500);
}

export interface FailureOutcome {
  /** `lease_lost`: the job was no longer this worker's (`lockedBy`); nothing was recorded. */
  status: 'queued' | 'dead' | 'failed' | 'lease_lost';
  runAfter: Date | null;
}

/**
 * Records a failed attempt. Retryable failures go back to `queued` after a backoff until the attempts
 * are used up; then the job is `dead`. Permanent failures are `failed` at once.
 */
export async function recordFailure(
  db: Db,
  job: { id: string; attempts: number; maxAttempts: number },
  err: unknown,
  opts: { backoffBaseMs: number; permanent?: boolean; table?: JobTable; lockedBy?: string },
): Promise<FailureOutcome> {
  const summary = summariseError(err);
  const exhausted = job.attempts >= job.maxAttempts;
  const status: FailureOutcome['status'] = opts.permanent ? 'failed' : exhausted ? 'dead' : 'queued';
  const runAfter = status === 'queued' ? new Date(Date.now() + retryDelayMs(job.attempts, opts.backoffBaseMs)) : null;
  const errorSummary =
    status === 'queued'
      ? null
      : status === 'dead'
        ? `gave up after ${job.attempts} attempts; last error: ${summary}`
        : `cannot be processed: ${summary}`;
  const table = opts.table ?? 'extraction_jobs';
  // a worker whose lease expired while it ran must not overwrite the attempt of the worker that took over
  const owner = opts.lockedBy === undefined ? sql`` : sql`AND locked_by = ${opts.lockedBy}`;
  const recorded = await endJobWithEvent(
    db,
    table,
    sql`UPDATE ${sql.identifier(table)} SET
          status = ${status}, error = ${summary}, error_summary = ${errorSummary},
          run_after = coalesce(${runAfter?.toISOString() ?? null}::timestamptz, run_after),
          lease_until = NULL, locked_by = NULL, updated_at = now(),
          finished_at = ${status === 'queued' ? sql`NULL` : sql`now()`},
          step_state = ${status === 'queued' ? sql`step_state` : sql`'{}'::jsonb`}
        WHERE id = ${job.id} AND status = 'running' ${owner}`,
  );
  if (!recorded && opts.lockedBy !== undefined) return { status: 'lease_lost', runAfter: null };
  return { status, runAfter };
}

/** Marks a job dead from outside a run (Inngest's onFailure after its own retries). */
export async function markDead(db: Db, jobId: string, err: unknown, table: JobTable = 'extraction_jobs'): Promise<void> {
  const summary = summariseError(err);
  await endJobWithEvent(
    db,
    table,
    sql`UPDATE ${sql.identifier(table)} SET
          status = 'dead', error = ${summary}, error_summary = ${`gave up after the last retry; last error: ${summary}`},
          lease_until = NULL, updated_at = now(), finished_at = now(), step_state = '{}'::jsonb
        WHERE id = ${jobId} AND status IN ('queued', 'running')`,
  );
}

/**
 * Runs a job row update and, when it ended a tenant job for good (failed or dead), records the `job.failed`
 * webhook event in the same transaction. Universal jobs belong to passport users, not tenants: no event.
 * Whether a row was updated.
 */
async function endJobWithEvent(db: Db, table: JobTable, update: SQL): Promise<boolean> {
  if (table !== 'extraction_jobs') {
    return (await rows<{ id: string }>(db, sql`${update} RETURNING id`)).length > 0;
  }
  return db.transaction(async (tx) => {
    const [ended] = await rows<{
      id: string;
      tenant_id: string;
      user_id: string;
      kind: string;
      source_event_id: string;
      attempts: number;
      status: string;
      error_summary: string | null;
    }>(tx, sql`${update} RETURNING id, tenant_id, user_id, kind, source_event_id, attempts, status, error_summary`);
    if (!ended) return false;
    if (ended.status !== 'failed' && ended.status !== 'dead') return true;
    const job = { id: ended.id, kind: ended.kind, userId: ended.user_id, sourceEventId: ended.source_event_id, attempts: ended.attempts };
    await recordMemoryWebhookEvents(tx, ended.tenant_id, [], (ids) => [
      jobEvent(job, { status: ended.status, error_summary: ended.error_summary }, ids),
    ], [ended.user_id]);
    return true;
  });
}

/** Jobs waiting or running, for backlog health. */
export async function countBacklog(db: Db): Promise<number> {
  const [r] = await rows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM extraction_jobs WHERE status IN ('queued', 'running')`,
  );
  return r?.n ?? 0;
}

/**
 * Inngest mode: called at the start of every step. A job that is not running yet (first attempt, or
 * waiting after a failed attempt) becomes running and counts one more attempt.
 */
export async function beginInngestStep(db: Db, jobId: string, leaseSeconds: number, table: JobTable = 'extraction_jobs'): Promise<void> {
  await db.execute(
    sql`UPDATE ${sql.identifier(table)} SET
          attempts = attempts + CASE WHEN status = 'running' THEN 0 ELSE 1 END,
          status = 'running', lease_until = now() + make_interval(secs => ${leaseSeconds}), locked_by = 'inngest',
          updated_at = now() ${JOB_TABLES[table].claimed}
        WHERE id = ${jobId} AND status IN ('queued', 'running')`,
  );
}

/** Inngest mode: a step failed; Inngest will retry it, so the job waits as `queued` with the error. */
export async function recordAttemptFailure(db: Db, jobId: string, err: unknown, table: JobTable = 'extraction_jobs'): Promise<void> {
  await db.execute(
    sql`UPDATE ${sql.identifier(table)} SET status = 'queued', error = ${summariseError(err)}, lease_until = NULL, locked_by = NULL,
          updated_at = now()
        WHERE id = ${jobId} AND status = 'running'`,
  );
}

/** The columns a finished run sets on its job row, whichever table: no error, lease released, finished now. */
export const finishedJobColumns = () => ({
  // a checkpoint of a finished job is never read again, and it may hold the extracted text (jobs/steps.ts)
  stepState: {},
  error: null,
  errorSummary: null,
  leaseUntil: null,
  lockedBy: null,
  updatedAt: sql`now()`,
  finishedAt: sql`now()`,
});

/** Completes a job inside the transaction that stored its results: status, count, metadata, lease released. */
export async function completeJob(
  tx: Db,
  jobId: string,
  outcome: {
    status: 'completed' | 'processed';
    memoriesCreated: number;
    extractionMetadata: Record<string, unknown>;
    pendingCandidatesBuffered?: number;
    pendingCandidatesPromoted?: number;
    provider?: string;
    tokenUsage?: unknown;
  },
): Promise<void> {
  await tx
    .update(extractionJobs)
    .set({ ...outcome, ...finishedJobColumns() })
    .where(eq(extractionJobs.id, jobId));
}

/**
 * Jobs still `queued` more than `olderThanSeconds` after they came due, oldest first, from both job tables: in
 * Inngest mode, the jobs whose event may never have reached Inngest (the send failed after the add committed).
 * The job relay sends their events again (packages/jobs/src/relay.ts).
 */
export async function stuckQueuedJobs(db: Db, olderThanSeconds: number, limit: number): Promise<QueuedJob[]> {
  const tenantJobs = await rows<{ id: string; tenant_id: string; user_id: string; kind: string }>(
    db,
    sql`SELECT id, tenant_id, user_id, kind FROM extraction_jobs
        WHERE status = 'queued' AND run_after <= now() - make_interval(secs => ${olderThanSeconds})
        ORDER BY run_after LIMIT ${limit}`,
  );
  const universal = await rows<{ id: string; passport_user_id: string }>(
    db,
    sql`SELECT id, passport_user_id FROM universal_jobs
        WHERE status = 'queued' AND run_after <= now() - make_interval(secs => ${olderThanSeconds})
        ORDER BY run_after LIMIT ${limit}`,
  );
  return [
    ...tenantJobs.map((j) => ({ jobId: j.id, tenantId: j.tenant_id, userId: j.user_id, kind: j.kind === 'correction' ? ('correction' as const) : ('extraction' as const) })),
    ...universal.map((j) => ({ kind: 'universal' as const, jobId: j.id, passportUserId: j.passport_user_id })),
  ];
}
