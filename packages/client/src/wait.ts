/** Waiting for an extraction job to end: by polling its GET, or by a webhook (JobWaiter) and one GET. */
import { MemoryTimeoutError } from './errors.js';
import { defaultSleep } from './http.js';
import type { JobWaiter } from './webhooks.js';

/** The statuses after which a job no longer changes. */
export const FINAL_JOB_STATUSES: readonly string[] = ['completed', 'processed', 'failed', 'dead'];

export interface WaitOptions {
  /** First delay between two polls in milliseconds, growing by half up to 2 s (default 250). */
  pollIntervalMs?: number;
  /** Give up after this long with MemoryTimeoutError (default 120 000). */
  timeoutMs?: number;
  /** Resolve from a webhook delivery instead of polling: the waiter your webhook handler feeds. */
  waiter?: JobWaiter;
  signal?: AbortSignal;
  /** Replaces the timer between polls (tests). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** Polls `get` until the job's status is final (or waits for its webhook, then reads it once). */
export async function waitForJob<J extends { status: string }>(jobId: string, get: () => Promise<J>, opts: WaitOptions = {}): Promise<J> {
  const timeoutMs = opts.timeoutMs ?? 120_000;
  if (opts.waiter) {
    await opts.waiter.wait(jobId, timeoutMs, opts.signal);
    return get();
  }
  const sleep = opts.sleep ?? defaultSleep;
  const deadline = Date.now() + timeoutMs;
  let interval = opts.pollIntervalMs ?? 250;
  for (;;) {
    const job = await get();
    if (FINAL_JOB_STATUSES.includes(job.status)) return job;
    if (Date.now() + interval > deadline) throw new MemoryTimeoutError(`job ${jobId} is still ${job.status} after ${timeoutMs} ms`);
    await sleep(interval, opts.signal);
    interval = Math.min(2_000, Math.round(interval * 1.5));
  }
}
