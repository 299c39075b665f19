/** Listing, deleting and exporting one user's memories (docs/api-choices.md gives the paths). */
import { type Db, and, claimRevisions, eq, extractionJobs, memories, retrievalFeedback, rows, sourceEvents, sql } from '@memory/db';
import type { MemoryStatus, SQL } from '@memory/db';
import { Errors } from '../errors';
import { decodeCursor, keysetPage } from '../pagination';
import { toJobView } from './job-view';
import type { MemoryRecord } from '../schemas/memories';
import type { MetadataFilter } from '../schemas/metadata-filter';
import { metadataMatches } from './metadata-filter';
import type { Principal } from '../tenants/tenants';
import { findUser } from '../users';
import { ledgerRow } from './ledger';
import { MemoryWriter } from './writer';
import { MEMORY_WITH_SOURCE_COLUMNS, type MemoryWithSourceRow, iso, toClaimRevisionView, toMemoryRecord } from './serialize';

export interface ListOptions {
  externalUserId: string;
  limit: number;
  cursor?: string;
  status: MemoryStatus | 'all';
  category?: string;
  /** Only memories whose source event's `metadata` holds every key with its value (docs/direct-operations.md). */
  metadataFilter?: MetadataFilter;
}

/** Newest first, keyset-paged on (created_at, id) so pages stay stable while memories are added. */
export async function listMemories(db: Db, auth: Principal, o: ListOptions) {
  const user = await findUser(db, auth.tenantId, o.externalUserId);
  if (!user) return { items: [] as MemoryRecord[], limit: o.limit, next_cursor: null as string | null };
  const where: SQL[] = [sql`m.tenant_id = ${auth.tenantId}`, sql`m.user_id = ${user.id}`];
  if (o.status !== 'all') where.push(sql`m.status = ${o.status}`);
  if (o.category) where.push(sql`m.category = ${o.category}`);
  if (o.metadataFilter) where.push(metadataMatches(o.metadataFilter));
  if (o.cursor) {
    const c = decodeCursor(o.cursor);
    where.push(sql`(m.created_at, m.id) < (${c.ts}::timestamptz, ${c.id}::uuid)`);
  }
  // The cursor keeps created_at as PostgreSQL text: microseconds survive (a JS Date would drop them).
  const found = await rows<MemoryWithSourceRow & { cursor_ts: string }>(
    db,
    sql`SELECT ${sql.raw(MEMORY_WITH_SOURCE_COLUMNS)}, m.created_at::text AS cursor_ts
        FROM memories m LEFT JOIN source_events se ON se.id = m.source_event_id
        WHERE ${sql.join(where, sql` AND `)}
        ORDER BY m.created_at DESC, m.id DESC
        LIMIT ${o.limit + 1}`,
  );
  const { page, next_cursor } = keysetPage(found, o.limit);
  return { items: page.map((r) => toMemoryRecord(r, o.externalUserId)), limit: o.limit, next_cursor };
}

/** The tenant's memory, locked for a change in the caller's transaction; another tenant's id is 404 like an unknown one. */
export async function lockMemory(tx: Db, auth: Principal, memoryId: string) {
  const [m] = await tx
    .select()
    .from(memories)
    .where(and(eq(memories.tenantId, auth.tenantId), eq(memories.id, memoryId)))
    .for('update');
  if (!m) throw Errors.notFound(`Memory ${memoryId}`);
  return m;
}

/** One memory of the tenant with its provenance and its user's external id (the console's memory page). */
export async function findMemoryRecord(db: Db, auth: Principal, memoryId: string): Promise<MemoryRecord> {
  const [row] = await rows<MemoryWithSourceRow & { external_user_id: string }>(
    db,
    sql`SELECT ${sql.raw(MEMORY_WITH_SOURCE_COLUMNS)}, u.external_user_id
        FROM memories m JOIN end_users u ON u.id = m.user_id LEFT JOIN source_events se ON se.id = m.source_event_id
        WHERE m.tenant_id = ${auth.tenantId} AND m.id = ${memoryId}`,
  );
  if (!row) throw Errors.notFound(`Memory ${memoryId}`);
  return toMemoryRecord(row, row.external_user_id);
}

/**
 * Deleting archives the memory: it leaves retrieval at once and its history stays in the ledger.
 * Deleting an already archived memory answers the same (DELETE is idempotent). `reason` is the ledger's
 * (the console says it was archived there).
 */
export async function deleteMemory(db: Db, auth: Principal, memoryId: string, actor: string, reason = 'deleted through the API') {
  return db.transaction(async (tx) => {
    const m = await lockMemory(tx, auth, memoryId);
    if (m.status !== 'archived') {
      await tx.update(memories).set({ status: 'archived', updatedAt: sql`now()` }).where(eq(memories.id, m.id));
      const writer = new MemoryWriter(tx, auth.tenantId);
      writer.record(ledgerRow(m, { action: 'deleted', from: m.status, to: 'archived', reason, actor }));
      await writer.commit();
    }
    return { id: m.id, status: 'archived' as const, deleted: true };
  });
}

export const EXPORT_FORMAT_VERSION = 1;

/** The complete export bundle for one end user (GDPR Art. 20), documented in docs/export.md. */
export async function exportUser(db: Db, auth: Principal, externalUserId: string, now = new Date()) {
  const user = await findUser(db, auth.tenantId, externalUserId);
  if (!user) throw Errors.notFound(`User "${externalUserId}"`);
  const memoryRows = await rows<MemoryWithSourceRow>(
    db,
    sql`SELECT ${sql.raw(MEMORY_WITH_SOURCE_COLUMNS)}
        FROM memories m LEFT JOIN source_events se ON se.id = m.source_event_id
        WHERE m.tenant_id = ${auth.tenantId} AND m.user_id = ${user.id}
        ORDER BY m.created_at, m.id`,
  );
  const ledger = await db
    .select()
    .from(claimRevisions)
    .where(and(eq(claimRevisions.tenantId, auth.tenantId), eq(claimRevisions.userId, user.id)))
    .orderBy(claimRevisions.createdAt, claimRevisions.id);
  const events = await db
    .select()
    .from(sourceEvents)
    .where(and(eq(sourceEvents.tenantId, auth.tenantId), eq(sourceEvents.userId, user.id)))
    .orderBy(sourceEvents.receivedAt, sourceEvents.id);
  const jobs = await db
    .select()
    .from(extractionJobs)
    .where(and(eq(extractionJobs.tenantId, auth.tenantId), eq(extractionJobs.userId, user.id)))
    .orderBy(extractionJobs.createdAt, extractionJobs.id);
  const feedback = await db
    .select()
    .from(retrievalFeedback)
    .where(and(eq(retrievalFeedback.tenantId, auth.tenantId), eq(retrievalFeedback.userId, user.id)))
    .orderBy(retrievalFeedback.createdAt, retrievalFeedback.id);
  return {
    format_version: EXPORT_FORMAT_VERSION,
    exported_at: now.toISOString(),
    external_user_id: externalUserId,
    memories: memoryRows.map((r) => toMemoryRecord(r, externalUserId)),
    claim_revisions: ledger.map(toClaimRevisionView),
    source_events: events.map((e) => ({
      id: e.id,
      service: e.service,
      event_id: e.eventId,
      event_id_generated: e.eventIdGenerated === 1,
      agent_id: e.agentId,
      observed_at: e.observedAt.toISOString(),
      received_at: e.receivedAt.toISOString(),
      payload_hash: e.payloadHash,
      payload: e.payload,
      payload_redacted_at: iso(e.payloadRedactedAt),
      scope: e.scope,
      metadata: e.metadata,
      evidence: e.evidence,
      job_id: e.jobId,
    })),
    extraction_jobs: jobs.map((j) => toJobView(j, externalUserId)),
    retrieval_feedback: feedback.map((f) => ({
      id: f.id,
      retrieval_id: f.retrievalId,
      outcome: f.outcome,
      used_memory_ids: f.usedMemoryIds,
      correction: f.correction,
      agent_confidence: f.agentConfidence,
      metadata: f.metadata,
      correction_job_id: f.correctionJobId,
      created_at: f.createdAt.toISOString(),
    })),
  };
}
