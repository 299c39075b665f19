/**
 * The tenant admin console over HTTP, on both engines: admins created through the admin API, sign-in with
 * an e-mailed code read from the development mailbox page, tRPC calls with the session cookie and the CSRF
 * header, the code and session rules, and tenant isolation. PostgreSQL only: session expiry and the audit
 * log, which need direct access to the database (PGlite is held by its server).
 */
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import postgres from 'postgres';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { wrongCode } from './browser';
import { ConsoleClient, consoleCodes, rand, readCode, tenantWithAdmin } from './console-client';
import { Api, servers } from './client';
import { ROOT, type ServerInfo, tempDataDir } from './server';

const exec = promisify(execFile);

describe.each(servers())('console on $name', (server) => {
  const bearer = { authorization: `Bearer ${server.adminToken}` };

  it('creates admins through the admin API: 201, 401 without the token, 404 unknown tenant, 409 taken, 422 invalid', async () => {
    const api = new Api(server);
    const tenant = await api.createTenant();
    const email = `Ops-${rand()}@Example.com`;
    const path = `/v1/admin/tenants/${tenant.tenant_id}/admins`;
    const created = await api.post(path, { email }, bearer);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ data: { admin_id: expect.any(String), tenant_id: tenant.tenant_id, email: email.toLowerCase() } });
    expect((await api.post(path, { email: email.toLowerCase() }, bearer)).status).toBe(409);
    expect((await api.post(path, { email: `x-${rand()}@example.com` }, { authorization: 'Bearer wrong-token-wrong-token' })).status).toBe(401);
    expect((await api.post(path, { email: `x-${rand()}@example.com` })).status).toBe(401);
    expect((await api.post('/v1/admin/tenants/00000000-0000-4000-8000-000000000000/admins', { email: `x-${rand()}@example.com` }, bearer)).status).toBe(404);
    expect((await api.post('/v1/admin/tenants/not-a-uuid/admins', { email: `x-${rand()}@example.com` }, bearer)).status).toBe(404);
    const invalid = await api.post(path, { email: 'not-an-address' }, bearer);
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors[0].path).toBe('email');
  });

  it('signs in with an e-mailed code: same answer for unknown addresses, HttpOnly SameSite=Strict cookie, single use', async () => {
    const { email, tenant } = await tenantWithAdmin(server);
    const c = new ConsoleClient(server);
    const unknownEmail = `nobody-${rand()}@example.com`;
    const known = await c.mutate('auth.requestCode', { email });
    const unknown = await c.mutate('auth.requestCode', { email: unknownEmail });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual(known.body);
    expect(await consoleCodes(server, unknownEmail)).toEqual([]);
    const code = await readCode(server, email);
    expect(code).toMatch(/^\d{6}$/);

    // not signed in yet
    expect((await c.query('auth.me')).status).toBe(401);
    expect((await c.mutate('auth.verifyCode', { email, code: wrongCode(code) })).status).toBe(401);

    const res = await fetch(`${server.baseUrl}/api/trpc/auth.verifyCode`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': c.ip },
      body: JSON.stringify({ email: email.toUpperCase(), code }),
    });
    expect(res.status).toBe(200);
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^memory_console_session=[A-Za-z0-9_-]{43};/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    expect(cookie).not.toContain('Secure'); // plain http here
    c.cookie = cookie.split(';')[0];
    const me = await c.query('auth.me');
    expect(me.status).toBe(200);
    expect(me.body.result.data).toMatchObject({ email, tenant_id: tenant.tenant_id, csrf_token: expect.any(String) });

    // the code works once
    const again = await new ConsoleClient(server).mutate('auth.verifyCode', { email, code });
    expect(again.status).toBe(401);
    expect(again.headers.get('set-cookie')).toBeNull();
  });

  it('kills a code after 5 wrong attempts, replaces it on resend, and throttles sends per address and per IP', async () => {
    const { email } = await tenantWithAdmin(server);
    const c = new ConsoleClient(server);
    await c.mutate('auth.requestCode', { email });
    const first = await readCode(server, email);
    for (let i = 0; i < 5; i++) expect((await c.mutate('auth.verifyCode', { email, code: wrongCode(first) })).status).toBe(401);
    expect((await c.mutate('auth.verifyCode', { email, code: first })).status).toBe(401);

    await c.mutate('auth.requestCode', { email });
    const second = await readCode(server, email);
    await c.mutate('auth.requestCode', { email });
    const third = await readCode(server, email);
    expect((await consoleCodes(server, email)).length).toBe(3);
    if (second !== third) expect((await c.mutate('auth.verifyCode', { email, code: second })).status).toBe(401);

    // 3 sends per address in 10 minutes (from any IP)
    const limited = await new ConsoleClient(server).mutate('auth.requestCode', { email });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await consoleCodes(server, email)).length).toBe(3);
    // the newest code still works
    expect((await c.mutate('auth.verifyCode', { email, code: third })).status).toBe(200);

    // 20 sends per IP in 10 minutes, admin or not
    const ipClient = new ConsoleClient(server);
    for (let i = 0; i < 20; i++) expect((await ipClient.mutate('auth.requestCode', { email: `ip-${i}-${rand()}@example.com` })).status).toBe(200);
    expect((await ipClient.mutate('auth.requestCode', { email: `ip-last-${rand()}@example.com` })).status).toBe(429);
  });

  it('needs the CSRF token on mutations and a matching Origin; sign-out ends the session on the server', async () => {
    const { email } = await tenantWithAdmin(server);
    const c = new ConsoleClient(server);
    await c.signIn(email);
    const csrf = c.csrf as string;

    c.csrf = null;
    const missing = await c.mutate('apiKeys.create', { name: 'no-csrf' });
    expect(missing.status).toBe(403);
    expect(missing.body.error.data.code).toBe('FORBIDDEN');
    const wrong = await c.mutate('apiKeys.create', { name: 'wrong-csrf' }, { 'x-csrf-token': 'x'.repeat(43) });
    expect(wrong.status).toBe(403);
    c.csrf = csrf;
    const host = new URL(server.baseUrl).host;
    const crossOrigin = await c.mutate('apiKeys.create', { name: 'evil' }, { origin: 'https://evil.example' });
    expect(crossOrigin.status).toBe(403);
    expect((await c.query('apiKeys.list', undefined, { origin: 'https://evil.example' })).status).toBe(403);
    const ok = await c.mutate('apiKeys.create', { name: 'console-key' }, { origin: `http://${host}` });
    expect(ok.status).toBe(200);
    expect(ok.body.result.data.api_key).toMatch(/^mem_sk_/);
    const keys = await c.query('apiKeys.list');
    expect(keys.body.result.data.map((k: any) => k.name).sort()).toEqual(['console-key', 'default']);
    expect(JSON.stringify(keys.body)).not.toContain(ok.body.result.data.api_key);
    // the new key works against /v1
    expect((await new Api(server, ok.body.result.data.api_key).get('/v1/tenant/api-keys')).status).toBe(200);

    const session = c.cookie;
    expect((await c.mutate('auth.signOut')).status).toBe(200);
    expect(c.cookie).toBeNull();
    c.cookie = session;
    expect((await c.query('auth.me')).status).toBe(401);
    expect((await c.query('overview.get')).status).toBe(401);
  });

  it('issues a new session token at each sign-in and drops the one the browser presented', async () => {
    const { email } = await tenantWithAdmin(server);
    const c = new ConsoleClient(server);
    await c.signIn(email);
    const first = c.cookie;
    await c.signIn(email);
    expect(c.cookie).not.toBe(first);
    expect((await c.query('auth.me')).status).toBe(200);
    c.cookie = first;
    expect((await c.query('auth.me')).status).toBe(401);
  });

  it('shows an admin only their own tenant: another tenant’s admin sees nothing of tenant A', async () => {
    const a = await tenantWithAdmin(server);
    await a.api.post('/v1/tenant/service-writers', { service_key: 'crm', display_name: 'CRM', authority_rules: { default_priority: 10, categories: {} } });
    const add = await a.api.post('/v1/memories/add', {
      external_user_id: 'alice',
      messages: [{ role: 'user', content: 'I live in Lisbon and I love jazz.' }],
      source: { service: 'crm', event_id: 'evt-1', evidence: [{ source_type: 'ticket', reference: 'ZD-1' }] },
    });
    await a.api.waitForJob(add.body.job_id);
    const aKeys = await a.api.get('/v1/tenant/api-keys');

    const ca = new ConsoleClient(server);
    await ca.signIn(a.email);
    const events = await ca.query('sourceEvents.list', { external_user_id: 'alice', limit: 10 });
    expect(events.status).toBe(200);
    expect(events.body.result.data.items).toHaveLength(1);
    expect(events.body.result.data.items[0]).toMatchObject({ service: 'crm', event_id: 'evt-1', job_status: 'completed', payload_redacted: false });
    const mems = await ca.query('memories.listForUser', { external_user_id: 'alice', status: 'all' });
    const memories = mems.body.result.data.items;
    expect(memories.length).toBeGreaterThan(0);
    const history = await ca.query('memories.history', { memory_id: memories[0].id });
    expect(history.status).toBe(200);
    expect(history.body.result.data[0]).toMatchObject({ memory_id: memories[0].id, action: 'created' });
    const overview = await ca.query('overview.get');
    expect(overview.body.result.data).toMatchObject({ source_events: 1, end_users: 1, service_writers: 1, active_api_keys: 1 });
    expect((await ca.query('writers.list')).body.result.data.map((w: any) => w.service_key)).toEqual(['crm']);

    const b = await tenantWithAdmin(server);
    const cb = new ConsoleClient(server);
    await cb.signIn(b.email);
    expect((await cb.query('sourceEvents.list', { limit: 100 })).body.result.data.items).toEqual([]);
    expect((await cb.query('sourceEvents.list', { external_user_id: 'alice', limit: 100 })).body.result.data.items).toEqual([]);
    expect((await cb.query('memories.listForUser', { external_user_id: 'alice', status: 'all' })).body.result.data.items).toEqual([]);
    const foreignHistory = await cb.query('memories.history', { memory_id: memories[0].id });
    expect(foreignHistory.status).toBe(404);
    expect((await cb.query('writers.list')).body.result.data).toEqual([]);
    expect((await cb.query('apiKeys.list')).body.result.data.map((k: any) => k.name)).toEqual(['default']);
    // settings are the admin's own tenant's: B's change leaves A's as they were
    expect((await ca.mutate('tenantSettings.update', { payload_retention_days: 90 })).status).toBe(200);
    expect((await cb.query('tenantSettings.get')).body.result.data.settings.payload_retention_days).toBe(30);
    expect((await cb.mutate('tenantSettings.update', { payload_retention_days: null })).status).toBe(200);
    expect((await a.api.get('/v1/tenant/settings')).body.data.payload_retention_days).toBe(90);
    expect((await cb.query('reviews.list', { limit: 100 })).body.result.data.items).toEqual([]);
    expect(await cb.query('overview.get').then((r) => r.body.result.data)).toMatchObject({ source_events: 0, end_users: 0, active_memories: 0, service_writers: 0 });
    const foreignRevoke = await cb.mutate('apiKeys.revoke', { key_id: aKeys.body.data[0].id });
    expect(foreignRevoke.status).toBe(404);
    expect(foreignRevoke.body.error.data.apiCode).toBe('not_found');
    // tenant A's key still works
    expect((await a.api.get('/v1/tenant/api-keys')).status).toBe(200);
    // an invalid writer from the console is the domain's PROV_422, mapped to 422
    const badWriter = await cb.mutate('writers.create', {
      service_key: 'x',
      display_name: 'X',
      authority_rules: { default_priority: 1, categories: {} },
      api_key_id: aKeys.body.data[0].id,
    });
    expect(badWriter.status).toBe(422);
    expect(badWriter.body.error.data.apiCode).toBe('PROV_422');
  });
  it('lists, shows and resolves reviews for the admin’s tenant only, mapping domain errors to 404/409/422', async () => {
    const a = await tenantWithAdmin(server);
    const rules = { default_priority: 40, categories: {} };
    for (const service_key of ['web', 'mobile']) {
      await a.api.post('/v1/tenant/service-writers', { service_key, display_name: service_key, authority_rules: rules });
    }
    for (const [service, content] of [['web', 'I live in Lisbon.'], ['mobile', 'I live in Porto.']]) {
      const add = await a.api.post('/v1/memories/add', {
        external_user_id: 'rev',
        messages: [{ role: 'user', content }],
        source: { service, event_id: `${service}-1`, observed_at: '2026-05-01T09:00:00Z' },
      });
      await a.api.waitForJob(add.body.job_id);
    }
    const ca = new ConsoleClient(server);
    await ca.signIn(a.email);
    const open = await ca.query('reviews.list', { status: 'open', limit: 10 });
    expect(open.body.result.data.items).toHaveLength(1);
    const review = open.body.result.data.items[0];
    expect(review.claims).toHaveLength(2);
    const chosen = review.claims[1].id;
    const got = await ca.query('reviews.get', { id: review.id });
    expect(got.body.result.data).toMatchObject({ id: review.id, status: 'open', external_user_id: 'rev' });

    const b = await tenantWithAdmin(server);
    const cb = new ConsoleClient(server);
    await cb.signIn(b.email);
    expect((await cb.query('reviews.get', { id: review.id })).status).toBe(404);
    expect((await cb.mutate('reviews.resolve', { id: review.id, chosen_memory_id: chosen })).status).toBe(404);

    const notAClaim = await ca.mutate('reviews.resolve', { id: review.id, chosen_memory_id: '00000000-0000-4000-8000-000000000000' });
    expect(notAClaim.status).toBe(422);
    expect(notAClaim.body.error.data.fieldErrors[0].path).toBe('chosen_memory_id');
    const resolved = await ca.mutate('reviews.resolve', { id: review.id, chosen_memory_id: chosen, note: 'checked with the user' });
    expect(resolved.status).toBe(200);
    expect(resolved.body.result.data).toMatchObject({
      status: 'resolved',
      resolution_memory_id: chosen,
      resolved_by: `admin:${a.admin.admin_id}`,
      resolution_note: 'checked with the user',
    });
    expect((await ca.mutate('reviews.resolve', { id: review.id, chosen_memory_id: chosen })).status).toBe(409);
    expect((await ca.query('reviews.list', { status: 'open', limit: 10 })).body.result.data.items).toEqual([]);
    const history = await ca.query('memories.history', { memory_id: chosen });
    expect(history.body.result.data.map((r: any) => r.actor)).toContain(`admin:${a.admin.admin_id}`);
  });
});

describe.runIf(servers().some((s) => s.name === 'postgres'))('console sessions and audit on postgres', () => {
  const server = servers().find((s) => s.name === 'postgres') as ServerInfo;
  const sql = postgres(inject('pgDatabaseUrl'), { max: 1, onnotice: () => {} });
  afterAll(() => sql.end({ timeout: 5 }));

  it('ends a session after 30 idle minutes and after 12 hours, and refuses an expired code', async () => {
    const { email, admin } = await tenantWithAdmin(server);
    const c = new ConsoleClient(server);
    await c.signIn(email);
    expect((await c.query('auth.me')).status).toBe(200);
    await sql`UPDATE sessions SET last_seen_at = now() - interval '31 minutes' WHERE subject_id = ${admin.admin_id}`;
    expect((await c.query('auth.me')).status).toBe(401);
    expect((await sql`SELECT 1 FROM sessions WHERE subject_id = ${admin.admin_id}`).length).toBe(0);

    await c.signIn(email);
    await sql`UPDATE sessions SET created_at = now() - interval '12 hours 1 minute', expires_at = now() - interval '1 minute' WHERE subject_id = ${admin.admin_id}`;
    expect((await c.query('auth.me')).status).toBe(401);

    await c.mutate('auth.requestCode', { email });
    const code = await readCode(server, email);
    await sql`UPDATE otp_codes SET expires_at = now() - interval '1 second' WHERE consumed_at IS NULL AND expires_at > now()`;
    expect((await c.mutate('auth.verifyCode', { email, code })).status).toBe(401);
  });

  it('stores codes and sessions only as hashes and audits sign-ins and key changes without secrets', async () => {
    const { email, admin, tenant } = await tenantWithAdmin(server);
    const c = new ConsoleClient(server);
    await c.signIn(email);
    const code = (await consoleCodes(server, email))[0];
    const created = await c.mutate('apiKeys.create', { name: 'audited' });
    const keyId = created.body.result.data.id;
    await c.mutate('apiKeys.revoke', { key_id: keyId });
    await c.mutate('writers.create', { service_key: 'billing', display_name: 'Billing', authority_rules: { default_priority: 5, categories: {} } });
    const settings = await c.mutate('tenantSettings.update', { payload_retention_days: 7, review_before_write: { categories: ['health', 'fact'] } });
    expect(settings.status).toBe(400);
    expect(settings.body.error.data.fieldErrors[0].path).toBe('review_before_write.categories.0');
    const changed = await c.mutate('tenantSettings.update', { payload_retention_days: 7, review_before_write: { categories: ['fact'] } });
    expect(changed.body.result.data).toEqual({ payload_retention_days: 7, review_before_write: { categories: ['fact'], below_authority: null } });
    expect((await c.query('tenantSettings.get')).body.result.data.settings).toEqual(changed.body.result.data);

    const token = (c.cookie as string).split('=')[1];
    const sessions = await sql`SELECT token_hash FROM sessions WHERE subject_id = ${admin.admin_id}`;
    expect(sessions.length).toBe(1);
    expect(sessions[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(sessions[0].token_hash).not.toBe(token);
    const codes = await sql`SELECT code_hash FROM otp_codes WHERE code_hash = ${code}`;
    expect(codes.length).toBe(0);

    const audit = await sql`SELECT actor, action, target_id, details FROM audit_log WHERE tenant_id = ${tenant.tenant_id} ORDER BY created_at, action`;
    expect(audit.map((a) => a.action).sort()).toEqual(['api_key.created', 'api_key.revoked', 'console.sign_in', 'service_writer.created', 'tenant_settings.changed']);
    expect(audit.find((a) => a.action === 'tenant_settings.changed')?.details).toMatchObject({ payload_retention_days_from: 30, payload_retention_days_to: 7 });
    for (const a of audit) expect(a.actor).toBe(`admin:${admin.admin_id}`);
    expect(audit.find((a) => a.action === 'api_key.revoked')?.target_id).toBe(keyId);
    const text = JSON.stringify(audit);
    expect(text).not.toContain(code);
    expect(text).not.toContain(created.body.result.data.api_key);
    expect(text).not.toContain(token);
  });

  it('audits the same changes made over the REST API, naming the API key that made them', async () => {
    const { tenant, api } = await tenantWithAdmin(server);
    const [own] = (await api.get('/v1/tenant/api-keys')).body.data;
    const created = await api.post('/v1/tenant/api-keys', { name: 'second' });
    expect(created.status).toBe(201);
    expect((await api.delete(`/v1/tenant/api-keys/${created.body.data.id}`)).status).toBe(200);
    const writer = await api.post('/v1/tenant/service-writers', { service_key: 'crm', display_name: 'CRM', authority_rules: { default_priority: 5, categories: {} } });
    expect(writer.status).toBe(201);
    const endpoint = await api.post('/v1/tenant/webhooks', { url: 'https://127.0.0.1/hook', event_types: ['job.failed'] });
    expect(endpoint.status).toBe(201);
    expect((await api.request('PATCH', '/v1/tenant/domain-schema', { domain_schema: 'customer_support' })).status).toBe(200);
    // a change that fails leaves no audit entry: it is written in the change's transaction
    expect((await api.delete('/v1/tenant/api-keys/00000000-0000-4000-8000-000000000000')).status).toBe(404);

    const audit = await sql`SELECT actor, action, target_id FROM audit_log WHERE tenant_id = ${tenant.tenant_id}`;
    expect(audit.map((a) => a.action).sort()).toEqual([
      'api_key.created',
      'api_key.revoked',
      'domain_schema.changed',
      'service_writer.created',
      'webhook_endpoint.created',
    ]);
    for (const a of audit) expect(a.actor).toBe(`api_key:${own.id}`);
    expect(audit.find((a) => a.action === 'webhook_endpoint.created')?.target_id).toBe(endpoint.body.data.id);
    expect(JSON.stringify(audit)).not.toContain(endpoint.body.data.secret);
  });
});

describe('admin create from the CLI', () => {
  const dataDir = tempDataDir();
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const cli = (args: string[]) => {
    const env: Record<string, string | undefined> = { ...process.env, MEMORY_DATA_DIR: dataDir };
    delete env.DATABASE_URL;
    delete env.INIT_CWD;
    return exec(process.execPath, [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'packages/cli/src/main.ts', ...args], { cwd: ROOT, env });
  };
  const failure = (p: Promise<unknown>) => p.then(() => null, (err: { code: number; stderr: string }) => err);

  it('prints one JSON line, refuses a taken address (exit 1) and an unknown tenant (exit 1), and checks its arguments (exit 2)', async () => {
    const tenant = JSON.parse((await cli(['tenant', 'create', '--name', 'acme', '--json'])).stdout);
    const { stdout } = await cli(['admin', 'create', '--tenant', tenant.tenant_id, '--email', 'Ada@Example.com', '--json']);
    const lines = stdout.trim().split('\n');
    expect(lines.length).toBe(1);
    expect(JSON.parse(lines[0])).toEqual({ admin_id: expect.any(String), tenant_id: tenant.tenant_id, email: 'ada@example.com' });
    const taken = await failure(cli(['admin', 'create', '--tenant', tenant.tenant_id, '--email', 'ada@example.com', '--json']));
    expect(taken?.code).toBe(1);
    expect(taken?.stderr).toMatch(/already exists/);
    const unknown = await failure(cli(['admin', 'create', '--tenant', '00000000-0000-4000-8000-000000000000', '--email', 'b@example.com']));
    expect(unknown?.code).toBe(1);
    expect(unknown?.stderr).toMatch(/not found/);
    const bad = await failure(cli(['admin', 'create', '--tenant', tenant.tenant_id, '--email', 'nope']));
    expect(bad?.code).toBe(2);
  }, 180_000); // five CLI processes, each starting tsx: about 30 s on an idle two-core machine, much more under load
});
