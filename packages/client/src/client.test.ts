import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryClient } from './client.js';
import { MemoryTimeoutError } from './errors.js';
import { fakeFetch, json } from './testing/fake-fetch.js';
import { JobWaiter } from './webhooks.js';

const env = (data: unknown) => json(200, { data, request_id: 'r', timestamp: 't' });
const job = (status: string) => ({ job_id: 'j1', status, memories_created: status === 'completed' ? 2 : 0 });
const added = (jobId: string | null) => json(200, { job_id: jobId, status: jobId ? 'queued' : 'L2', request_id: 'r' });

function client(...replies: Response[]) {
  const f = fakeFetch(...replies);
  return { c: new MemoryClient({ baseUrl: 'http://m', apiKey: 'k', fetch: f.fetch, sleep: async () => undefined }), calls: f.calls };
}
const noSleep = { sleep: async () => undefined };

describe('MemoryClient', () => {
  it('iterates a paged list to its end, passing next_cursor back as cursor', async () => {
    const { c, calls } = client(
      env({ items: [{ id: 'a' }, { id: 'b' }], limit: 2, next_cursor: 'c1' }),
      env({ items: [{ id: 'c' }], limit: 2, next_cursor: 'c2' }),
      env({ items: [], limit: 2, next_cursor: null }),
    );
    const ids: string[] = [];
    for await (const m of c.memories.iterate({ external_user_id: 'u', limit: 2 })) ids.push(m.id);
    expect(ids).toEqual(['a', 'b', 'c']);
    expect(calls.map((x) => new URL(x.url).search)).toEqual(['?external_user_id=u&limit=2', '?external_user_id=u&limit=2&cursor=c1', '?external_user_id=u&limit=2&cursor=c2']);
  });

  it('iterates customers, whose page names its items `customers`', async () => {
    const { c } = client(env({ customers: [{ external_user_id: 'x' }], next_cursor: null, total: 1 }));
    const got = [];
    for await (const cust of c.support.iterateCustomers()) got.push(cust.external_user_id);
    expect(got).toEqual(['x']);
  });

  it('addAndWait polls the job until its status is final', async () => {
    const { c, calls } = client(added('j1'), env(job('queued')), env(job('running')), env(job('completed')));
    const { add, job: done } = await c.memories.addAndWait({ external_user_id: 'u', messages: [{ role: 'user', content: 'hi' }] }, noSleep);
    expect(add.job_id).toBe('j1');
    expect(done?.status).toBe('completed');
    expect(calls.map((x) => `${x.init.method} ${new URL(x.url).pathname}`)).toEqual([
      'POST /v1/memories/add',
      'GET /v1/memories/jobs/j1',
      'GET /v1/memories/jobs/j1',
      'GET /v1/memories/jobs/j1',
    ]);
    expect(calls[0].headers['idempotency-key']).toBeTruthy();
  });

  it('addAndWait returns no job when nothing was queued', async () => {
    const { c, calls } = client(added(null));
    expect((await c.memories.addAndWait({ external_user_id: 'u', messages: [{ role: 'user', content: 'ok' }] })).job).toBeNull();
    expect(calls).toHaveLength(1);
  });

  it('jobs.wait gives up with MemoryTimeoutError', async () => {
    const { c } = client(env(job('running')), env(job('running')));
    await expect(c.jobs.wait('j1', { timeoutMs: 0, ...noSleep })).rejects.toBeInstanceOf(MemoryTimeoutError);
  });

  it('addAndWait resolves from a webhook delivery, then reads the job once', async () => {
    const { c, calls } = client(added('j1'), env(job('completed')));
    const waiter = new JobWaiter();
    expect(waiter.deliver({ type: 'memory.created', data: { job_id: 'j1' } })).toBe(false);
    const pending = c.memories.addAndWait({ external_user_id: 'u', messages: [{ role: 'user', content: 'hi' }] }, { waiter });
    await new Promise((r) => setTimeout(r, 5));
    expect(waiter.deliver({ type: 'job.completed', timestamp: 't', data: { job_id: 'j1', kind: 'extraction', status: 'completed' } })).toBe(true);
    expect((await pending).job?.status).toBe('completed');
    expect(calls).toHaveLength(2);
  });

  it('a JobWaiter keeps an event that arrives before the wait, and times out otherwise', async () => {
    const waiter = new JobWaiter();
    waiter.deliver({ type: 'job.failed', data: { job_id: 'early', status: 'dead' } });
    expect((await waiter.wait('early', 10)).status).toBe('dead');
    await expect(waiter.wait('never', 1)).rejects.toBeInstanceOf(MemoryTimeoutError);
  });

  it('universal calls send X-Service-UUI and an idempotency_key in the body', async () => {
    const { c, calls } = client(json(200, { job_id: null, status: 'L2', request_id: 'r' }), env({ block: '' }));
    await c.universal.add('mem_uui_t', { messages: [{ role: 'user', content: 'x' }] }, { idempotencyKey: 'k1' });
    await c.universal.retrieve('mem_uui_t', { query: 'q' });
    expect(calls.map((x) => x.headers['x-service-uui'])).toEqual(['mem_uui_t', 'mem_uui_t']);
    expect(JSON.parse(String(calls[0].init.body)).idempotency_key).toBe('k1');
  });
});

describe('the package', () => {
  it('imports nothing at run time but its own files (no dependency beyond fetch and WebCrypto)', () => {
    const dir = import.meta.dirname;
    const sources = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.startsWith('testing'));
    expect(sources).toContain('client.ts');
    for (const f of sources) {
      const text = readFileSync(path.join(dir, f), 'utf8');
      const specifiers = [...text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+'([^']+)'/gm)].map((m) => m[1]);
      expect(specifiers.filter((s) => !s.startsWith('./')), f).toEqual([]);
    }
  });
});
