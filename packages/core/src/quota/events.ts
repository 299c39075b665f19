/** The one place a quota-mode change is announced (docs/quotas.md, Mode changes). */
import type { Db } from '@memory/db';
import { recordAudit } from '../console/audit';
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
  // WEBHOOK CALL SITE (issue 7 × webhooks branch): the merge adds here
  //   await recordWebhookEvent(db, tenantId, 'quota.mode_changed', change);
}
