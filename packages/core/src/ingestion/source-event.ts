/**
 * A source event and the queued job that reads it, written in one statement: by an add (add.ts) and by a
 * correction sent as retrieval feedback (feedback/record.ts). The rows are built from the tables' insert types
 * with every column named, so a column added to either table fails the type-check here until it has a value.
 */
import { type Db, type FullRow, type TenantJobKind, and, eq, extractionJobs, rows, sourceEvents, sql, toColumnNames } from '@memory/db';
import { Errors } from '../errors';

export type SourceEventRow = FullRow<typeof sourceEvents>;
export type ExtractionJobRow = FullRow<typeof extractionJobs>;

type SourceEventInsert = typeof sourceEvents.$inferInsert;

/** A new source event: the given columns, the rest as the table's defaults would set them. */
export function sourceEventRow(e: SourceEventInsert & { receivedAt: Date }): SourceEventRow {
  return {
    writerId: null,
    eventIdGenerated: 0,
    agentId: null,
    payload: null,
    payloadRedactedAt: null,
    scope: {},
    metadata: {},
    evidence: [],
    jobId: null,
    addResponse: null,
    sentiment: null,
    ...e,
  };
}

/** A queued job, due at `now`, that has not run yet. */
export function queuedJobRow(j: {
  id: string;
  tenantId: string;
  userId: string;
  sourceEventId: string;
  kind: TenantJobKind;
  queueName: string;
  maxAttempts: number;
  extractionMetadata: Record<string, unknown>;
  now: Date;
}): ExtractionJobRow {
  const { now, ...given } = j;
  return {
    ...given,
    status: 'queued',
    attempts: 0,
    runAfter: now,
    leaseUntil: null,
    lockedBy: null,
    memoriesCreated: 0,
    pendingCandidatesBuffered: 0,
    pendingCandidatesPromoted: 0,
    error: null,
    errorSummary: null,
    provider: null,
    tokenUsage: {},
    stepState: {},
    createdAt: now,
    updatedAt: now,
    startedAt: null,
    finishedAt: null,
  };
}

/**
 * Inserts the source event and, when there is one, its job in a single statement. The rows are given as
 * JSON with every column and mapped onto the tables' row types. Returns 0 when the event already exists
 * (a concurrent add with the same source event id won); the job is then not inserted either.
 */
export async function insertSourceEventAndJob(db: Db, event: SourceEventRow, job: ExtractionJobRow | null): Promise<number> {
  const eventJson = toColumnNames(sourceEvents, event);
  const jobJson = job && toColumnNames(extractionJobs, job);
  const [r] = await rows<{ events: number }>(
    db,
    sql`
    WITH se AS (
      INSERT INTO source_events
      SELECT * FROM jsonb_populate_record(NULL::source_events, ${JSON.stringify(eventJson)}::jsonb)
      ON CONFLICT DO NOTHING
      RETURNING id
    ), job AS (
      INSERT INTO extraction_jobs
      SELECT j.* FROM se, jsonb_populate_record(NULL::extraction_jobs, ${JSON.stringify(jobJson)}::jsonb) j
      WHERE ${jobJson !== null}
      RETURNING id
    )
    SELECT (SELECT count(*) FROM se)::int AS events, (SELECT count(*) FROM job)::int AS jobs`,
  );
  return r?.events ?? 0;
}

/**
 * The tenant's source event `(service, event id)` when it was sent before with this payload hash (its first
 * answer is replayed), null when it is new; the same id with another payload is 409 `PROV_409`.
 */
export async function priorSourceEvent(db: Db, tenantId: string, service: string, eventId: string, payloadHash: string) {
  const [existing] = await db
    .select()
    .from(sourceEvents)
    .where(and(eq(sourceEvents.tenantId, tenantId), eq(sourceEvents.service, service), eq(sourceEvents.eventId, eventId)))
    .limit(1);
  if (!existing) return null;
  if (existing.payloadHash !== payloadHash) {
    throw Errors.provConflict(`A source event "${eventId}" from service "${service}" already exists with a different payload.`);
  }
  return existing;
}
