/**
 * Limiter math, and the two stores shared by two limiter instances (as two server processes would): the database
 * store on an in-memory PGlite with the real migrations, and the Redis store on the Redis at 127.0.0.1:6379.
 */
import { sql } from '@memory/db';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { useMemoryDatabase } from '../testing/memory-database';
import {
  DatabaseRateLimitStore,
  RateLimiter,
  type RateLimitStore,
  RedisRateLimitStore,
  decide,
  rateLimitHeaders,
  secondsToReset,
  windowStartFor,
  writeRules,
} from './rate-limit';

describe('fixed windows', () => {
  it('aligns windows and counts the seconds to the next one', () => {
    const now = new Date('2026-11-22T10:00:42.300Z');
    expect(windowStartFor(now, 60).toISOString()).toBe('2026-11-22T10:00:00.000Z');
    expect(secondsToReset(now, 60)).toBe(18);
    expect(secondsToReset(new Date('2026-11-22T10:00:59.999Z'), 60)).toBe(1);
    expect(secondsToReset(new Date('2026-11-22T10:01:00.000Z'), 60)).toBe(60);
  });

  it('refuses when any counter is over its limit and reports every policy', () => {
    const rules = writeRules('t1', 'alice', { user_writes_per_minute: 2, tenant_writes_per_minute: 10 });
    expect(rules.map((r) => [r.name, r.key, r.limit])).toEqual([
      ['tenant-writes', 't:t1', 10],
      ['user-writes', 'u:t1:alice', 2],
    ]);
    const now = new Date('2026-11-22T10:00:30.000Z');
    const ok = decide(rules, [5, 2], now, 60);
    expect(ok).toMatchObject({ allowed: true, retryAfterSeconds: 0 });
    expect(rateLimitHeaders(ok)).toEqual({
      'RateLimit-Policy': '"tenant-writes";q=10;w=60, "user-writes";q=2;w=60',
      RateLimit: '"tenant-writes";r=5;t=30, "user-writes";r=0;t=30',
    });
    const refused = decide(rules, [6, 3], now, 60);
    expect(refused).toMatchObject({ allowed: false, retryAfterSeconds: 30 });
    expect(rateLimitHeaders(refused)['Retry-After']).toBe('30');
  });

  it('has no rules (and no headers) without limits', () => {
    expect(writeRules('t1', 'alice', { user_writes_per_minute: null, tenant_writes_per_minute: null })).toEqual([]);
    expect(writeRules('t1', null, { user_writes_per_minute: 5, tenant_writes_per_minute: null })).toEqual([]);
  });
});

/** Two limiters over one store: the fourth write in a window is refused whichever instance counts it. */
async function sharedAcrossInstances(makeStore: () => RateLimitStore) {
  const a = new RateLimiter(makeStore());
  const b = new RateLimiter(makeStore());
  const tenant = crypto.randomUUID();
  const rules = writeRules(tenant, 'alice', { user_writes_per_minute: 3, tenant_writes_per_minute: 100 });
  const now = new Date('2026-11-22T10:00:10.000Z');
  const results = [await a.hit(rules, now), await b.hit(rules, now), await a.hit(rules, now), await b.hit(rules, now)];
  expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
  expect(results[3].retryAfterSeconds).toBe(50);
  expect(results[3].states.find((s) => s.name === 'tenant-writes')).toMatchObject({ limit: 100, remaining: 96 });
  // another user of the same tenant still writes; the next window starts over
  expect((await b.hit(writeRules(tenant, 'bob', { user_writes_per_minute: 3, tenant_writes_per_minute: 100 }), now)).allowed).toBe(true);
  expect((await a.hit(rules, new Date('2026-11-22T10:01:00.000Z'))).allowed).toBe(true);
}

/**
 * Forgetting a user's counter (erasure) removes what the store holds of it in this window and the ones before it
 * that can still be held, and leaves other keys alone: the next hit counts from 1 again.
 */
async function forgetsEveryHeldWindow(store: RateLimitStore, held: (key: string, windowStart: Date) => Promise<boolean>) {
  const limiter = new RateLimiter(store);
  const tenant = crypto.randomUUID();
  const limits = { user_writes_per_minute: 5, tenant_writes_per_minute: 100 };
  const [, user] = writeRules(tenant, 'alice', limits);
  const now = new Date('2026-11-22T10:02:10.000Z');
  const windows = [0, 1, 2].map((back) => new Date(windowStartFor(now, 60).getTime() - back * 60_000));
  for (const w of [...windows].reverse()) await store.increment([user.key, `t:${tenant}`], w, 60);
  await limiter.hit(writeRules(tenant, 'alice', limits), now);
  await limiter.forget([user.key], now);
  for (const w of windows) expect(await held(user.key, w)).toBe(false);
  expect(await held(`t:${tenant}`, windows[0])).toBe(true);
  const again = await limiter.hit(writeRules(tenant, 'alice', limits), now);
  expect(again.states.find((s) => s.name === 'user-writes')).toMatchObject({ remaining: 4 });
  expect(again.states.find((s) => s.name === 'tenant-writes')).toMatchObject({ remaining: 97 });
}

describe('database store', () => {
  const testDatabase = useMemoryDatabase();

  it('is shared by two limiter instances', async () => {
    await sharedAcrossInstances(() => new DatabaseRateLimitStore(testDatabase().db));
  });

  it('forgets a key', async () => {
    const { db } = testDatabase();
    await forgetsEveryHeldWindow(new DatabaseRateLimitStore(db), async (key) => {
      const found = await db.execute(sql`SELECT 1 FROM rate_limit_counters WHERE key = ${key}`);
      return (Array.isArray(found) ? found : (found as { rows: unknown[] }).rows).length > 0;
    });
  });
});

describe('redis store', () => {
  const clients: Redis[] = [];
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.quit()));
  });

  it('is shared by two limiter instances with their own connections', async () => {
    const prefix = `memory-test:${crypto.randomUUID()}:`;
    await sharedAcrossInstances(() => {
      const client = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
      clients.push(client);
      return new RedisRateLimitStore(client, prefix);
    });
  });

  it('forgets a key in every window it can still hold', async () => {
    const prefix = `memory-test:${crypto.randomUUID()}:`;
    const client = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
    clients.push(client);
    await forgetsEveryHeldWindow(new RedisRateLimitStore(client, prefix), async (key, w) => (await client.exists(`${prefix}${key}:${w.getTime()}`)) === 1);
  });
});
