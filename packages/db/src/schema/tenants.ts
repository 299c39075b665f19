/** Tenants, their API keys, service writers and end users: the partition every other area refers to. */
import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { tstz } from './columns';

/** Every tenant-owned row carries its partition; deleting a tenant removes its rows. */
export const tenantRef = () =>
  uuid('tenant_id')
    .notNull()
    .references(() => tenants.id, { onDelete: 'cascade' });

export const userRef = () =>
  uuid('user_id')
    .notNull()
    .references(() => endUsers.id, { onDelete: 'cascade' });

export const tenants = pgTable('tenants', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
  /** Raw source payloads older than this are redacted (the hash stays). Null keeps them. */
  payloadRetentionDays: integer('payload_retention_days').default(30),
  /**
   * Review before write (docs/review-before-write.md): `{ categories: string[], below_authority: number | null }`,
   * or null (off). New memories it matches wait as `pending` until an admin decides.
   */
  reviewBeforeWrite: jsonb('review_before_write'),
  /** The active domain schema (packages/core/src/domains): `general`, `edtech` or `customer_support`. */
  domainSchema: text('domain_schema').notNull().default('general'),
  /** The tenant's plan (docs/quotas.md): `free`, `pro`, `enterprise` or `unlimited` (the default: no budget, no rate limits). */
  plan: text('plan').notNull().default('unlimited'),
  /** When the plan was set: monthly budget periods start on this instant's day and time, every month. */
  planAnchor: tstz('plan_anchor').notNull().defaultNow(),
  /** Per-tenant overrides of the plan: `{ budgets?: {add_calls?, retrieve_calls?}, rate_limits?: {user_writes_per_minute?, tenant_writes_per_minute?} }`. */
  planOverrides: jsonb('plan_overrides').notNull().default(sql`'{}'::jsonb`),
  /** The last quota mode seen; a different computed mode is a transition (audited once, by whoever flips this column). */
  quotaMode: text('quota_mode').notNull().default('FULL'),
  createdAt: tstz('created_at').notNull().defaultNow(),
});

export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey(),
    tenantId: tenantRef(),
    name: text('name').notNull(),
    /** SHA-256 of the whole key, hex. The key itself is never stored. */
    keyHash: text('key_hash').notNull(),
    /** Display prefix and last four characters, for dashboards. */
    displayPrefix: text('display_prefix').notNull(),
    last4: text('last4').notNull(),
    createdAt: tstz('created_at').notNull().defaultNow(),
    revokedAt: tstz('revoked_at'),
  },
  (t) => [uniqueIndex('api_keys_key_hash_uq').on(t.keyHash), index('api_keys_tenant_idx').on(t.tenantId)],
);

/** A named backend service that writes user facts, with its authority per memory category. */
export const serviceWriters = pgTable(
  'service_writers',
  {
    id: uuid('id').primaryKey(),
    tenantId: tenantRef(),
    /** Stable slug, unique per tenant; the `source.service` of add calls. */
    serviceKey: text('service_key').notNull(),
    displayName: text('display_name').notNull(),
    /** `{ default_priority: int, categories: { [category]: int } }` */
    authorityRules: jsonb('authority_rules').notNull(),
    /** When set, adds for this writer must use exactly this API key (PROV_403 otherwise). */
    apiKeyId: uuid('api_key_id').references(() => apiKeys.id),
    createdAt: tstz('created_at').notNull().defaultNow(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('service_writers_key_uq').on(t.tenantId, t.serviceKey)],
);

export const endUsers = pgTable(
  'end_users',
  {
    id: uuid('id').primaryKey(),
    tenantId: tenantRef(),
    externalUserId: text('external_user_id').notNull(),
    /** Bumped on every memory write; lets caches detect that they are stale. */
    memoryVersion: bigint('memory_version', { mode: 'number' }).notNull().default(0),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('end_users_tenant_external_uq').on(t.tenantId, t.externalUserId)],
);
