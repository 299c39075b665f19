/**
 * Tenant settings. Today one: `payload_retention_days`, the window after which raw source payloads are
 * redacted (provenance/retention.ts). Bounds: 1–3650 days, or null to keep payloads forever
 * (schemas/settings.ts); the database default for a new tenant is 30.
 */
import { type Db, eq, tenants } from '@memory/db';
import { withAudit } from '../audit/audit';
import { Errors } from '../errors';
import type { Principal } from '../principal';
import {
  PAYLOAD_RETENTION_DAYS_MAX,
  PAYLOAD_RETENTION_DAYS_MIN,
  type TenantSettings,
} from '../schemas/settings';

export async function getTenantSettings(db: Db, tenantId: string): Promise<TenantSettings> {
  const [row] = await db
    .select({ payloadRetentionDays: tenants.payloadRetentionDays })
    .from(tenants)
    .where(eq(tenants.id, tenantId))
    .limit(1);
  if (!row) throw Errors.notFound('The tenant');
  return { payload_retention_days: row.payloadRetentionDays };
}

/**
 * Changes the given settings and returns all of them, with an audit entry (`tenant_settings.changed`, the
 * principal's actor, the values before and after) in the same transaction when a value changes. Values are
 * checked here too (not only by the HTTP schema), so the CLI or a console cannot store a window outside the
 * documented bounds.
 */
export async function updateTenantSettings(
  db: Db,
  principal: Principal,
  update: { payload_retention_days?: number | null },
): Promise<TenantSettings> {
  const { tenantId } = principal;
  const set: Partial<typeof tenants.$inferInsert> = {};
  if (update.payload_retention_days !== undefined) {
    const days = update.payload_retention_days;
    if (
      days !== null &&
      (!Number.isInteger(days) || days < PAYLOAD_RETENTION_DAYS_MIN || days > PAYLOAD_RETENTION_DAYS_MAX)
    ) {
      throw Errors.validation([
        {
          path: 'payload_retention_days',
          message: `must be an integer from ${PAYLOAD_RETENTION_DAYS_MIN} to ${PAYLOAD_RETENTION_DAYS_MAX}, or null`,
        },
      ]);
    }
    set.payloadRetentionDays = days;
  }
  const before = await getTenantSettings(db, tenantId);
  if (Object.keys(set).length === 0 || set.payloadRetentionDays === before.payload_retention_days) return before;
  return withAudit(
    db,
    principal,
    async (tx): Promise<TenantSettings> => {
      const [row] = await tx
        .update(tenants)
        .set(set)
        .where(eq(tenants.id, tenantId))
        .returning({ payloadRetentionDays: tenants.payloadRetentionDays });
      if (!row) throw Errors.notFound('The tenant');
      return { payload_retention_days: row.payloadRetentionDays };
    },
    (after) => ({
      action: 'tenant_settings.changed',
      targetType: 'tenant',
      targetId: tenantId,
      details: { payload_retention_days_from: before.payload_retention_days, payload_retention_days_to: after.payload_retention_days },
    }),
  );
}
