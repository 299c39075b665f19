/**
 * Tenant settings: request and response schemas with their documented bounds (docs/provenance.md, Retention;
 * docs/review-before-write.md).
 */
import { z } from 'zod';
import { MEMORY_CATEGORIES } from '../categories';
import { PRIORITY_MAX, PRIORITY_MIN } from './provenance';

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

/**
 * Review before write: new memories of these categories, or from writers whose authority for the memory's
 * category is below `below_authority`, wait as `pending` until an admin approves, edits or rejects them.
 * null: off (the default).
 */
export const reviewBeforeWrite = z
  .object({
    categories: z
      .array(z.enum(MEMORY_CATEGORIES))
      .max(MEMORY_CATEGORIES.length)
      .default([])
      .transform((list) => [...new Set(list)])
      .meta({ description: 'Memory categories whose new memories always wait for review.' }),
    below_authority: z
      .number()
      .int('must be an integer')
      .min(PRIORITY_MIN + 1, `must be at least ${PRIORITY_MIN + 1}`)
      .max(PRIORITY_MAX + 1, `must be at most ${PRIORITY_MAX + 1}`)
      .nullable()
      .default(null)
      .meta({
        description:
          "New memories whose writer's authority for the memory's category is below this wait for review. Adds without a `source` block have authority 0. null: no authority rule.",
      }),
  })
  .strict()
  .refine((v) => v.categories.length > 0 || v.below_authority !== null, {
    message: 'name at least one category or a below_authority; send null to turn review before write off',
  })
  .nullable()
  .meta({
    id: 'ReviewBeforeWrite',
    description: 'Hold new memories for an admin before they are written (docs/review-before-write.md). null: off.',
    example: { categories: ['health'], below_authority: 50 },
  });

export type ReviewBeforeWrite = z.output<typeof reviewBeforeWrite>;

export const tenantSettingsView = z
  .object({ payload_retention_days: payloadRetentionDays, review_before_write: reviewBeforeWrite })
  .meta({ id: 'TenantSettings' });

export type TenantSettings = z.infer<typeof tenantSettingsView>;

/** A partial update; at least one setting must be given, unknown fields are rejected. */
export const updateTenantSettingsRequest = z
  .object({ payload_retention_days: payloadRetentionDays.optional(), review_before_write: reviewBeforeWrite.optional() })
  .strict()
  .refine((v) => Object.keys(v).length > 0, 'at least one setting is required')
  .meta({ id: 'UpdateTenantSettingsRequest' });

export type TenantSettingsUpdate = z.infer<typeof updateTenantSettingsRequest>;
