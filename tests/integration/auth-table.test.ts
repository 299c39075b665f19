/**
 * The auth table, read from the generated OpenAPI document: every operation that declares a security scheme
 * refuses a request without credentials, with a wrong key or token, with a revoked key, and with real credentials
 * of every scheme it does not document (a tenant key on an admin operation, an agent key on a tenant operation…)
 * — 401 problem+json, before any parameter or body is looked at. And every operation with an id in its path answers
 * 404 when the id belongs to another tenant (tenant keys) or another passport user (sessions, universal agents),
 * never the resource.
 */
import { describe, expect, it } from 'vitest';
import { Api, type ApiResponse, servers } from './client';
import { connectAgent, signInPassport } from './passport-flow';

const ID = '00000000-0000-4000-8000-000000000000';
const WRITES = new Set(['post', 'put', 'patch']);

type Operation = { security?: Record<string, string[]>[] };
type Doc = { security: Record<string, string[]>[]; paths: Record<string, Record<string, Operation>> };

/** Each operation of the document with its path template and the scheme sets it accepts (`ApiKey+ServiceUui`). */
function operations(doc: Doc) {
  return Object.entries(doc.paths).flatMap(([template, methods]) =>
    Object.entries(methods)
      .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map(([method, op]) => ({
        method,
        template,
        accepts: (op.security ?? doc.security).map((requirement) => Object.keys(requirement).sort().join('+')),
        params: [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]),
      })),
  );
}

/** A 401 problem+json with a request id, or why not. */
const unauthorized = (res: ApiResponse) =>
  res.status === 401 && (res.headers.get('content-type') ?? '').includes('application/problem+json') && res.body?.request_id
    ? null
    : `${res.status} ${JSON.stringify(res.body).slice(0, 120)}`;

/** Sends `method path` with exactly `headers` (an empty JSON object as the body of writes). */
const send = (api: Api, method: string, path: string, headers: Record<string, string>) =>
  api.request(method.toUpperCase(), path, WRITES.has(method) ? {} : undefined, headers);

describe.each(servers())('auth table on $name', (server) => {
  it('refuses every secured operation without credentials, with wrong ones and with a revoked key', async () => {
    const admin = new Api(server);
    const doc = (await admin.get('/v1/openapi.json')).body as { security: Record<string, string[]>[]; paths: Record<string, Record<string, Operation>> };
    // a key that existed and was revoked
    const tenant = await admin.createTenant();
    const api = admin.withKey(tenant.api_key);
    const second = await api.post('/v1/tenant/api-keys', { name: 'to revoke' });
    expect(second.status).toBe(201);
    const revokedKey: string = second.body.data.api_key;
    expect((await api.delete(`/v1/tenant/api-keys/${second.body.data.id}`)).status).toBeLessThan(300);

    const checked: string[] = [];
    const failures: string[] = [];
    for (const [template, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        const security = op.security ?? doc.security;
        if (!security.length) continue;
        const schemes = new Set(security.flatMap((s) => Object.keys(s)));
        const path = template.replace(/\{[^}]+\}/g, ID);
        const variants: [string, Record<string, string>][] = [
          ['no credentials', {}],
          ['a wrong key', { authorization: 'ApiKey mem_sk_wrong0000000000000000000000' }],
          ['a wrong bearer token', { authorization: 'Bearer wrong-token-000000000000000000' }],
        ];
        if (schemes.has('ApiKey')) variants.push(['a revoked key', { authorization: `ApiKey ${revokedKey}` }]);
        if (schemes.has('ServiceUui')) variants.push(['a wrong passport token', { authorization: 'ApiKey mem_ak_wrong000000000000', 'x-service-uui': 'mem_uui_wrong' }]);
        for (const [name, headers] of variants) {
          const res = await fetch(server.baseUrl + path, {
            method: method.toUpperCase(),
            headers: { ...headers, ...(WRITES.has(method) ? { 'content-type': 'application/json' } : {}) },
            body: WRITES.has(method) ? '{}' : undefined,
          });
          const type = res.headers.get('content-type') ?? '';
          const body = type.includes('json') ? await res.json() : await res.text();
          checked.push(`${method} ${template}`);
          if (res.status !== 401 || !type.includes('application/problem+json') || typeof body !== 'object' || !body.request_id) {
            failures.push(`${method.toUpperCase()} ${template} with ${name}: ${res.status} ${JSON.stringify(body).slice(0, 120)}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    // the table is not empty: tenant, admin, agent, passport and universal operations were all checked
    expect(new Set(checked).size).toBeGreaterThan(40);
  });

  it('answers 404 for another tenant’s ids on every tenant-key operation with an id in its path', async () => {
    const admin = new Api(server);
    const doc = (await admin.get('/v1/openapi.json')).body as { security: Record<string, string[]>[]; paths: Record<string, Record<string, Operation>> };
    const a = admin.withKey((await admin.createTenant()).api_key);
    const b = admin.withKey((await admin.createTenant()).api_key);
    // tenant A's resources, one of each kind that has an id in a path
    const endpoint = await a.post('/v1/tenant/webhooks', { url: `${server.baseUrl}/hook-${Date.now()}`, event_types: ['memory.created'] });
    expect(endpoint.status).toBe(201);
    const add = await a.post('/v1/memories/add', { external_user_id: 'owner', messages: [{ role: 'user', content: 'I live in Madrid and I love jazz.' }] });
    await a.waitForJob(add.body.job_id);
    const memories = await a.get('/v1/memories?external_user_id=owner');
    const key = await a.post('/v1/tenant/api-keys', { name: 'second' });
    let delivery: string | undefined;
    for (const deadline = Date.now() + 30_000; !delivery && Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
      delivery = (await a.get(`/v1/tenant/webhooks/${endpoint.body.data.id}/deliveries`)).body.data.items[0]?.id;
    }
    const ids: Record<string, string | undefined> = {
      job_id: add.body.job_id,
      memory_id: memories.body.data.items[0]?.id,
      key_id: key.body.data.id,
      endpoint_id: endpoint.body.data.id,
      delivery_id: delivery,
    };
    for (const [name, id] of Object.entries(ids)) expect(id, name).toBeTruthy();
    // ids no resource of this test carries, each checked where its feature is tested
    const elsewhere: Record<string, string> = {
      review_id: 'conflicts.test.ts: reviews of another tenant are 404',
      external_user_id: 'customer-support.test.ts: another tenant’s customers are never shown; erasure.test.ts: nor erased',
    };

    const checked: string[] = [];
    const failures: string[] = [];
    for (const [template, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        const schemes = new Set((op.security ?? doc.security).flatMap((x) => Object.keys(x)));
        const params = [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
        // tenant-key operations (the universal ones take an agent key with a passport token: universal.test.ts)
        if (!schemes.has('ApiKey') || schemes.has('ServiceUui') || params.length === 0) continue;
        const missing = params.filter((p) => !ids[p]);
        if (missing.length) {
          for (const p of missing) if (!elsewhere[p]) failures.push(`${method.toUpperCase()} ${template}: no resource of tenant A for {${p}}`);
          continue;
        }
        const path = params.reduce((t, p) => t.replace(`{${p}}`, ids[p]!), template);
        const res = await b.request(method.toUpperCase(), path, WRITES.has(method) ? {} : undefined);
        checked.push(`${method.toUpperCase()} ${template}`);
        if (res.status !== 404 || res.body?.code !== 'not_found') failures.push(`${method.toUpperCase()} ${template}: ${res.status} ${JSON.stringify(res.body).slice(0, 160)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(checked.length).toBeGreaterThanOrEqual(8);
    // and tenant A still has everything
    expect((await a.get(`/v1/memories/jobs/${ids.job_id}`)).status).toBe(200);
    expect((await a.get(`/v1/tenant/webhooks/${ids.endpoint_id}`)).status).toBe(200);
  });

  it('refuses real credentials of every scheme an operation does not document', async () => {
    const admin = new Api(server);
    const doc = (await admin.get('/v1/openapi.json')).body as Doc;
    const tenantKey = (await admin.createTenant()).api_key;
    const passport = await signInPassport(server);
    const agent = await connectAgent(passport, { categories: ['fact'], access: 'read_only' }, { tenant: admin.withKey(tenantKey) });
    const session = (await passport.rest()).token!;
    // each credential, with the scheme sets it satisfies (extra headers are ignored where they are not read)
    const credentials: { name: string; headers: Record<string, string>; satisfies: string[] }[] = [
      { name: 'a tenant API key', headers: { authorization: `ApiKey ${tenantKey}` }, satisfies: ['ApiKey'] },
      { name: 'a tenant API key with an X-Service-UUI token', headers: { authorization: `ApiKey ${tenantKey}`, 'x-service-uui': agent.uuiToken }, satisfies: ['ApiKey'] },
      { name: 'the admin token', headers: { authorization: `Bearer ${server.adminToken}` }, satisfies: ['AdminToken'] },
      { name: 'an agent key', headers: { authorization: `ApiKey ${agent.agentKey}` }, satisfies: ['AgentKey'] },
      { name: 'an agent key with its X-Service-UUI token', headers: { authorization: `ApiKey ${agent.agentKey}`, 'x-service-uui': agent.uuiToken }, satisfies: ['AgentKey', 'ApiKey+ServiceUui'] },
      { name: 'a passport session', headers: { authorization: `Bearer ${session}` }, satisfies: ['PassportSession'] },
    ];
    const checked = new Set<string>();
    const failures: string[] = [];
    for (const op of operations(doc)) {
      if (!op.accepts.length) continue;
      const path = op.template.replace(/\{[^}]+\}/g, ID);
      for (const credential of credentials.filter((c) => !c.satisfies.some((s) => op.accepts.includes(s)))) {
        const why = unauthorized(await send(admin, op.method, path, credential.headers));
        checked.add(`${op.method} ${op.template}`);
        if (why) failures.push(`${op.method.toUpperCase()} ${op.template} with ${credential.name}: ${why}`);
      }
    }
    expect(failures).toEqual([]);
    expect(checked.size).toBeGreaterThan(40);
  });

  it('answers 404 for another passport user’s ids on every session and universal operation with an id in its path', async () => {
    const admin = new Api(server);
    const doc = (await admin.get('/v1/openapi.json')).body as Doc;
    // user A: a grant, a connection, universal jobs and a pending question (two agents disagree on where A lives)
    const aPassport = await signInPassport(server);
    const readWrite = { categories: ['fact'], access: 'read_write' } as const;
    const [a, a2] = [await connectAgent(aPassport, readWrite), await connectAgent(aPassport, readWrite)];
    const jobs: string[] = [];
    for (const [agent, content] of [[a, 'I live in Lisbon.'], [a2, 'I live in Porto.']] as const) {
      const added = await agent.add({ messages: [{ role: 'user', content }] });
      expect(added.status, JSON.stringify(added.body)).toBe(200);
      jobs.push(added.body.job_id);
      for (const deadline = Date.now() + 30_000; ; await new Promise((r) => setTimeout(r, 50))) {
        const status = (await agent.job(added.body.job_id)).body.data?.status;
        if (!['queued', 'running'].includes(status)) break;
        if (Date.now() > deadline) throw new Error(`universal job still ${status}`);
      }
    }
    const aSession = await aPassport.rest();
    const questions = await aSession.request('GET', '/v1/uui/me/questions');
    // user B: the same kinds of credentials, nothing else
    const bPassport = await signInPassport(server);
    const b = await connectAgent(bPassport, readWrite);
    const ids: Record<string, string | undefined> = {
      grant_id: a.grantId,
      connection_id: a.issued.connection_id,
      job_id: jobs[0],
      review_id: questions.body.data?.[0]?.id,
      // one of the two conflicting memories (DELETE /v1/uui/me/memories/{memory_id})
      memory_id: questions.body.data?.[0]?.options?.[0]?.memory_id,
    };
    for (const [name, id] of Object.entries(ids)) expect(id, name).toBeTruthy();
    const as: Record<string, Record<string, string>> = {
      PassportSession: { authorization: `Bearer ${(await bPassport.rest()).token}` },
      'ApiKey+ServiceUui': { authorization: `ApiKey ${b.agentKey}`, 'x-service-uui': b.uuiToken },
    };

    const checked: string[] = [];
    const failures: string[] = [];
    for (const op of operations(doc)) {
      const scheme = op.accepts.find((s) => as[s]);
      if (!scheme || op.params.length === 0) continue;
      const missing = op.params.filter((p) => !ids[p]);
      if (missing.length) {
        failures.push(`${op.method.toUpperCase()} ${op.template}: no resource of user A for ${missing.map((p) => `{${p}}`).join(', ')}`);
        continue;
      }
      const path = op.params.reduce((t, p) => t.replace(`{${p}}`, ids[p]!), op.template);
      // a resolve names one of the question's own options, so only the ownership of the question can refuse it
      const body = op.template.endsWith('/resolve') ? { keep_memory_id: questions.body.data[0].options[0].memory_id } : {};
      const res = await admin.request(op.method.toUpperCase(), path, WRITES.has(op.method) ? body : undefined, as[scheme]);
      checked.push(`${op.method.toUpperCase()} ${op.template}`);
      if (res.status !== 404 || res.body?.code !== 'not_found') failures.push(`${op.method.toUpperCase()} ${op.template}: ${res.status} ${JSON.stringify(res.body).slice(0, 160)}`);
    }
    expect(failures).toEqual([]);
    expect(checked.length).toBeGreaterThanOrEqual(4);
    // and user A still has everything
    expect((await a.job(jobs[0])).status).toBe(200);
    expect((await aSession.request('GET', '/v1/uui/me/grants')).body.data.map((g: { id: string }) => g.id)).toContain(ids.grant_id);
    expect((await aSession.request('GET', '/v1/uui/me/questions')).body.data.map((q: { id: string }) => q.id)).toContain(ids.review_id);
    expect((await aSession.request('GET', '/v1/uui/me/memories')).body.data.items.map((m: { id: string }) => m.id)).toContain(ids.memory_id);
  });
});
