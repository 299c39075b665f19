import type { ClaimRevision } from '@memory/db';
import type { MemoryRecord } from '../schemas/memories';

/** Provenance columns of a row joined with its source event (`se`), as both engines return them. */
export interface SourceEventColumns {
  se_service: string | null;
  se_event_id: string | null;
  se_observed_at: Date | string | null;
  se_received_at: Date | string | null;
  se_payload_hash: string | null;
  se_scope: unknown;
  se_writer_id: string | null;
}

/** The SELECT list that produces SourceEventColumns from `source_events se`. */
export const SOURCE_EVENT_COLUMNS = `
  se.service AS se_service, se.event_id AS se_event_id, se.observed_at AS se_observed_at,
  se.received_at AS se_received_at, se.payload_hash AS se_payload_hash, se.scope AS se_scope,
  se.writer_id AS se_writer_id`;

/** Columns of a memory joined with its source event, as both engines return them. */
export interface MemoryWithSourceRow extends SourceEventColumns {
  id: string;
  content: string;
  category: string;
  status: string;
  importance: number;
  confidence: number;
  agent_id: string | null;
  access_count: number;
  last_accessed: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
  source_event_id: string | null;
  message_indices: unknown;
  job_id: string | null;
  se_evidence: unknown;
}

import { iso } from '../timestamps';

export { iso };

/**
 * Provenance as the spec describes it; every field only when known, so legacy rows with partial
 * provenance still serialise. Memories and the evidence layer's passages share it.
 */
export function sourceProvenance(
  row: SourceEventColumns & { se_evidence?: unknown },
  messageIndices: unknown,
  jobId: string | null,
): Record<string, unknown> | null {
  const p: Record<string, unknown> = {};
  if (row.se_service) p.service = row.se_service;
  if (row.se_event_id) p.event_id = row.se_event_id;
  if (row.se_observed_at) p.observed_at = iso(row.se_observed_at);
  if (row.se_received_at) p.received_at = iso(row.se_received_at);
  if (row.se_payload_hash) p.payload_hash = row.se_payload_hash;
  if (row.se_scope && typeof row.se_scope === 'object') p.scope = row.se_scope;
  if (row.se_writer_id) p.writer_id = row.se_writer_id;
  if (Array.isArray(row.se_evidence) && row.se_evidence.length > 0) p.evidence = row.se_evidence;
  if (Array.isArray(messageIndices)) p.message_indices = messageIndices;
  if (jobId) p.job_id = jobId;
  return Object.keys(p).length > 0 ? p : null;
}

export function toProvenance(row: MemoryWithSourceRow): Record<string, unknown> | null {
  return sourceProvenance(row, row.message_indices, row.job_id);
}

export function toMemoryRecord(row: MemoryWithSourceRow, externalUserId: string): MemoryRecord {
  return {
    id: row.id,
    external_user_id: externalUserId,
    agent_id: row.agent_id,
    content: row.content,
    category: row.category,
    status: row.status as MemoryRecord['status'],
    importance_score: row.importance,
    confidence: row.confidence,
    access_count: row.access_count,
    last_accessed: iso(row.last_accessed),
    created_at: iso(row.created_at) as string,
    updated_at: iso(row.updated_at) as string,
    source_event_id: row.source_event_id,
    provenance: toProvenance(row),
  };
}

/** The SELECT list that produces a MemoryWithSourceRow from `memories m LEFT JOIN source_events se`. */
/** A memory's own columns of MemoryWithSourceRow (`m`). */
export const MEMORY_COLUMNS = `
  m.id, m.content, m.category, m.status, m.importance, m.confidence, m.agent_id, m.access_count,
  m.last_accessed, m.created_at, m.updated_at, m.source_event_id, m.message_indices, m.job_id`;

export const MEMORY_WITH_SOURCE_COLUMNS = `${MEMORY_COLUMNS},
  ${SOURCE_EVENT_COLUMNS}, se.evidence AS se_evidence`;

/** One entry of the claim revision ledger, as the export bundle and the console show it. */
export interface ClaimRevisionView {
  id: string;
  memory_id: string;
  action: string;
  from_status: string | null;
  to_status: string;
  reason: string;
  actor: string;
  source_event_id: string | null;
  job_id: string | null;
  content: string;
  details: unknown;
  created_at: string;
}

export const toClaimRevisionView = (l: ClaimRevision): ClaimRevisionView => ({
  id: l.id,
  memory_id: l.memoryId,
  action: l.action,
  from_status: l.fromStatus,
  to_status: l.toStatus,
  reason: l.reason,
  actor: l.actor,
  source_event_id: l.sourceEventId,
  job_id: l.jobId,
  content: l.content,
  details: l.details,
  created_at: l.createdAt.toISOString(),
});
