/** Plans and usage (docs/quotas.md): the admin plan change and the usage report. */
import { z } from 'zod';
import { PLAN_IDS, QUOTA_MODES } from './memories';

/**
 * Thresholds on the remaining budget (percent): FULL above 20, DEGRADED_RETRIEVE at 20 or less, PASSTHROUGH at
 * 5 or less, BLOCKED at 0.
 */
export const QUOTA_THRESHOLDS = { degraded_retrieve_at_pct: 20, passthrough_at_pct: 5, blocked_at_pct: 0 } as const;

const budget = z.number().int().min(0).max(1_000_000_000).nullable();
const perMinute = z.number().int().min(1).max(1_000_000).nullable();

export const planOverrides = z
  .object({
    budgets: z.object({ add_calls: budget.optional(), retrieve_calls: budget.optional() }).strict().optional(),
    rate_limits: z
      .object({ user_writes_per_minute: perMinute.optional(), tenant_writes_per_minute: perMinute.optional() })
      .strict()
      .optional(),
  })
  .strict()
  .meta({ id: 'PlanOverrides', description: 'Per-tenant replacements of the plan’s budgets and write rates; null removes a limit.' });

export const planChangeRequest = z
  .object({ plan: z.enum(PLAN_IDS), overrides: planOverrides.optional() })
  .strict()
  .meta({ id: 'PlanChangeRequest' });
export type PlanChangeRequest = z.infer<typeof planChangeRequest>;

const units = { add_calls: z.number().int(), retrieve_calls: z.number().int() };
const nullableUnits = { add_calls: z.number().int().nullable(), retrieve_calls: z.number().int().nullable() };

export const usageReport = z
  .object({
    tenant_id: z.string().uuid(),
    plan: z.object({ id: z.enum(PLAN_IDS), name: z.string(), overrides: planOverrides }),
    period: z.object({ start: z.string().datetime(), end: z.string().datetime() }),
    budgets: z.object(nullableUnits).meta({ description: 'Per period; null = not limited.' }),
    usage: z.object(units),
    budget_remaining_pct: z.number().nullable(),
    quota_mode: z.enum(QUOTA_MODES),
    thresholds: z.object({
      degraded_retrieve_at_pct: z.literal(QUOTA_THRESHOLDS.degraded_retrieve_at_pct),
      passthrough_at_pct: z.literal(QUOTA_THRESHOLDS.passthrough_at_pct),
      blocked_at_pct: z.literal(QUOTA_THRESHOLDS.blocked_at_pct),
    }),
    rate_limits: z.object({
      user_writes_per_minute: z.number().int().nullable(),
      tenant_writes_per_minute: z.number().int().nullable(),
      window_seconds: z.number().int(),
    }),
    daily: z.array(z.object({ day: z.string(), ...units })).meta({ description: 'Usage per UTC day of the current period.' }),
  })
  .meta({ id: 'UsageReport' });
