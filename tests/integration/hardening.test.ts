/**
 * Hostile input over real HTTP on both engines (docs/operations.md): bodies bounded while they stream in,
 * text PostgreSQL cannot store refused with 422 naming the field wherever it comes in, unknown paths answered
 * with problem+json, and the readiness probe.
 */
import http from 'node:http';
import { liveness, readiness } from '@memory/core';
import { describe, expect, it } from 'vitest';
import { Api, type ApiResponse, servers, tenantApi } from './client';
import { ConsoleClient } from './console-client';
import type { ServerInfo } from './server';

const LIMIT = 1_048_576;

/**
 * Streams `total` bytes of a JSON-looking body in chunks without a Content-Length and stops writing once a
 * response arrives: the status, the problem body and how many bytes had been written when the answer came.
 */
function streamBody(server: ServerInfo, path: string, headers: Record<string, string>, total: number) {
  return new Promise<{ status: number; body: any; contentType: string; writtenAtResponse: number }>((resolve, reject) => {
    const url = new URL(path, server.baseUrl);
    const req = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked', ...headers } });
    let written = 0;
    let answered = false;
    const chunk = Buffer.alloc(64 * 1024, 'a');
    req.on('response', (res) => {
      answered = true;
      const writtenAtResponse = written;
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(text), contentType: String(res.headers['content-type']), writtenAtResponse });
      });
    });
    // the server may close the connection after answering; only an error before any answer fails the test
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    const pump = () => {
      while (!answered && written < total) {
        const ok = req.write(written === 0 ? Buffer.concat([Buffer.from('{"x":"'), chunk.subarray(6)]) : chunk);
        written += chunk.length;
        if (!ok) {
          req.once('drain', pump);
          return;
        }
      }
      if (!answered) req.end();
    };
    pump();
  });
}

describe.each(servers())('hostile input on $name', (server) => {
  it('cuts a chunked body at the limit with 413 before the client has sent it all, on tenant and unauthenticated endpoints', async () => {
    const { api_key: key } = await new Api(server).createTenant();
    const api = new Api(server).withKey(key);
    const total = 64 * LIMIT;
    for (const [path, headers] of [
      ['/v1/memories/add', { authorization: `ApiKey ${key}` }],
      ['/v1/uui/otp/send', {}],
    ] as const) {
      const r = await streamBody(server, path, headers, total);
      expect(r.status).toBe(413);
      expect(r.contentType).toContain('application/problem+json');
      expect(r.body).toMatchObject({ code: 'payload_too_large', request_id: expect.any(String) });
      // the answer came long before the 64 MiB were sent: the server stopped reading at the limit
      expect(r.writtenAtResponse).toBeLessThan(total);
    }
    // a declared Content-Length over the limit is refused as well, and a body at the limit is read
    const declared = await api.request('POST', '/v1/memories/add', 'x'.repeat(LIMIT + 1));
    expect(declared.status).toBe(413);
    const atLimit = await api.request('POST', '/v1/memories/add', JSON.stringify({ pad: 'y'.repeat(LIMIT - 20) }).slice(0, LIMIT));
    expect(atLimit.status).not.toBe(413);
  });

  it('refuses NUL and unpaired surrogates with 422 naming the field: bodies, keys, query strings and path ids', async () => {
    const api = await tenantApi(server);
    const admin = new Api(server);
    const cases: { name: string; send: () => Promise<ApiResponse>; path: string }[] = [
      {
        name: 'external_user_id in an add',
        send: () => api.post('/v1/memories/add', { external_user_id: 'u\u0000', messages: [{ role: 'user', content: 'I like tea.' }] }),
        path: 'external_user_id',
      },
      {
        name: 'message content with a lone surrogate',
        send: () => api.post('/v1/memories/add', { external_user_id: 'u1', messages: [{ role: 'user', content: 'ok' }, { role: 'user', content: 'bad \uD800 text' }] }),
        path: 'messages[1].content',
      },
      {
        name: 'a metadata key',
        send: () => api.post('/v1/memories/add', { external_user_id: 'u1', messages: [{ role: 'user', content: 'hi' }], metadata: { 'k\u0000': 1 } }),
        path: 'metadata{key 0}',
      },
      { name: 'a retrieve query', send: () => api.post('/v1/memories/retrieve', { external_user_id: 'u1', query: 'where \uDC00' }), path: 'query' },
      { name: 'a query string', send: () => api.get('/v1/memories?external_user_id=%00'), path: 'external_user_id' },
      { name: 'a path id', send: () => api.get('/v1/memories/jobs/%00'), path: 'job_id' },
      { name: 'a path id of a customer', send: () => api.get('/v1/tenant/customers/a%00b'), path: 'external_user_id' },
      { name: 'an unauthenticated sign-in', send: () => admin.post('/v1/uui/otp/send', { email: 'a\u0000@example.com' }), path: 'email' },
      {
        name: 'an admin request',
        send: () => admin.request('POST', '/v1/admin/tenants', { name: 'acme\u0000' }, { authorization: `Bearer ${server.adminToken}` }),
        path: 'name',
      },
    ];
    for (const c of cases) {
      const r = await c.send();
      expect({ name: c.name, status: r.status }).toEqual({ name: c.name, status: 422 });
      expect(r.headers.get('content-type')).toContain('application/problem+json');
      expect(r.body).toMatchObject({ code: 'validation_failed', request_id: expect.any(String) });
      expect(r.body.errors.map((e: { path: string }) => e.path)).toContain(c.path);
    }
    // a paired surrogate (an emoji) is text like any other
    const fine = await api.post('/v1/memories/add', { external_user_id: 'u\u{1F600}', messages: [{ role: 'user', content: 'I love 🍵 tea.' }] });
    expect(fine.status).toBe(200);
  });

  it('applies the same rules to the console: NUL in an input is 422 naming the field, a body over the limit is 413', async () => {
    const consoleClient = new ConsoleClient(server);
    const nul = await consoleClient.mutate('auth.requestCode', { email: 'a\u0000@example.com' });
    expect(nul.status).toBe(422);
    expect(nul.body.error.data).toMatchObject({ apiCode: 'validation_failed', fieldErrors: [{ path: 'email' }] });
    const big = await consoleClient.mutate('auth.requestCode', { email: 'a@example.com', pad: 'x'.repeat(LIMIT) });
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ code: 'payload_too_large', request_id: expect.any(String) });
  });

  it('answers unknown paths under /v1 with problem+json', async () => {
    const api = await tenantApi(server);
    const unknown = await api.get('/v1/no/such/path');
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toContain('application/problem+json');
    expect(unknown.body).toMatchObject({ code: 'not_found', request_id: expect.any(String) });
  });

  it('reports readiness: the database, the job runner and the backlog; liveness stays constant', async () => {
    const live = await new Api(server).get('/v1/health');
    expect(live).toMatchObject({ status: 200, body: { status: 'ok' } });
    const ready = await new Api(server).get('/v1/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({
      status: 'ready',
      database: { status: 'ok', engine: server.name, latency_ms: expect.any(Number) },
      jobs: { mode: 'embedded', runner: 'running', backlog: { depth: expect.any(Number), oldest_wait_seconds: expect.any(Number) } },
    });
    expect(['normal', 'delayed']).toContain(ready.body.jobs.backlog.processing_status);
    // the documented schemas (/v1/openapi.json) describe what is answered
    expect(() => liveness.parse(live.body)).not.toThrow();
    expect(() => readiness.parse(ready.body)).not.toThrow();
  });

  it("runs its jobs' extraction and store preparation on an extraction thread, not the event loop", async () => {
    const api = await tenantApi(server);
    const add = await api.post('/v1/memories/add', {
      external_user_id: 'threaded',
      messages: [{ role: 'user', content: 'I keep bees on my roof in Ghent and my favourite tool is a smoker.' }],
    });
    expect(add.status).toBe(200);
    const job = await api.waitForJob(add.body.job_id);
    expect(job.status).toBe('completed');
    const ready = await new Api(server).get('/v1/health/ready');
    // the add's job called the thread at least twice: extract, then prepare the store step
    expect(ready.body.jobs.threads).toMatchObject({ size: 1, started: 1, failures: 0 });
    expect(ready.body.jobs.threads.calls).toBeGreaterThanOrEqual(2);
  });
});
