import { describe, expect, it } from 'vitest';
import { DEFAULT_WEBHOOK_RETRY_SCHEDULE, maxAttempts, nextRetryDelayMs } from './retry';

describe('webhook retry schedule', () => {
  it('follows the documented schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then gives up (8 attempts, ~27.6 h)', () => {
    const mid = () => 0.5;
    expect([1, 2, 3, 4, 5, 6, 7].map((a) => nextRetryDelayMs(a, DEFAULT_WEBHOOK_RETRY_SCHEDULE, mid))).toEqual([
      5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
    ]);
    expect(nextRetryDelayMs(8, DEFAULT_WEBHOOK_RETRY_SCHEDULE, mid)).toBeNull();
    expect(maxAttempts(DEFAULT_WEBHOOK_RETRY_SCHEDULE)).toBe(8);
    expect(DEFAULT_WEBHOOK_RETRY_SCHEDULE.reduce((a, b) => a + b, 0) / 3600).toBeCloseTo(27.6, 1);
  });

  it('jitters by at most 20 % either way', () => {
    expect(nextRetryDelayMs(2, [5, 300], () => 0)).toBe(240_000);
    expect(nextRetryDelayMs(2, [5, 300], () => 1)).toBe(360_000);
    const seen = new Set(Array.from({ length: 20 }, () => nextRetryDelayMs(1, [100])));
    expect(seen.size).toBeGreaterThan(1);
  });
});
