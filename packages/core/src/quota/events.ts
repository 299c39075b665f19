/** The one place a quota-mode change is announced (docs/quotas.md, Mode changes): the audit log and the `quota.mode_changed` webhook. */
import type { Db } from '@memory/db';
import { recordAudit } from '../audit/audit';
import { recordWebhookEvent } from '../webhooks/outbox';
import type { QuotaMode } from '../schemas/memories';

export interface QuotaModeChange {
  from: QuotaMode;
  to: QuotaMode;
  budget_remaining_pct: number | null;
}

/**
 * Called exactly once per transition: by the request (or plan change) whose conditional update of
 * `tenants.quota_mode` won, so several processes seeing the same change do not announce it twice.
 */
export async function onQuotaModeChanged(db: Db, tenantId: string, change: QuotaModeChange, actor = 'system'): Promise<void> {
  await recordAudit(db, {
    tenantId,
    actor,
    action: 'quota.mode_changed',
    targetType: 'tenant',
    targetId: tenantId,
    details: { from: change.from, to: change.to, budget_remaining_pct: change.budget_remaining_pct },
  });
  await recordWebhookEvent(db, tenantId, 'quota.mode_changed', { from: change.from, to: change.to, budget_remaining_pct: change.budget_remaining_pct });
}
