/** The audit log: who did what and when, never content, codes or keys (only ids). */
import { randomUUID } from 'node:crypto';
import { type Db, auditLog } from '@memory/db';

export interface AuditEntry {
  tenantId: string | null;
  /** `admin:<id>`, `operator`, `api_key:<id>`. */
  actor: string;
  /** e.g. `console.sign_in`, `api_key.created`, `review.resolved`. */
  action: string;
  targetType?: string;
  targetId?: string;
  details?: Record<string, string | number | boolean | null>;
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

export const adminActor = (adminId: string) => `admin:${adminId}`;
