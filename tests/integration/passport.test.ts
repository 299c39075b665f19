/**
 * The memory passport over HTTP, on both engines: global agents and their public profile, operator-only
 * verification, passport sign-in codes (read from the development mailbox), link tokens through the consent
 * tRPC procedures and the agent's token exchange, grants, connections, erasure and the consent pages' headers.
 * PostgreSQL only: expired link tokens (the test moves `expires_at` into the past in SQL; a PGlite server owns
 * its data directory) and the stored rows after erasure and the universal credential check.
 */
import { createHash } from 'node:crypto';
import { authenticateUniversalAgent } from '@memory/core';
import { createDatabase } from '@memory/db';
import postgres from 'postgres';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { type TrpcResult, wrongCode } from './browser';
import { Api, type ApiResponse, servers, tenantApi } from './client';
import { ConsentBrowser, PassportApi, connectedUser, createAgent, data, exchange, linkToken, passportCodes, rand, readCode } from './passport-flow';
import type { ServerInfo } from './server';

const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');
const PUBLIC_FIELDS = ['default_categories_requested', 'description', 'id', 'is_verified', 'logo_url', 'name', 'website_url'];
const apiCode = (r: TrpcResult) => r.body.error?.data?.apiCode;

describe.each(servers())('passport on $name', (server) => {
  const bearer = { authorization: `Bearer ${server.adminToken}` };

  it('creates a global agent whose key is shown once; the public profile has no tenant and no key; only the operator verifies', async () => {
    const api = await tenantApi(server);
    expect((await new Api(server).post('/v1/agents/global', { name: 'x' })).status).toBe(401);
    const missing = await api.post('/v1/agents/global', { description: 'no name' });
    expect(missing.status).toBe(422);
    expect(missing.body.errors.map((e: any) => e.path)).toContain('name');
    const badRedirect = await api.post('/v1/agents/global', { name: 'x', redirect_uri: 'http://evil.example/cb' });
    expect(badRedirect.status).toBe(422);
    expect(badRedirect.body.errors[0].path).toBe('redirect_uri');
    expect((await api.post('/v1/agents/global', { name: 'x', default_categories_requested: ['bank_details'] })).status).toBe(422);

    const created = await api.post('/v1/agents/global', {
      name: 'Travel Buddy',
      description: 'Plans trips.',
      website_url: 'https://travel.example',
      logo_url: 'https://travel.example/logo.png',
      default_categories_requested: ['preference', 'fact'],
      redirect_uri: 'https://travel.example/passport/done',
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    const agent = created.body.data;
    expect(agent).toMatchObject({ id: expect.any(String), name: 'Travel Buddy', default_categories_requested: ['fact', 'preference'], is_verified: false });
    expect(agent.raw_agent_api_key).toMatch(/^mem_ak_[A-Za-z0-9_-]{43}$/);

    const profile = await new Api(server).get(`/v1/agents/global/${agent.id}`);
    expect(profile.status).toBe(200);
    expect(Object.keys(profile.body.data).sort()).toEqual(PUBLIC_FIELDS);
    expect(profile.body.data).toEqual({
      id: agent.id,
      name: 'Travel Buddy',
      description: 'Plans trips.',
      logo_url: 'https://travel.example/logo.png',
      website_url: 'https://travel.example',
      is_verified: false,
      default_categories_requested: ['fact', 'preference'],
    });
    const text = JSON.stringify(profile.body);
    expect(text).not.toContain(agent.raw_agent_api_key);
    expect(text).not.toContain('tenant');
    expect(text).not.toContain('redirect');
    expect((await new Api(server).get('/v1/agents/global/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await new Api(server).get('/v1/agents/global/not-a-uuid')).status).toBe(404);

    // the tenant cannot verify its own agent; the operator can
    expect((await api.post(`/v1/admin/agents/${agent.id}/verify`, {})).status).toBe(401);
    expect((await api.post(`/v1/admin/agents/${agent.id}/verify`, {}, { authorization: 'Bearer wrong-token-wrong-token' })).status).toBe(401);
    expect((await new Api(server).get(`/v1/agents/global/${agent.id}`)).body.data.is_verified).toBe(false);
    const verified = await api.post(`/v1/admin/agents/${agent.id}/verify`, {}, bearer);
    expect(verified.status).toBe(200);
    expect(verified.body.data.is_verified).toBe(true);
    expect((await new Api(server).get(`/v1/agents/global/${agent.id}`)).body.data.is_verified).toBe(true);
    expect((await api.post('/v1/admin/agents/00000000-0000-4000-8000-000000000000/verify', {}, bearer)).status).toBe(404);

    // the public directory lists it, with the public fields only
    let found: any = null;
    let cursor: string | null = null;
    for (let page = 0; page < 50 && !found; page++) {
      const dir: ApiResponse<any> = await new Api(server).get(`/v1/uui/organisations?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
      expect(dir.status).toBe(200);
      for (const item of dir.body.data.items) expect(Object.keys(item).sort()).toEqual(PUBLIC_FIELDS);
      found = dir.body.data.items.find((i: any) => i.id === agent.id) ?? null;
      cursor = dir.body.data.next_cursor;
      if (!cursor) break;
    }
    expect(found).toMatchObject({ name: 'Travel Buddy', is_verified: true });
  });

  it('binds a link token to the tenant’s own agent, lets the user approve once and the agent exchange once', async () => {
    const api = await tenantApi(server);
    const agent = await createAgent(api, { redirect_uri: 'https://app.example.com/passport/done' });
    const sibling = await createAgent(api);
    const other = await tenantApi(server);

    const foreign = await other.post('/v1/tenant/memory-passport/link-token', { agent_id: agent.id, external_user_id: 'u-1' });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('not_found');
    expect((await api.post('/v1/tenant/memory-passport/link-token', { agent_id: '00000000-0000-4000-8000-000000000000', external_user_id: 'u-1' })).status).toBe(404);
    expect((await new Api(server).post('/v1/tenant/memory-passport/link-token', { agent_id: agent.id, external_user_id: 'u-1' })).status).toBe(401);
    expect((await api.post('/v1/tenant/memory-passport/link-token', { agent_id: agent.id })).status).toBe(422);

    const created = await api.post('/v1/tenant/memory-passport/link-token', { agent_id: agent.id, external_user_id: 'customer-000123456' });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ link_token: expect.stringMatching(/^mem_lt_[A-Za-z0-9_-]{43}$/), expires_in_seconds: 600 });
    const token = created.body.data.link_token;
    // the ready-made consent link: this service's own address when MEMORY_CONSENT_URL is not set
    const connect = new URL(created.body.data.connect_url);
    expect(`${connect.origin}${connect.pathname}`).toBe(`${server.baseUrl}/connect`);
    expect(Object.fromEntries(connect.searchParams)).toEqual({ agent_id: agent.id, link_token: token });

    const browser = new ConsentBrowser(server);
    const described = await browser.query('linkRequest', { agentId: agent.id, linkToken: token });
    expect(described.status).toBe(200);
    expect(data(described).status).toBe('pending');
    expect(Object.keys(data(described).agent).sort()).toEqual(PUBLIC_FIELDS);
    expect(data(described).agent.default_categories_requested).toEqual(['fact', 'preference']);
    expect(data(described).categories).toHaveLength(7);
    expect(data(described).categories[0]).toEqual({ value: 'fact', label: expect.any(String), description: expect.any(String) });
    // the token is bound to its agent: with another agent id it is invalid
    expect(data(await browser.query('linkRequest', { agentId: sibling.id, linkToken: token })).status).toBe('invalid');
    expect(data(await browser.query('linkRequest', { agentId: agent.id, linkToken: 'mem_lt_nope' })).status).toBe('invalid');

    // the agent cannot exchange before the user answers
    const early = await exchange(server, agent.raw_agent_api_key, token);
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('link_token_pending');
    expect(Number(early.headers.get('retry-after'))).toBeGreaterThan(0);

    // approving needs a passport session, the CSRF header and the same origin
    expect((await browser.mutate('approveLink', { agentId: agent.id, linkToken: token, categories: ['fact'], accessType: 'read_only' })).status).toBe(401);
    const signedIn = await browser.signIn(`Link-${rand()}@Example.com`);
    const cookie = signedIn.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^mem_passport=mem_ps_[A-Za-z0-9_-]{43};/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).not.toContain('Secure');
    const session = await browser.query('session');
    expect(data(session)).toEqual({ signedIn: true, email: expect.stringMatching(/^link-.*@example\.com$/), csrfToken: browser.csrf });
    const input = { agentId: agent.id, linkToken: token, categories: ['goal', 'fact'], accessType: 'read_only' };
    expect((await browser.mutate('approveLink', input, { 'x-csrf-token': 'x'.repeat(43) })).status).toBe(403);
    expect((await browser.mutate('approveLink', input, { origin: 'https://evil.example' })).status).toBe(403);
    const approved = await browser.mutate('approveLink', input);
    expect(approved.status).toBe(200);
    expect(data(approved)).toEqual({ redirectTo: 'https://app.example.com/passport/done' });
    expect(data(await browser.query('linkRequest', { agentId: agent.id, linkToken: token })).status).toBe('approved');

    // a second approval of the same token is refused
    const again = await browser.mutate('approveLink', input);
    expect(again.status).toBe(409);
    expect(apiCode(again)).toBe('link_token_used');

    // another agent's key, the tenant key, no key: refused
    const wrongAgent = await exchange(server, sibling.raw_agent_api_key, token);
    expect(wrongAgent.status).toBe(404);
    expect(wrongAgent.body.code).toBe('link_token_invalid');
    expect((await exchange(server, (api as any).key, token)).status).toBe(401);
    expect((await new Api(server).post('/v1/agents/passport-token', { link_token: token })).status).toBe(401);

    const issued = await exchange(server, agent.raw_agent_api_key, token);
    expect(issued.status).toBe(200);
    expect(issued.headers.get('cache-control')).toBe('no-store');
    expect(issued.body.data).toEqual({
      uui_token: expect.stringMatching(/^mem_uui_[A-Za-z0-9_-]{43}$/),
      token_type: 'X-Service-UUI',
      connection_id: expect.any(String),
      external_user_id: 'customer-000123456',
      categories: ['fact', 'goal'],
      access_type: 'read_only',
    });
    // replay of the exchange is refused; the consent page now says "used"
    const replay = await exchange(server, agent.raw_agent_api_key, token);
    expect(replay.status).toBe(409);
    expect(replay.body.code).toBe('link_token_used');
    expect(data(await browser.query('linkRequest', { agentId: agent.id, linkToken: token })).status).toBe('used');

    // the consent app sees the grant and the connection, with only a hint of the tenant's user id
    const grants = data(await browser.query('grants'));
    expect(grants).toEqual([
      {
        id: expect.any(String),
        agent: { id: agent.id, name: agent.name, logo_url: '', is_verified: false },
        categories: ['fact', 'goal'],
        accessType: 'read_only',
        updatedAt: expect.any(String),
      },
    ]);
    expect(data(await browser.query('connections'))).toEqual([
      { id: issued.body.data.connection_id, agent: { id: agent.id, name: agent.name }, externalUserIdHint: '…3456', createdAt: expect.any(String) },
    ]);

    // no tRPC answer carried a tenant key, agent key, tenant id or the external user id
    const all = browser.seen.join('\n');
    expect(all).not.toContain('mem_sk_');
    expect(all).not.toContain('mem_ak_');
    expect(all).not.toContain('customer-000123456');
    expect(all).not.toMatch(/tenant/i);
  });

  it('declines a link: redirect or null, the exchange is refused, and the decision cannot be changed', async () => {
    const api = await tenantApi(server);
    const agent = await createAgent(api); // redirect_uri '' (the default)
    const token = await linkToken(api, agent.id, 'u-decline');
    const browser = new ConsentBrowser(server);
    const declined = await browser.mutate('declineLink', { agentId: agent.id, linkToken: token });
    expect(declined.status).toBe(200);
    expect(data(declined)).toEqual({ redirectTo: null });
    expect(data(await browser.mutate('declineLink', { agentId: agent.id, linkToken: token }))).toEqual({ redirectTo: null });
    expect(data(await browser.query('linkRequest', { agentId: agent.id, linkToken: token })).status).toBe('declined');
    const refused = await exchange(server, agent.raw_agent_api_key, token);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('link_token_declined');
    await browser.signIn(`decline-${rand()}@example.com`);
    const late = await browser.mutate('approveLink', { agentId: agent.id, linkToken: token, categories: ['fact'], accessType: 'read_only' });
    expect(late.status).toBe(403);
    expect(apiCode(late)).toBe('link_token_declined');
    expect(data(await browser.query('grants'))).toEqual([]);

    const withRedirect = await createAgent(api, { redirect_uri: 'http://localhost:5173/cb?step=done' });
    const t2 = await linkToken(api, withRedirect.id, 'u-decline');
    expect(data(await browser.mutate('declineLink', { agentId: withRedirect.id, linkToken: t2 }))).toEqual({ redirectTo: 'http://localhost:5173/cb?step=done' });
  });

  it('signs in with codes: the same answer for unknown addresses, 5 tries per code, single use, throttled per address and IP', async () => {
    const c = new PassportApi(server);
    const known = `known-${rand()}@example.com`;
    const registered = await c.request('POST', '/v1/uui/register', { email: known });
    expect(registered.status).toBe(200);
    const again = await c.request('POST', '/v1/uui/register', { email: known.toUpperCase() });
    const unknown = await c.request('POST', '/v1/uui/otp/send', { email: `new-${rand()}@example.com` });
    for (const r of [again, unknown]) {
      expect(r.status).toBe(200);
      expect(r.body.data).toEqual(registered.body.data);
    }
    expect(registered.body.data).toEqual({ sent: true, expires_in_seconds: 600 });
    expect((await c.request('POST', '/v1/uui/otp/send', { email: 'not-an-address' })).status).toBe(422);

    // the newest code replaced the first; 5 wrong tries kill it
    const codes = await passportCodes(server, known);
    expect(codes).toHaveLength(2);
    const code = codes[0];
    for (let i = 0; i < 5; i++) expect((await c.request('POST', '/v1/uui/otp/verify', { email: known, code: wrongCode(code) })).status).toBe(401);
    const dead = await c.request('POST', '/v1/uui/otp/verify', { email: known, code });
    expect(dead.status).toBe(401);
    expect(dead.body.code).toBe('unauthorized');
    const noCode = await c.request('POST', '/v1/uui/otp/verify', { email: `never-${rand()}@example.com`, code: '123456' });
    expect(noCode.status).toBe(401);
    expect(noCode.body.detail).toBe(dead.body.detail);

    // the third send for the address; a fourth in 10 minutes is throttled
    expect((await c.request('POST', '/v1/uui/otp/send', { email: known })).status).toBe(200);
    const limited = await new PassportApi(server).request('POST', '/v1/uui/otp/send', { email: known });
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    const fresh = await readCode(server, known);
    const ok = await c.request('POST', '/v1/uui/otp/verify', { email: known, code: fresh });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ session_token: expect.stringMatching(/^mem_ps_/), token_type: 'Bearer', idle_timeout_seconds: 86_400 });
    expect(ok.body.data.passport.email).toBe(known);
    expect((await c.request('POST', '/v1/uui/otp/verify', { email: known, code: fresh })).status).toBe(401);

    c.token = ok.body.data.session_token;
    const me = await c.request('GET', '/v1/uui/me');
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ id: ok.body.data.passport.id, email: known });
    c.token = 'mem_ps_unknown';
    const bad = await c.request('GET', '/v1/uui/me');
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toBe('Bearer');
    c.token = null;
    expect((await c.request('GET', '/v1/uui/me/grants')).status).toBe(401);

    // 20 sends per IP in 10 minutes, whatever the address
    const ipClient = new PassportApi(server);
    for (let i = 0; i < 20; i++) expect((await ipClient.request('POST', '/v1/uui/otp/send', { email: `ip-${i}-${rand()}@example.com` })).status).toBe(200);
    expect((await ipClient.request('POST', '/v1/uui/otp/send', { email: `ip-last-${rand()}@example.com` })).status).toBe(429);
  });

  it('creates, updates, lists and revokes grants; another user’s grant is 404', async () => {
    const api = await tenantApi(server);
    const agent = await createAgent(api);
    const alice = new PassportApi(server);
    await alice.signIn(`alice-${rand()}@example.com`);
    const bob = new PassportApi(server);
    await bob.signIn(`bob-${rand()}@example.com`);

    const created = await alice.request('POST', '/v1/uui/me/grants', { agent_id: agent.id, categories: ['goal', 'fact'], access_type: 'read_only' });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ agent: { id: agent.id, name: agent.name }, categories: ['fact', 'goal'], access_type: 'read_only', status: 'active' });
    expect(Object.keys(created.body.data.agent).sort()).toEqual(PUBLIC_FIELDS);
    const updated = await alice.request('POST', '/v1/uui/me/grants', { agent_id: agent.id, categories: ['preference'], access_type: 'read_write' });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ id: created.body.data.id, categories: ['preference'], access_type: 'read_write' });
    expect((await alice.request('POST', '/v1/uui/me/grants', { agent_id: agent.id, categories: [], access_type: 'read_write' })).status).toBe(422);
    expect((await alice.request('POST', '/v1/uui/me/grants', { agent_id: '00000000-0000-4000-8000-000000000000', categories: ['fact'], access_type: 'read_only' })).status).toBe(404);

    const listed = await alice.request('GET', '/v1/uui/me/grants');
    expect(listed.body.data.map((g: any) => g.id)).toEqual([created.body.data.id]);
    expect((await bob.request('GET', '/v1/uui/me/grants')).body.data).toEqual([]);
    expect((await bob.request('DELETE', `/v1/uui/me/grants/${created.body.data.id}`)).status).toBe(404);
    expect((await alice.request('DELETE', '/v1/uui/me/grants/not-a-uuid')).status).toBe(404);

    const revoked = await alice.request('DELETE', `/v1/uui/me/grants/${created.body.data.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.data).toEqual({ id: created.body.data.id, status: 'revoked' });
    expect((await alice.request('GET', '/v1/uui/me/grants')).body.data).toEqual([]);
    // granting again re-activates the same grant
    const regranted = await alice.request('POST', '/v1/uui/me/grants', { agent_id: agent.id, categories: ['fact'], access_type: 'read_only' });
    expect(regranted.status).toBe(200);
    expect(regranted.body.data).toMatchObject({ id: created.body.data.id, status: 'active' });
  });

  it('lists and disconnects connections (REST and tRPC); another user’s connection is 404', async () => {
    const { browser, issued, agent } = await connectedUser(server, 'acct-9f8e7d6c5b');
    const other = new PassportApi(server);
    await other.signIn(`other-${rand()}@example.com`);
    expect((await other.request('DELETE', `/v1/uui/me/connections/${issued.connection_id}`)).status).toBe(404);
    expect((await new ConsentBrowser(server).query('connections')).status).toBe(401);

    const owner = new PassportApi(server);
    // the REST session of the same person (a second sign-in) sees the same connection
    const email = data(await browser.query('session')).email;
    await owner.signIn(email);
    const list = await owner.request('GET', '/v1/uui/me/connections');
    expect(list.body.data).toEqual([
      { id: issued.connection_id, agent: { id: agent.id, name: agent.name, logo_url: '', is_verified: false }, external_user_id_hint: '…6c5b', created_at: expect.any(String) },
    ]);
    expect(JSON.stringify(list.body)).not.toContain('acct-9f8e7d6c5b');

    expect((await browser.mutate('disconnect', { connectionId: issued.connection_id }, { 'x-csrf-token': '' })).status).toBe(403);
    const done = await browser.mutate('disconnect', { connectionId: issued.connection_id });
    expect(done.status).toBe(200);
    expect(data(done)).toEqual({ id: issued.connection_id, disconnected: true });
    expect((await owner.request('GET', '/v1/uui/me/connections')).body.data).toEqual([]);
    // disconnecting again answers the same; the grant stays until revoked
    expect((await owner.request('DELETE', `/v1/uui/me/connections/${issued.connection_id}`)).status).toBe(200);
    expect((await owner.request('GET', '/v1/uui/me/grants')).body.data).toHaveLength(1);
    const [grant] = data(await browser.query('grants'));
    const revoked = await browser.mutate('revokeGrant', { grantId: grant.id });
    expect(data(revoked)).toEqual({ id: grant.id, status: 'revoked' });
    expect(data(await browser.query('grants'))).toEqual([]);
  });

  it('deletes a passport: grants, connections and sessions are gone, and the next sign-in starts empty', async () => {
    const { browser, email } = await connectedUser(server);
    const rest = new PassportApi(server);
    await rest.signIn(email);
    const before = await rest.request('GET', '/v1/uui/me');
    expect((await rest.request('GET', '/v1/uui/me/grants')).body.data).toHaveLength(1);

    expect((await browser.mutate('deletePassport', { confirm: 'yes' })).status).toBe(400);
    expect((await browser.mutate('deletePassport', { confirm: 'DELETE MY PASSPORT' }, { 'x-csrf-token': 'nope' })).status).toBe(403);
    const deleted = await rest.request('DELETE', '/v1/uui/me');
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({ id: before.body.data.id, deleted: true });

    // every session of the passport ended: REST and the browser cookie
    expect((await rest.request('GET', '/v1/uui/me')).status).toBe(401);
    expect(data(await browser.query('session'))).toEqual({ signedIn: false });
    expect((await browser.query('grants')).status).toBe(401);

    await rest.signIn(email);
    const after = await rest.request('GET', '/v1/uui/me');
    expect(after.body.data.id).not.toBe(before.body.data.id);
    expect((await rest.request('GET', '/v1/uui/me/grants')).body.data).toEqual([]);
    expect((await rest.request('GET', '/v1/uui/me/connections')).body.data).toEqual([]);

    // and from the consent app, with the typed confirmation; the cookie is cleared
    const b2 = new ConsentBrowser(server);
    await b2.signIn(email);
    const gone = await b2.mutate('deletePassport', { confirm: 'DELETE MY PASSPORT' });
    expect(gone.status).toBe(200);
    expect(b2.cookie).toBeNull();
    expect((await rest.request('GET', '/v1/uui/me')).status).toBe(401);
  });

  it('sends the consent and passport pages with no framing allowed', async () => {
    for (const path of ['/connect?agent_id=x&link_token=y', '/passport']) {
      const res = await fetch(`${server.baseUrl}${path}`);
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    }
  });

  it('documents every passport path in the OpenAPI document', async () => {
    const doc = await new Api(server).get('/v1/openapi.json');
    for (const path of [
      '/v1/agents/global',
      '/v1/agents/global/{agent_id}',
      '/v1/admin/agents/{agent_id}/verify',
      '/v1/tenant/memory-passport/link-token',
      '/v1/agents/passport-token',
      '/v1/uui/register',
      '/v1/uui/otp/send',
      '/v1/uui/otp/verify',
      '/v1/uui/me',
      '/v1/uui/me/grants',
      '/v1/uui/me/grants/{grant_id}',
      '/v1/uui/organisations',
      '/v1/uui/me/connections',
      '/v1/uui/me/connections/{connection_id}',
    ]) {
      expect(doc.body.paths[path], path).toBeDefined();
    }
    expect(doc.body.paths['/v1/agents/global/{agent_id}'].get.security).toEqual([]);
  });
});

describe.runIf(servers().some((s) => s.name === 'postgres'))('passport storage, expiry and universal credentials on postgres', () => {
  const server = servers().find((s) => s.name === 'postgres') as ServerInfo;
  const url = inject('pgDatabaseUrl');
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const database = createDatabase({ kind: 'postgres', url, poolSize: 2 });
  afterAll(async () => {
    await sql.end({ timeout: 5 });
    await database.close();
  });

  it('refuses an expired link token on the consent page and at the exchange', async () => {
    const api = await tenantApi(server);
    const agent = await createAgent(api);
    const browser = new ConsentBrowser(server);
    await browser.signIn(`expiry-${rand()}@example.com`);

    const unanswered = await linkToken(api, agent.id, 'u-exp');
    await sql`UPDATE link_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = ${sha256(unanswered)}`;
    expect(data(await browser.query('linkRequest', { agentId: agent.id, linkToken: unanswered })).status).toBe('expired');
    const late = await browser.mutate('approveLink', { agentId: agent.id, linkToken: unanswered, categories: ['fact'], accessType: 'read_only' });
    expect(apiCode(late)).toBe('link_token_expired');
    expect(data(await browser.query('grants'))).toEqual([]);

    const approvedLate = await linkToken(api, agent.id, 'u-exp');
    expect((await browser.mutate('approveLink', { agentId: agent.id, linkToken: approvedLate, categories: ['fact'], accessType: 'read_only' })).status).toBe(200);
    await sql`UPDATE link_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = ${sha256(approvedLate)}`;
    const refused = await exchange(server, agent.raw_agent_api_key, approvedLate);
    expect(refused.status).toBe(410);
    expect(refused.body.code).toBe('link_token_expired');

    // stored as hashes only
    const stored = await sql`SELECT token_hash, status FROM link_tokens WHERE agent_id = ${agent.id} ORDER BY created_at`;
    expect(stored.map((r) => r.status)).toEqual(['pending', 'approved']);
    expect(JSON.stringify(stored)).not.toContain('mem_lt_');
  });

  it('checks universal credentials: agent key, X-Service-UUI token of that agent, live connection, active grant', async () => {
    const { api, agent, browser, issued } = await connectedUser(server);
    const key = agent.raw_agent_api_key;
    const ok = await authenticateUniversalAgent(database.db, key, issued.uui_token);
    const [{ passport_user_id }] = await sql`SELECT passport_user_id FROM passport_connections WHERE id = ${issued.connection_id}`;
    expect(ok).toEqual({
      agent: { id: agent.id, tenantId: expect.any(String), name: agent.name },
      passportUserId: passport_user_id,
      grant: { id: expect.any(String), categories: ['fact', 'goal'], accessType: 'read_write' },
    });
    const sibling = await createAgent(api);
    const failure = (p: Promise<unknown>) => p.then(() => null, (e: { status: number; code: string }) => ({ status: e.status, code: e.code }));
    expect(await failure(authenticateUniversalAgent(database.db, sibling.raw_agent_api_key, issued.uui_token))).toEqual({ status: 403, code: 'uui_token_agent_mismatch' });
    expect(await failure(authenticateUniversalAgent(database.db, 'mem_ak_wrong', issued.uui_token))).toEqual({ status: 401, code: 'unauthorized' });
    expect(await failure(authenticateUniversalAgent(database.db, key, 'mem_uui_unknown'))).toEqual({ status: 401, code: 'uui_token_invalid' });
    expect(await failure(authenticateUniversalAgent(database.db, key, ''))).toEqual({ status: 401, code: 'uui_token_invalid' });

    // a revoked grant: the token still names the user, the grant is null
    const [grant] = data(await browser.query('grants'));
    await browser.mutate('revokeGrant', { grantId: grant.id });
    expect((await authenticateUniversalAgent(database.db, key, issued.uui_token)).grant).toBeNull();
    // disconnected: the token stops working at once
    await browser.mutate('disconnect', { connectionId: issued.connection_id });
    expect(await failure(authenticateUniversalAgent(database.db, key, issued.uui_token))).toEqual({ status: 401, code: 'uui_token_invalid' });
    const tokens = await sql`SELECT token_hash, revoked_at FROM uui_tokens WHERE connection_id = ${issued.connection_id}`;
    expect(tokens).toHaveLength(1);
    expect(tokens[0].token_hash).toBe(sha256(issued.uui_token));
    expect(tokens[0].revoked_at).not.toBeNull();
  });

  it('erases every passport row on deletion and keeps one audit entry without content', async () => {
    const { email, issued } = await connectedUser(server);
    const rest = new PassportApi(server);
    await rest.signIn(email);
    const id = (await rest.request('GET', '/v1/uui/me')).body.data.id;
    const count = async () => {
      const [r] = await sql`SELECT
        (SELECT count(*) FROM grants WHERE passport_user_id = ${id})::int AS grants,
        (SELECT count(*) FROM passport_connections WHERE passport_user_id = ${id})::int AS connections,
        (SELECT count(*) FROM uui_tokens WHERE passport_user_id = ${id})::int AS uui_tokens,
        (SELECT count(*) FROM link_tokens WHERE passport_user_id = ${id})::int AS link_tokens,
        (SELECT count(*) FROM sessions WHERE audience = 'passport' AND subject_id = ${id})::int AS sessions,
        (SELECT count(*) FROM otp_codes WHERE audience = 'passport' AND email_hash = ${sha256(email)})::int AS codes,
        (SELECT count(*) FROM passport_users WHERE id = ${id})::int AS users`;
      return r;
    };
    expect(await count()).toEqual({ grants: 1, connections: 1, uui_tokens: 1, link_tokens: 1, sessions: 2, codes: 2, users: 1 });
    const session = await sql`SELECT token_hash FROM sessions WHERE subject_id = ${id} AND token_hash = ${sha256(rest.token as string)}`;
    expect(session).toHaveLength(1);

    expect((await rest.request('DELETE', '/v1/uui/me')).status).toBe(200);
    expect(await count()).toEqual({ grants: 0, connections: 0, uui_tokens: 0, link_tokens: 0, sessions: 0, codes: 0, users: 0 });
    const audit = await sql`SELECT action, details FROM passport_audit WHERE passport_user_id = ${id} ORDER BY created_at`;
    expect(audit.map((a) => a.action)).toContain('passport.deleted');
    expect(audit.find((a) => a.action === 'passport.deleted')?.details).toEqual({ grants: 1, connections: 1, universal_memories: 0 });
    const text = JSON.stringify(audit);
    expect(text).not.toContain(email);
    expect(text).not.toContain(issued.uui_token);
  });
});
