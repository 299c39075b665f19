import { describe, expect, it } from 'vitest';
import { MemoryApiError } from './errors.js';
import { parseRetryAfter, Transport } from './http.js';
import { fakeFetch, json, type Reply } from './testing/fake-fetch.js';

const problem = (status: number, code: string) => json(status, { type: 'about:blank', title: 't', status, detail: `d ${code}`, code, request_id: 'req-1' });

function transport(replies: Reply[], extra: { maxRetries?: number } = {}) {
  const f = fakeFetch(...replies);
  const slept: number[] = [];
  const t = new Transport({
    baseUrl: 'http://memory.test/v1/',
    apiKey: 'mem_sk_x',
    fetch: f.fetch,
    retryDelayMs: 100,
    sleep: async (ms) => void slept.push(ms),
    ...extra,
  });
  return { t, calls: f.calls, slept };
}

describe('Transport', () => {
  it('sends the key, substitutes and encodes path parameters, drops empty query values and unwraps the envelope', async () => {
    const { t, calls } = transport([json(200, { data: { ok: 1 }, request_id: 'r', timestamp: 'x' })]);
    const got = await t.send({ method: 'GET', path: '/v1/things/{id}', params: { id: 'a b/c' }, query: { limit: 5, cursor: undefined, flag: false } });
    expect(got).toEqual({ ok: 1 });
    expect(calls[0].url).toBe('http://memory.test/v1/things/a%20b%2Fc?limit=5&flag=false');
    expect(calls[0].headers.authorization).toBe('ApiKey mem_sk_x');
    expect(calls[0].headers['idempotency-key']).toBeUndefined();
  });

  it('keeps a body whole when it has fields beside data, request_id and timestamp (retrieve)', async () => {
    const retrieved = { data: [{ id: 'm' }], system_prompt_addition: 'x', request_id: 'r', timestamp: 't' };
    const { t } = transport([json(200, retrieved)]);
    expect(await t.send({ method: 'POST', path: '/v1/memories/retrieve', body: {} })).toEqual(retrieved);
  });

  it('returns a body without envelope as it is', async () => {
    const { t } = transport([json(200, { job_id: null, status: 'L2', request_id: 'r' })]);
    expect(await t.send({ method: 'POST', path: '/v1/memories/add', body: {} })).toEqual({ job_id: null, status: 'L2', request_id: 'r' });
  });

  it('retries 429 after Retry-After and 503 with backoff, reusing one Idempotency-Key', async () => {
    const { t, calls, slept } = transport([problem(429, 'rate_limited'), json(503, {}, { 'retry-after': '0' }), problem(503, 'database_unavailable'), json(200, { ok: true })]);
    const ok = await t.send({ method: 'POST', path: '/v1/memories/add', body: { a: 1 }, idempotent: true });
    expect(ok).toEqual({ ok: true });
    expect(calls).toHaveLength(4);
    const keys = new Set(calls.map((c) => c.headers['idempotency-key']));
    expect(keys.size).toBe(1);
    expect([...keys][0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(slept[1]).toBe(0);
    expect(slept[0]).toBeGreaterThanOrEqual(50);
    expect(slept[0]).toBeLessThanOrEqual(100);
    expect(slept[2]).toBeGreaterThanOrEqual(200);
    expect(slept[2]).toBeLessThanOrEqual(400);
    expect(calls.every((c) => c.init.body === '{"a":1}')).toBe(true);
  });

  it('honours Retry-After in seconds, capped by maxRetryDelayMs', async () => {
    const f = fakeFetch(json(429, {}, { 'retry-after': '7' }), json(429, {}, { 'retry-after': '90' }), json(200, {}));
    const slept: number[] = [];
    const t = new Transport({ baseUrl: 'http://m', fetch: f.fetch, maxRetryDelayMs: 60_000, sleep: async (ms) => void slept.push(ms) });
    await t.send({ method: 'GET', path: '/v1/x' });
    expect(slept).toEqual([7000, 60_000]);
  });

  it('uses the caller’s idempotency key', async () => {
    const { t, calls } = transport([json(200, {})]);
    await t.send({ method: 'POST', path: '/v1/memories/add', body: {}, idempotent: true }, { idempotencyKey: 'mine' });
    expect(calls[0].headers['idempotency-key']).toBe('mine');
  });

  it('throws MemoryApiError with the problem code once retries are spent', async () => {
    const { t, calls } = transport([problem(503, 'database_unavailable'), json(503, { code: 'database_unavailable' }, { 'retry-after': '2' })], { maxRetries: 1 });
    const err = await t.send({ method: 'GET', path: '/v1/x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MemoryApiError);
    expect(err).toMatchObject({ status: 503, code: 'database_unavailable', retryAfterSeconds: 2 });
    expect(calls).toHaveLength(2);
  });

  it('maps a problem without retrying other statuses', async () => {
    const { t, calls } = transport([problem(422, 'validation_failed')]);
    const err = (await t.send({ method: 'POST', path: '/v1/x', body: {} }).catch((e: unknown) => e)) as MemoryApiError;
    expect(err).toMatchObject({ name: 'MemoryApiError', status: 422, code: 'validation_failed', detail: 'd validation_failed', requestId: 'req-1' });
    expect(err.problem.code).toBe('validation_failed');
    expect(calls).toHaveLength(1);
  });

  it('names a non-problem error by its status', async () => {
    const { t } = transport([new Response('<html>', { status: 502 })]);
    await expect(t.send({ method: 'GET', path: '/v1/x' })).rejects.toMatchObject({ status: 502, code: 'http_502' });
  });

  it('retries network errors only when the call is safe to repeat', async () => {
    const get = transport([new TypeError('fetch failed'), json(200, { ok: 1 })]);
    expect(await get.t.send({ method: 'GET', path: '/v1/x' })).toEqual({ ok: 1 });
    const keyed = transport([new TypeError('fetch failed'), json(200, { ok: 2 })]);
    expect(await keyed.t.send({ method: 'POST', path: '/v1/x', body: {}, idempotent: true })).toEqual({ ok: 2 });
    const post = transport([new TypeError('fetch failed'), json(200, {})]);
    await expect(post.t.send({ method: 'POST', path: '/v1/x', body: {} })).rejects.toThrow('fetch failed');
    expect(post.calls).toHaveLength(1);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfter('3')).toBe(3);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6);
  });
});
