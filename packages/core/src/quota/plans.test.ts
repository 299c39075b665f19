import { describe, expect, it } from 'vitest';
import { PLANS, addMonths, budgetRemainingPct, currentPeriod, effectivePlan, quotaModeFor } from './plans';

describe('quota modes from the remaining budget', () => {
  it.each([
    [null, 'FULL'],
    [100, 'FULL'],
    [20.01, 'FULL'],
    [20, 'DEGRADED_RETRIEVE'],
    [5.01, 'DEGRADED_RETRIEVE'],
    [5, 'PASSTHROUGH'],
    [0.01, 'PASSTHROUGH'],
    [0, 'BLOCKED'],
  ] as const)('%s %% remaining is %s', (pct, mode) => {
    expect(quotaModeFor(pct)).toBe(mode);
  });

  it('takes the tightest unit, rounds up to two decimals and never goes below 0', () => {
    const budgets = { add_calls: 20, retrieve_calls: 1000 };
    expect(budgetRemainingPct(budgets, { add_calls: 0, retrieve_calls: 0 })).toBe(100);
    expect(budgetRemainingPct(budgets, { add_calls: 16, retrieve_calls: 3 })).toBe(20);
    expect(budgetRemainingPct(budgets, { add_calls: 1, retrieve_calls: 900 })).toBe(10);
    expect(budgetRemainingPct({ add_calls: 3, retrieve_calls: null }, { add_calls: 1, retrieve_calls: 0 })).toBe(66.67);
    expect(budgetRemainingPct({ add_calls: 30_000, retrieve_calls: null }, { add_calls: 29_999, retrieve_calls: 0 })).toBe(0.01);
    expect(budgetRemainingPct(budgets, { add_calls: 25, retrieve_calls: 0 })).toBe(0);
    expect(budgetRemainingPct({ add_calls: 0, retrieve_calls: null }, { add_calls: 0, retrieve_calls: 0 })).toBe(0);
  });

  it('is null (and FULL) on the unlimited plan', () => {
    expect(budgetRemainingPct(PLANS.unlimited.budgets, { add_calls: 10 ** 9, retrieve_calls: 10 ** 9 })).toBeNull();
  });
});

describe('effective plan', () => {
  it('applies the service-wide rate limits, then the tenant overrides', () => {
    expect(effectivePlan('free', {}).rate_limits).toEqual(PLANS.free.rate_limits);
    const env = { user_writes_per_minute: 7 };
    expect(effectivePlan('free', {}, env).rate_limits).toEqual({ user_writes_per_minute: 7, tenant_writes_per_minute: 120 });
    const o = effectivePlan('free', { budgets: { add_calls: 20 }, rate_limits: { user_writes_per_minute: null } }, env);
    expect(o.budgets).toEqual({ add_calls: 20, retrieve_calls: 10_000 });
    expect(o.rate_limits.user_writes_per_minute).toBeNull();
  });

  it('treats an unknown plan id as unlimited', () => {
    expect(effectivePlan('gold', null).id).toBe('unlimited');
  });
});

describe('monthly periods', () => {
  const anchor = new Date('2026-01-31T10:00:00Z');

  it('clamps the anchor day to short months without drifting', () => {
    expect(addMonths(anchor, 1).toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(addMonths(anchor, 2).toISOString()).toBe('2026-03-31T10:00:00.000Z');
    expect(addMonths(new Date('2028-01-31T00:00:00Z'), 1).toISOString()).toBe('2028-02-29T00:00:00.000Z');
    expect(addMonths(anchor, 11).toISOString()).toBe('2026-12-31T10:00:00.000Z');
    expect(addMonths(anchor, 12).toISOString()).toBe('2027-01-31T10:00:00.000Z');
  });

  it('rolls over at the anchor instant', () => {
    expect(currentPeriod(anchor, new Date('2026-01-31T10:00:00Z'))).toEqual({ start: anchor, end: new Date('2026-02-28T10:00:00Z') });
    expect(currentPeriod(anchor, new Date('2026-02-28T09:59:59.999Z')).start).toEqual(anchor);
    expect(currentPeriod(anchor, new Date('2026-02-28T10:00:00Z'))).toEqual({
      start: new Date('2026-02-28T10:00:00Z'),
      end: new Date('2026-03-31T10:00:00Z'),
    });
    expect(currentPeriod(anchor, new Date('2027-05-01T00:00:00Z'))).toEqual({
      start: new Date('2027-04-30T10:00:00Z'),
      end: new Date('2027-05-31T10:00:00Z'),
    });
  });

  it('treats a clock before the anchor as the first period', () => {
    expect(currentPeriod(anchor, new Date('2026-01-01T00:00:00Z')).start).toEqual(anchor);
  });
});
