/**
 * The retry schedule of a delivery (docs/webhooks.md): after a failed attempt n (1-based) the next one waits
 * schedule[n-1] seconds, ±20 % jitter so the retries of many deliveries spread out instead of arriving together
 * at a receiver that just came back. After the last entry there is no further attempt.
 */
export const RETRY_JITTER = 0.2;

/** Seconds after each failed attempt (Standard Webhooks' suggestion): 8 attempts over about 27.6 hours. */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE: readonly number[] = [5, 300, 1_800, 7_200, 18_000, 36_000, 36_000];

export const maxAttempts = (scheduleSeconds: readonly number[]) => scheduleSeconds.length + 1;

/** Milliseconds to wait after failed attempt `attempt`, or null when it was the last one. */
export function nextRetryDelayMs(attempt: number, scheduleSeconds: readonly number[], random = Math.random): number | null {
  const base = scheduleSeconds[attempt - 1];
  if (base === undefined) return null;
  return Math.round(base * 1000 * (1 - RETRY_JITTER + 2 * RETRY_JITTER * random()));
}
