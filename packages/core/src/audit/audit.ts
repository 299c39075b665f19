/** The audit log: who did what and when, never content, codes or keys (only ids). */
import { randomUUID } from 'node:crypto';
import { type Db, auditLog } from '@memory/db';
import type { Principal } from '../principal';

export interface AuditEntry {
  tenantId: string | null;
  /** `admin:<id>`, `api_key:<id>` (tenants.ts `Actor`), `operator`, `system`. */
  actor: string;
  /** e.g. `console.sign_in`, `api_key.created`, `review.resolved`. */
  action: string;
  targetType?: string;
  targetId?: string;
  details?: Record<string, string | number | boolean | null | string[]>;
}

export async function recordAudit(db: Db, e: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    id: randomUUID(),
    tenantId: e.tenantId,
    actor: e.actor,
    action: e.action,
    targetType: e.targetType ?? null,
    targetId: e.targetId ?? null,
    details: e.details ?? {},
  });
}

export const adminActor = (adminId: string): `admin:${string}` => `admin:${adminId}`;

/**
 * Runs a change and records its audit entry in the same transaction, naming the principal's actor: the one way
 * domain functions audit, so the REST API (`api_key:<id>`) and the console (`admin:<id>`) audit alike.
 */
export async function withAudit<T>(
  db: Db,
  principal: Principal,
  change: (tx: Db) => Promise<T>,
  entry: (result: T) => Omit<AuditEntry, 'tenantId' | 'actor'>,
): Promise<T> {
  return db.transaction(async (tx) => {
    const result = await change(tx);
    await recordAudit(tx, { tenantId: principal.tenantId, actor: principal.actor, ...entry(result) });
    return result;
  });
}
