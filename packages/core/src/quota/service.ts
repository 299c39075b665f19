/** The process-wide quota services (rate limiter, backlog monitor) and the write check of the 429 endpoints. */
import type { Db } from '@memory/db';
import { Redis } from 'ioredis';
import type { AppConfig } from '../config';
import { ApiError } from '../errors';
import type { Principal } from '../tenants/tenants';
import { BacklogMonitor } from './backlog';
import type { RateLimitDefaults } from './plans';
import { DatabaseRateLimitStore, type RateLimitDecision, RateLimiter, RedisRateLimitStore, rateLimitHeaders, writeRules } from './rate-limit';
import { flushUsage, readQuotaState } from './usage';

export interface QuotaDeps {
  limiter: RateLimiter;
  backlog: BacklogMonitor;
  rateLimitDefaults: RateLimitDefaults;
  close(): Promise<void>;
}

export function createQuotaDeps(db: Db, config: Pick<AppConfig, 'quota'>): QuotaDeps {
  const redis = config.quota.redisUrl ? new Redis(config.quota.redisUrl, { maxRetriesPerRequest: 2, lazyConnect: false }) : null;
  return {
    limiter: new RateLimiter(redis ? new RedisRateLimitStore(redis) : new DatabaseRateLimitStore(db)),
    backlog: new BacklogMonitor(db, config.quota.backlog),
    rateLimitDefaults: config.quota.rateLimits,
    async close() {
      await flushUsage(db);
      await redis?.quit();
    },
  };
}

/** 429 `rate_limited` with `Retry-After`, `RateLimit` and `RateLimit-Policy`. */
const rateLimitedError = (d: RateLimitDecision) =>
  new ApiError(429, 'rate_limited', `Too many writes. Try again in ${d.retryAfterSeconds} seconds.`, {
    headers: rateLimitHeaders(d),
    fields: { retry_after_seconds: d.retryAfterSeconds },
  });

/**
 * Counts one write of the tenant (and of the end user, when the endpoint names one) against the plan's write
 * rates; over a limit it throws the 429. The add endpoint does not use this: it answers `L1` in its body instead.
 */
export async function enforceWriteRate(db: Db, quota: QuotaDeps, auth: Principal, externalUserId: string | null, now = new Date()) {
  const state = await readQuotaState(db, auth.tenantId, now, quota.rateLimitDefaults);
  const decision = await quota.limiter.hit(writeRules(auth.tenantId, externalUserId, state.plan.rate_limits), now);
  if (!decision.allowed) throw rateLimitedError(decision);
  return decision;
}
