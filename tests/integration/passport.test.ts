/**
 * The memory passport over HTTP, on both engines: global agents and their public profile, operator-only
 * verification, link tokens through the consent tRPC procedures and the agent's token exchange, declined links,
 * and passport sign-in codes (read from the development mailbox). Grants, connections, erasure and the pages'
 * headers: passport-grants.test.ts; PostgreSQL-only checks: passport-storage.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { wrongCode } from './browser';
import { Api, type ApiResponse, servers, tenantApi } from './client';
import {
  ConsentBrowser,
  PUBLIC_FIELDS,
  PassportApi,
  apiCode,
  createAgent,
  data,
  exchange,
  linkToken,
  passportCodes,
  rand,
  readCode,
} from './passport-flow';

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

});
