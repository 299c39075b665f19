/**
 * Write-rate limits (docs/quotas.md, Rate limits): fixed windows counted in a shared store, PostgreSQL/PGlite by
 * default or Redis when MEMORY_REDIS_URL is set, so several server processes count into the same counters.
 * Every attempt inside a window counts, refused ones too; the counter starts again at the next window.
 */
import { type Db, rows, sql } from '@memory/db';
import type { Redis } from 'ioredis';

/** One limit to check: the policy name used in the headers, the counter key and its quota per window. */
export interface RateLimitRule {
  name: 'user-writes' | 'tenant-writes';
  key: string;
  limit: number;
}

export interface RateLimitState {
  name: RateLimitRule['name'];
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  reset: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  /** Seconds until a refused write may be retried (the window's end); 0 when allowed. */
  retryAfterSeconds: number;
  windowSeconds: number;
  states: RateLimitState[];
}

/** Increments each key's counter for the window that starts at `windowStart` and returns the new counts in order. */
export interface RateLimitStore {
  readonly kind: 'database' | 'redis';
  increment(keys: string[], windowStart: Date, windowSeconds: number): Promise<number[]>;
  /** Removes the keys' counters of every window still held (erasure: a key can hold an `external_user_id`). */
  forget(keys: string[], now: Date, windowSeconds: number): Promise<void>;
}

export const windowStartFor = (now: Date, windowSeconds: number): Date =>
  new Date(Math.floor(now.getTime() / (windowSeconds * 1000)) * windowSeconds * 1000);

/** Whole seconds until the window ends, at least 1 (a retry in the same second would be refused again). */
export const secondsToReset = (now: Date, windowSeconds: number): number =>
  Math.max(1, Math.ceil((windowStartFor(now, windowSeconds).getTime() + windowSeconds * 1000 - now.getTime()) / 1000));

/** The decision from the counts the store returned: refused when any counter is over its limit. */
export function decide(rules: RateLimitRule[], counts: number[], now: Date, windowSeconds: number): RateLimitDecision {
  const reset = secondsToReset(now, windowSeconds);
  const states = rules.map((r, i) => ({ name: r.name, limit: r.limit, remaining: Math.max(0, r.limit - counts[i]), reset }));
  const allowed = rules.every((r, i) => counts[i] <= r.limit);
  return { allowed, retryAfterSeconds: allowed ? 0 : reset, windowSeconds, states };
}

export class RateLimiter {
  constructor(
    readonly store: RateLimitStore,
    readonly windowSeconds = 60,
  ) {}

  async hit(rules: RateLimitRule[], now = new Date()): Promise<RateLimitDecision> {
    if (rules.length === 0) return { allowed: true, retryAfterSeconds: 0, windowSeconds: this.windowSeconds, states: [] };
    const counts = await this.store.increment(
      rules.map((r) => r.key),
      windowStartFor(now, this.windowSeconds),
      this.windowSeconds,
    );
    return decide(rules, counts, now, this.windowSeconds);
  }

  forget(keys: string[], now = new Date()): Promise<void> {
    return keys.length === 0 ? Promise.resolve() : this.store.forget(keys, now, this.windowSeconds);
  }
}

/**
 * The IETF draft headers (draft-ietf-httpapi-ratelimit-headers), one item per policy:
 * `RateLimit-Policy: "tenant-writes";q=1200;w=60` and `RateLimit: "tenant-writes";r=0;t=12`, plus `Retry-After` when refused.
 */
export function rateLimitHeaders(d: RateLimitDecision): Record<string, string> {
  if (d.states.length === 0) return {};
  const headers: Record<string, string> = {
    'RateLimit-Policy': d.states.map((s) => `"${s.name}";q=${s.limit};w=${d.windowSeconds}`).join(', '),
    RateLimit: d.states.map((s) => `"${s.name}";r=${s.remaining};t=${s.reset}`).join(', '),
  };
  if (!d.allowed) headers['Retry-After'] = String(d.retryAfterSeconds);
  return headers;
}

/** Counters in `rate_limit_counters`: one row per key, reset in place when a newer window begins (one statement). */
export class DatabaseRateLimitStore implements RateLimitStore {
  readonly kind = 'database' as const;
  constructor(private readonly db: Db) {}

  async increment(keys: string[], windowStart: Date, _windowSeconds: number): Promise<number[]> {
    const ws = windowStart.toISOString();
    const result = await rows<{ key: string; count: number }>(
      this.db,
      sql`INSERT INTO rate_limit_counters AS c (key, window_start, count)
          VALUES ${sql.join(
            keys.map((k) => sql`(${k}, ${ws}::timestamptz, 1)`),
            sql`, `,
          )}
          ON CONFLICT (key) DO UPDATE SET
            count = CASE WHEN c.window_start >= excluded.window_start THEN c.count + 1 ELSE 1 END,
            window_start = GREATEST(c.window_start, excluded.window_start)
          RETURNING key, count`,
    );
    const byKey = new Map(result.map((r) => [r.key, Number(r.count)]));
    return keys.map((k) => byKey.get(k) ?? 0);
  }

  async forget(keys: string[]): Promise<void> {
    await this.db.execute(
      sql`DELETE FROM rate_limit_counters WHERE key IN (${sql.join(
        keys.map((k) => sql`${k}`),
        sql`, `,
      )})`,
    );
  }
}

/** Counters in Redis: `INCR` of a key per window, expiring after two windows; one round trip for all keys. */
export class RedisRateLimitStore implements RateLimitStore {
  readonly kind = 'redis' as const;
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'memory:rl:',
  ) {}

  async increment(keys: string[], windowStart: Date, windowSeconds: number): Promise<number[]> {
    const multi = this.redis.multi();
    for (const k of keys) {
      const key = `${this.prefix}${k}:${windowStart.getTime()}`;
      multi.incr(key);
      multi.pexpire(key, windowSeconds * 2000);
    }
    const replies = (await multi.exec()) ?? [];
    return keys.map((_, i) => {
      const [err, value] = replies[i * 2] ?? [new Error('no reply'), null];
      if (err) throw err;
      return Number(value);
    });
  }

  async forget(keys: string[], now: Date, windowSeconds: number): Promise<void> {
    // a window's key lives two windows after its last increment: this window's and the two before it can be held
    const current = windowStartFor(now, windowSeconds).getTime();
    const held = keys.flatMap((k) => [0, 1, 2].map((back) => `${this.prefix}${k}:${current - back * windowSeconds * 1000}`));
    await this.redis.del(...held);
  }
}

/** The per-user and per-tenant write rules for one write (keys carry the tenant id: counters never mix tenants). */
/** The user's write-rate counter key (erasure removes it: it holds the `external_user_id`). */
export const userWriteKey = (tenantId: string, externalUserId: string) => `u:${tenantId}:${externalUserId}`;

export function writeRules(
  tenantId: string,
  externalUserId: string | null,
  limits: { user_writes_per_minute: number | null; tenant_writes_per_minute: number | null },
): RateLimitRule[] {
  const rules: RateLimitRule[] = [];
  if (limits.tenant_writes_per_minute !== null) rules.push({ name: 'tenant-writes', key: `t:${tenantId}`, limit: limits.tenant_writes_per_minute });
  if (externalUserId !== null && limits.user_writes_per_minute !== null) {
    rules.push({ name: 'user-writes', key: userWriteKey(tenantId, externalUserId), limit: limits.user_writes_per_minute });
  }
  return rules;
}
