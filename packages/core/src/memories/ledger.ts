/** Rows of the claim revision ledger, built in one place for the lifecycle pass and user corrections. */
import type { claimRevisions } from '@memory/db';
import { orderedUuid } from './ordered-id';

type LedgerRow = typeof claimRevisions.$inferInsert;

export interface LedgerSubject {
  id: string;
  tenantId: string;
  userId: string;
  content: string;
  sourceEventId: string | null;
  jobId: string | null;
}

export function ledgerRow(
  memory: LedgerSubject,
  entry: { action: string; from: string | null; to: string; reason: string; actor: string; details?: Record<string, unknown> },
  provenance: { sourceEventId?: string | null; jobId?: string | null } = {},
): LedgerRow {
  return {
    // time-ordered: rows of one transaction share created_at, and the id keeps their order
    id: orderedUuid(),
    tenantId: memory.tenantId,
    userId: memory.userId,
    memoryId: memory.id,
    action: entry.action,
    fromStatus: entry.from,
    toStatus: entry.to,
    reason: entry.reason,
    actor: entry.actor,
    sourceEventId: provenance.sourceEventId !== undefined ? provenance.sourceEventId : memory.sourceEventId,
    jobId: provenance.jobId !== undefined ? provenance.jobId : memory.jobId,
    content: memory.content,
    details: entry.details ?? {},
  };
}
