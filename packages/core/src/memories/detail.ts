/**
 * GET /v1/memories/{memory_id}: one memory with its provenance, the metadata of the add or direct write that
 * produced it, and its claim revisions oldest first (docs/direct-operations.md).
 */
import { type Db, and, asc, claimRevisions, eq, rows, sql } from '@memory/db';
import { Errors } from '../errors';
import type { MemoryDetail } from '../schemas/direct';
import type { Principal } from '../principal';
import { MEMORY_WITH_SOURCE_COLUMNS, type MemoryWithSourceRow, toClaimRevisionView, toMemoryRecord } from './serialize';

/** The memory (of this tenant only: another tenant's id is 404 like an unknown one) and its history. */
export async function getMemoryDetail(db: Db, auth: Principal, memoryId: string): Promise<MemoryDetail> {
  const [[row], ledger] = await Promise.all([
    rows<MemoryWithSourceRow & { external_user_id: string; se_metadata: unknown }>(
      db,
      sql`SELECT ${sql.raw(MEMORY_WITH_SOURCE_COLUMNS)}, se.metadata AS se_metadata, u.external_user_id
          FROM memories m
            JOIN end_users u ON u.id = m.user_id
            LEFT JOIN source_events se ON se.id = m.source_event_id AND se.tenant_id = m.tenant_id
          WHERE m.tenant_id = ${auth.tenantId} AND m.id = ${memoryId}`,
    ),
    db
      .select()
      .from(claimRevisions)
      .where(and(eq(claimRevisions.tenantId, auth.tenantId), eq(claimRevisions.memoryId, memoryId)))
      .orderBy(asc(claimRevisions.createdAt), asc(claimRevisions.id)),
  ]);
  if (!row) throw Errors.notFound(`Memory ${memoryId}`);
  const metadata = row.se_metadata && typeof row.se_metadata === 'object' && Object.keys(row.se_metadata).length > 0 ? (row.se_metadata as Record<string, unknown>) : null;
  return {
    ...toMemoryRecord(row, row.external_user_id),
    metadata,
    revisions: ledger.map((l) => ({ ...toClaimRevisionView(l), details: (l.details ?? {}) as Record<string, unknown> })),
  };
}
