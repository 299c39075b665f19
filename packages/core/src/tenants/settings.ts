/**
 * Tenant settings: `payload_retention_days`, the window after which raw source payloads are redacted
 * (provenance/retention.ts; bounds 1–3650 days, or null to keep payloads forever; the database default for a new
 * tenant is 30), and `review_before_write` (docs/review-before-write.md; null: off, the default).
 */
import { type Db, eq, tenants } from '@memory/db';
import { withAudit } from '../audit/audit';
import { Errors } from '../errors';
import type { Principal } from '../principal';
import {
  PAYLOAD_RETENTION_DAYS_MAX,
  PAYLOAD_RETENTION_DAYS_MIN,
  type ReviewBeforeWrite,
  type TenantSettings,
  reviewBeforeWrite,
} from '../schemas/settings';

const settingsColumns = { payloadRetentionDays: tenants.payloadRetentionDays, reviewBeforeWrite: tenants.reviewBeforeWrite };

function toSettings(row: { payloadRetentionDays: number | null; reviewBeforeWrite: unknown }): TenantSettings {
  return { payload_retention_days: row.payloadRetentionDays, review_before_write: (row.reviewBeforeWrite as ReviewBeforeWrite | null) ?? null };
}

export async function getTenantSettings(db: Db, tenantId: string): Promise<TenantSettings> {
  const [row] = await db.select(settingsColumns).from(tenants).where(eq(tenants.id, tenantId)).limit(1);
  if (!row) throw Errors.notFound('The tenant');
  return toSettings(row);
}

/** The setting as stored: parsed again here, so the CLI or a console cannot store an unknown category. */
function checkedReviewBeforeWrite(value: unknown): ReviewBeforeWrite {
  const parsed = reviewBeforeWrite.safeParse(value);
  if (!parsed.success) {
    throw Errors.validation(parsed.error.issues.map((i) => ({ path: ['review_before_write', ...i.path].join('.'), message: i.message })));
  }
  return parsed.data;
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
  update: { payload_retention_days?: number | null; review_before_write?: ReviewBeforeWrite | null },
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
  if (update.review_before_write !== undefined) set.reviewBeforeWrite = checkedReviewBeforeWrite(update.review_before_write);
  const before = await getTenantSettings(db, tenantId);
  const changed =
    (set.payloadRetentionDays !== undefined && set.payloadRetentionDays !== before.payload_retention_days) ||
    (set.reviewBeforeWrite !== undefined && JSON.stringify(set.reviewBeforeWrite) !== JSON.stringify(before.review_before_write));
  if (!changed) return before;
  return withAudit(
    db,
    principal,
    async (tx): Promise<TenantSettings> => {
      const [row] = await tx.update(tenants).set(set).where(eq(tenants.id, tenantId)).returning(settingsColumns);
      if (!row) throw Errors.notFound('The tenant');
      return toSettings(row);
    },
    (after) => ({
      action: 'tenant_settings.changed',
      targetType: 'tenant',
      targetId: tenantId,
      // each setting that changed, before and after
      details: {
        ...(after.payload_retention_days !== before.payload_retention_days
          ? { payload_retention_days_from: before.payload_retention_days, payload_retention_days_to: after.payload_retention_days }
          : {}),
        ...(JSON.stringify(after.review_before_write) !== JSON.stringify(before.review_before_write)
          ? {
              review_before_write_categories_from: before.review_before_write?.categories ?? null,
              review_before_write_below_authority_from: before.review_before_write?.below_authority ?? null,
              review_before_write_categories_to: after.review_before_write?.categories ?? null,
              review_before_write_below_authority_to: after.review_before_write?.below_authority ?? null,
            }
          : {}),
      },
    }),
  );
}
