/**
 * Plans, budgets and quota modes (docs/quotas.md). Pure: the catalogue, the period arithmetic and the rule that
 * turns consumption into `budget_remaining_pct` and a `QuotaMode`. The database side is in usage.ts.
 */
import { PLAN_IDS, type PlanId, type QuotaMode } from '../schemas/memories';
import { QUOTA_THRESHOLDS } from '../schemas/quotas';

/** What a budget counts, per plan period. */
export const BUDGET_UNITS = ['add_calls', 'retrieve_calls'] as const;
export type BudgetUnit = (typeof BUDGET_UNITS)[number];

export type Budgets = Record<BudgetUnit, number | null>;
export type Usage = Record<BudgetUnit, number>;

export interface RateLimits {
  /** Writes (adds, retrieval feedback, memory deletions) per end user per minute; null = no limit. */
  user_writes_per_minute: number | null;
  /** Writes per tenant per minute, all users together; null = no limit. */
  tenant_writes_per_minute: number | null;
}

export interface PlanDefinition {
  id: PlanId;
  name: string;
  /** Per monthly period; null = not limited. */
  budgets: Budgets;
  rate_limits: RateLimits;
}

export { PLAN_IDS, type PlanId };

export const PLANS: Record<PlanId, PlanDefinition> = {
  free: {
    id: 'free',
    name: 'Free',
    budgets: { add_calls: 1_000, retrieve_calls: 10_000 },
    rate_limits: { user_writes_per_minute: 20, tenant_writes_per_minute: 120 },
  },
  pro: {
    id: 'pro',
    name: 'Pro',
    budgets: { add_calls: 100_000, retrieve_calls: 1_000_000 },
    rate_limits: { user_writes_per_minute: 60, tenant_writes_per_minute: 1_200 },
  },
  enterprise: {
    id: 'enterprise',
    name: 'Enterprise',
    budgets: { add_calls: 2_000_000, retrieve_calls: 20_000_000 },
    rate_limits: { user_writes_per_minute: 300, tenant_writes_per_minute: 12_000 },
  },
  unlimited: {
    id: 'unlimited',
    name: 'Unlimited',
    budgets: { add_calls: null, retrieve_calls: null },
    rate_limits: { user_writes_per_minute: null, tenant_writes_per_minute: null },
  },
};

export { QUOTA_THRESHOLDS };

export interface PlanOverrides {
  budgets?: Partial<Record<BudgetUnit, number | null>>;
  rate_limits?: Partial<RateLimits>;
}

/** The service-wide replacement of every plan's rate limits (MEMORY_RATE_LIMIT_*; undefined = the catalogue's). */
export type RateLimitDefaults = Partial<RateLimits>;

export interface EffectivePlan {
  id: PlanId;
  name: string;
  budgets: Budgets;
  rate_limits: RateLimits;
}

/** The catalogue entry, then the service-wide rate limits, then the tenant's own overrides (each wins over the last). */
export function effectivePlan(id: string, overrides: PlanOverrides | null | undefined, env: RateLimitDefaults = {}): EffectivePlan {
  const base = PLANS[(PLAN_IDS as readonly string[]).includes(id) ? (id as PlanId) : 'unlimited'];
  const pick = <T>(...values: (T | undefined)[]): T => values.find((v) => v !== undefined) as T;
  const o = overrides ?? {};
  return {
    id: base.id,
    name: base.name,
    budgets: {
      add_calls: pick(o.budgets?.add_calls, base.budgets.add_calls),
      retrieve_calls: pick(o.budgets?.retrieve_calls, base.budgets.retrieve_calls),
    },
    rate_limits: {
      user_writes_per_minute: pick(o.rate_limits?.user_writes_per_minute, env.user_writes_per_minute, base.rate_limits.user_writes_per_minute),
      tenant_writes_per_minute: pick(
        o.rate_limits?.tenant_writes_per_minute,
        env.tenant_writes_per_minute,
        base.rate_limits.tenant_writes_per_minute,
      ),
    },
  };
}

/**
 * The remaining share of the tightest budget, in percent with two decimals, rounded up so that only a budget
 * that is really used up reads 0 (and the mode, computed from this same number, agrees with what is shown).
 * Null when no unit has a budget (the unlimited plan).
 */
export function budgetRemainingPct(budgets: Budgets, usage: Usage): number | null {
  let min: number | null = null;
  for (const unit of BUDGET_UNITS) {
    const budget = budgets[unit];
    if (budget === null) continue;
    const left = budget <= 0 ? 0 : Math.max(0, Math.ceil(((budget - usage[unit]) * 10_000) / budget) / 100);
    min = min === null ? left : Math.min(min, left);
  }
  return min;
}

export function quotaModeFor(remainingPct: number | null): QuotaMode {
  if (remainingPct === null) return 'FULL';
  if (remainingPct <= QUOTA_THRESHOLDS.blocked_at_pct) return 'BLOCKED';
  if (remainingPct <= QUOTA_THRESHOLDS.passthrough_at_pct) return 'PASSTHROUGH';
  if (remainingPct <= QUOTA_THRESHOLDS.degraded_retrieve_at_pct) return 'DEGRADED_RETRIEVE';
  return 'FULL';
}

/** `anchor` moved by whole calendar months, its day clamped to the target month's length (Jan 31 + 1 = Feb 28/29). */
export function addMonths(anchor: Date, months: number): Date {
  const y = anchor.getUTCFullYear();
  const m = anchor.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return new Date(
    Date.UTC(y, m, Math.min(anchor.getUTCDate(), lastDay), anchor.getUTCHours(), anchor.getUTCMinutes(), anchor.getUTCSeconds(), anchor.getUTCMilliseconds()),
  );
}

/**
 * The monthly period containing `now`: periods start at the plan's anchor and then every month on the anchor's
 * day (always counted from the anchor, so a short month does not shift later periods).
 */
export function currentPeriod(anchor: Date, now: Date): { start: Date; end: Date } {
  if (now < anchor) return { start: anchor, end: addMonths(anchor, 1) };
  let k = (now.getUTCFullYear() - anchor.getUTCFullYear()) * 12 + (now.getUTCMonth() - anchor.getUTCMonth());
  while (k > 0 && addMonths(anchor, k) > now) k--;
  while (addMonths(anchor, k + 1) <= now) k++;
  return { start: addMonths(anchor, k), end: addMonths(anchor, k + 1) };
}
