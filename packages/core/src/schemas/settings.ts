/** Tenant settings: request and response schemas with their documented bounds (docs/provenance.md, Retention). */
import { z } from 'zod';

/** Raw payloads are kept at least one day and at most ten years; `null` keeps them forever. */
export const PAYLOAD_RETENTION_DAYS_MIN = 1;
export const PAYLOAD_RETENTION_DAYS_MAX = 3650;
/** The column default for new tenants (packages/db/src/schema/tenants.ts). */
export const PAYLOAD_RETENTION_DAYS_DEFAULT = 30;

export const payloadRetentionDays = z
  .number()
  .int('must be an integer')
  .min(PAYLOAD_RETENTION_DAYS_MIN, `must be at least ${PAYLOAD_RETENTION_DAYS_MIN}`)
  .max(PAYLOAD_RETENTION_DAYS_MAX, `must be at most ${PAYLOAD_RETENTION_DAYS_MAX}`)
  .nullable()
  .meta({
    description:
      `Days a raw source payload is kept before it is redacted (the payload hash and the memories stay). ` +
      `${PAYLOAD_RETENTION_DAYS_MIN}–${PAYLOAD_RETENTION_DAYS_MAX}; null keeps payloads forever. Default ${PAYLOAD_RETENTION_DAYS_DEFAULT}.`,
    example: PAYLOAD_RETENTION_DAYS_DEFAULT,
  });

export const tenantSettingsView = z
  .object({ payload_retention_days: payloadRetentionDays })
  .meta({ id: 'TenantSettings' });

export type TenantSettings = z.infer<typeof tenantSettingsView>;

/** A partial update; at least one setting must be given, unknown fields are rejected. */
export const updateTenantSettingsRequest = z
  .object({ payload_retention_days: payloadRetentionDays.optional() })
  .strict()
  .refine((v) => Object.keys(v).length > 0, 'at least one setting is required')
  .meta({ id: 'UpdateTenantSettingsRequest' });

export type TenantSettingsUpdate = z.infer<typeof updateTenantSettingsRequest>;
