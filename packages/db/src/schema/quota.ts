/** Plan usage and write-rate counters (docs/quotas.md). */
import { integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { tstz } from './columns';
import { tenantRef } from './tenants';

const usageCounterColumns = () => ({
  addCalls: integer('add_calls').notNull().default(0),
  retrieveCalls: integer('retrieve_calls').notNull().default(0),
});

/**
 * Budget consumption per tenant per plan period (docs/quotas.md): one row per (tenant, period start), incremented
 * with atomic upserts so every server process counts into the same row.
 */
export const tenantUsage = pgTable(
  'tenant_usage',
  {
    tenantId: tenantRef(),
    periodStart: tstz('period_start').notNull(),
    ...usageCounterColumns(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.periodStart] })],
);

/** The same counters per UTC day, for the console's usage chart. */
export const tenantUsageDaily = pgTable(
  'tenant_usage_daily',
  {
    tenantId: tenantRef(),
    day: text('day').notNull(),
    ...usageCounterColumns(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.day] })],
);

/**
 * Fixed-window write-rate counters (docs/quotas.md, Rate limits) when PostgreSQL/PGlite is the limiter's store:
 * one row per limited key (`t:<tenant>` or `u:<tenant>:<user>`), reset in place when a new window begins.
 */
export const rateLimitCounters = pgTable('rate_limit_counters', {
  key: text('key').primaryKey(),
  windowStart: tstz('window_start').notNull(),
  count: integer('count').notNull().default(0),
});
