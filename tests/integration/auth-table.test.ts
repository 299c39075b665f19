/**
 * The auth table, read from the generated OpenAPI document: every operation that declares a security scheme
 * refuses a request without credentials, with a wrong key or token, and (tenant-key operations) with a revoked
 * key — 401 problem+json, before any parameter or body is looked at.
 */
import { describe, expect, it } from 'vitest';
import { Api, servers } from './client';

const ID = '00000000-0000-4000-8000-000000000000';
const WRITES = new Set(['post', 'put', 'patch']);

type Operation = { security?: Record<string, string[]>[] };

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
});
