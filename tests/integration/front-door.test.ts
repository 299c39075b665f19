/**
 * What the HTTP server (apps/web/server.ts) answers before Next.js (docs/operations.md, "Malformed requests" and
 * "Client addresses and proxies"): undecodable paths, wrong methods and oversized headers as problem+json with a
 * request id, on both engines; and the client address the sign-in throttle counts, from the TCP peer unless a
 * trusted proxy forwarded the request; and response compression, off unless MEMORY_HTTP_COMPRESSION is on.
 */
import { request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servers } from './client';
import { type RunningServer, type ServerInfo, startServer, tempDataDir } from './server';

/** A request through node:http, which sends the path as written (fetch would normalise or refuse it). */
function send(
  server: ServerInfo,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(server.baseUrl), { method, path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers as Record<string, string>, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function expectProblem(res: { status: number; headers: Record<string, string>; body: string }, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toBe('application/problem+json');
  const body = JSON.parse(res.body);
  expect(body).toMatchObject({ status, code });
  expect(body.request_id).toMatch(/^[0-9a-f-]{36}$/);
  expect(res.headers['x-request-id']).toBe(body.request_id);
  return body;
}

describe.each(servers())('the front door on $name', (server) => {
  it('answers 400 invalid_url for a path whose percent-encoding does not decode', async () => {
    for (const path of ['/v1/memories/jobs/%ED%A0%80', '/v1/memories/jobs/%', '/v1/memories/jobs/%zz', '/v1/memories/%C3']) {
      expectProblem(await send(server, 'GET', path), 400, 'invalid_url');
    }
    // dot segments would take the request out of /v1 once resolved
    for (const path of ['/v1/memories/%2e%2e', '/v1/%2E%2e/connect', '/v1/memories/.']) {
      expectProblem(await send(server, 'DELETE', path), 400, 'invalid_url');
    }
    expectProblem(await send(server, 'GET', '/v1'), 404, 'not_found');
    // a query string is parsed leniently (an undecodable escape stays as written): never a 5xx
    const query = await send(server, 'GET', '/v1/memories?user_id=%ED%A0%80&x=%');
    expectProblem(query, 401, 'unauthorized');
  });

  it('answers 405 method_not_allowed with Allow for a method a documented path does not have', async () => {
    const put = await send(server, 'PUT', '/v1/memories/add', { 'content-type': 'application/json' }, '{}');
    const body = expectProblem(put, 405, 'method_not_allowed');
    expect(put.headers.allow).toBe('POST');
    expect(body.instance).toBe('/v1/memories/add');
    const del = await send(server, 'DELETE', '/v1/memories/jobs/00000000-0000-0000-0000-000000000000');
    expectProblem(del, 405, 'method_not_allowed');
    expect(del.headers.allow).toBe('GET, HEAD');
    // a method the path has still reaches the route (401 without a key), and unknown paths the catch-all (404)
    expectProblem(await send(server, 'POST', '/v1/memories/add', { 'content-type': 'application/json' }, '{}'), 401, 'unauthorized');
    expectProblem(await send(server, 'PATCH', '/v1/no/such/path'), 404, 'not_found');
  });

  it('answers 431 headers_too_large as problem+json for headers over 16 KiB', async () => {
    const res = await send(server, 'GET', '/v1/health', { 'x-padding': 'a'.repeat(20_000) });
    expectProblem(res, 431, 'headers_too_large');
  });

  it('keeps reading a body sent behind oversized headers after its 431, so the client is not reset', async () => {
    // a raw socket: the 431 arrives while the client is still sending; the body that follows it must not make
    // the server reset the connection (a client writing then loses the answer: ECONNRESET / EPIPE)
    const { hostname, port } = new URL(server.baseUrl);
    // allowHalfOpen: the client goes on writing after the server's FIN, as an HTTP client sending a body does
    const socket = connect({ port: Number(port), host: hostname, allowHalfOpen: true });
    const errors: string[] = [];
    socket.on('error', (err: Error & { code?: string }) => errors.push(err.code ?? err.message));
    let answer = '';
    const answered = new Promise<void>((resolve) => socket.on('data', (d) => (answer += d.toString()) && resolve()));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(`POST /v1/memories?pad=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2000000\r\n\r\n`);
    await answered;
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    // more of the body, written after the answer, in pieces, as a slow client would
    for (let i = 0; i < 10 && errors.length === 0; i++) {
      await new Promise<void>((resolve) => socket.write(Buffer.alloc(64 * 1024, 120), () => resolve()));
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    socket.end();
    await closed;
    expect(errors).toEqual([]);
    expect(answer).toContain('"code":"headers_too_large"');
  });
});

describe('client addresses behind proxies', () => {
  let direct: RunningServer;
  let proxied: RunningServer;

  beforeAll(async () => {
    [direct, proxied] = await Promise.all([
      startServer('pglite', { MEMORY_DATA_DIR: tempDataDir(), MEMORY_TRUSTED_PROXIES: '' }),
      // (this one also compresses: the last test below)
      startServer('pglite', { MEMORY_DATA_DIR: tempDataDir(), MEMORY_TRUSTED_PROXIES: 'loopback', MEMORY_HTTP_COMPRESSION: 'on' }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([direct?.stop(), proxied?.stop()]);
  });

  /** Sign-in code sends to new addresses with the given X-Forwarded-For; the statuses. */
  async function sends(server: ServerInfo, forwardedFor: (i: number) => string, n: number, tag: string): Promise<number[]> {
    const statuses: number[] = [];
    for (let i = 0; i < n; i++) {
      const res = await fetch(`${server.baseUrl}/v1/uui/otp/send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor(i) },
        body: JSON.stringify({ email: `${tag}-${i}@example.com` }),
      });
      statuses.push(res.status);
    }
    return statuses;
  }

  it('without trusted proxies, X-Forwarded-For does not move a client out of its throttle (20 sends per address)', async () => {
    const statuses = await sends(direct, (i) => `198.51.100.${i + 1}`, 21, 'direct');
    expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true);
    expect(statuses[20]).toBe(429);
  });

  it('behind a trusted proxy, the address it forwarded is the client, and a hop the client prepended is not', async () => {
    // the client prepends a different fake address each time; the proxy (loopback) appended the real one
    const spoofed = await sends(proxied, (i) => `203.0.113.${i + 1}, 198.51.100.7`, 21, 'spoof');
    expect(spoofed.slice(0, 20).every((s) => s === 200)).toBe(true);
    expect(spoofed[20]).toBe(429);
    // another client behind the same proxy has its own count
    expect(await sends(proxied, () => '198.51.100.8', 1, 'other')).toEqual([200]);
  });

  it('compresses responses only when MEMORY_HTTP_COMPRESSION is on (default off)', async () => {
    const asked = { 'accept-encoding': 'gzip' };
    const plain = await send(direct, 'GET', '/v1/openapi.json', asked);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(plain.body).openapi).toMatch(/^3\./);
    const compressed = await send(proxied, 'GET', '/v1/openapi.json', asked);
    expect(compressed.status).toBe(200);
    expect(compressed.headers['content-encoding']).toBe('gzip');
  });
});
