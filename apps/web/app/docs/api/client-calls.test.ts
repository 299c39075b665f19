/**
 * The TypeScript examples name real @memory/client methods: each listed method, called with the operation's request
 * example against a recording fetch, sends the operation's method, path, query and body (and the X-Service-UUI
 * token); and every operation the client calls is listed, so a new client method shows on the page.
 */
import { readFileSync } from 'node:fs';
import { MemoryClient } from '@memory/client';
import { describe, expect, it } from 'vitest';
import { CLIENT_CALLS, type ClientArg } from './client-calls';
import { type DocumentedOperation, bodyExample, tagGroups } from './model';

const BASE = 'http://memory.test';
const operations = new Map(tagGroups().flatMap((g) => g.operations.map((d) => [d.op.operationId, d] as const)));

interface Sent {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: unknown;
}

function recordingClient() {
  const sent: Sent[] = [];
  const fetch = async (url: string | URL | Request, init?: RequestInit) => {
    sent.push({
      method: init?.method ?? 'GET',
      url: new URL(String(url)),
      headers: init?.headers as Record<string, string>,
      body: init?.body === undefined ? undefined : JSON.parse(String(init.body)),
    });
    return new Response(JSON.stringify({ data: {}, request_id: 'r', timestamp: 't' }), { headers: { 'content-type': 'application/json' } });
  };
  return { client: new MemoryClient({ baseUrl: BASE, apiKey: 'mem_sk_test', fetch, maxRetries: 0 }), sent };
}

function argument(arg: ClientArg, d: DocumentedOperation): unknown {
  if (arg === 'uui') return 'mem_uui_test';
  if (arg === 'body') return bodyExample(d.op);
  if (arg === 'query') return Object.fromEntries((d.op.parameters ?? []).filter((p) => p.in === 'query' && p.example !== undefined).map((p) => [p.name, p.example]));
  return d.op.parameters?.find((p) => p.in === 'path' && p.name === arg.path)?.example;
}

describe('the client method of each TypeScript example', () => {
  it.each(Object.entries(CLIENT_CALLS))('%s: %o', async (operationId, { method, args }) => {
    const d = operations.get(operationId);
    expect(d, `${operationId} is not an operation of the document`).toBeDefined();
    const documented = d as DocumentedOperation;
    const { client, sent } = recordingClient();
    const [group, name] = method.split('.');
    const fn = (client as unknown as Record<string, Record<string, (...a: unknown[]) => Promise<unknown>>>)[group]?.[name];
    expect(typeof fn, `MemoryClient has no ${method}`).toBe('function');
    await fn(...args.map((a) => argument(a, documented)));

    expect(sent).toHaveLength(1);
    const [req] = sent;
    expect(req.method).toBe(documented.method.toUpperCase());
    const params = documented.op.parameters ?? [];
    const path = documented.path.replace(/\{([^}]+)\}/g, (_, n: string) => encodeURIComponent(String(params.find((p) => p.name === n)?.example)));
    expect(req.url.pathname).toBe(path);
    const query = params.filter((p) => p.in === 'query' && p.example !== undefined).map((p) => [p.name, String(p.example)]);
    expect([...req.url.searchParams].sort()).toEqual(query.sort());
    expect(req.body).toEqual(bodyExample(documented.op));
    if (args.includes('uui')) expect(req.headers['x-service-uui']).toBe('mem_uui_test');
  });

  it('lists every operation the client calls', () => {
    const source = readFileSync(new URL('../../../../../packages/client/src/client.ts', import.meta.url), 'utf8');
    const called = [...source.matchAll(/this\.call\(\s*'([A-Za-z]+)'/g)].map(([, id]) => id);
    expect(called.length).toBeGreaterThan(30);
    expect([...new Set(called)].filter((id) => !(id in CLIENT_CALLS))).toEqual([]);
  });
});
