/**
 * The memory passport over HTTP, on both engines: grants and connections (REST and tRPC, another user's are 404),
 * deleting a passport, the consent and passport pages' no-framing headers, and the passport paths in the OpenAPI
 * document.
 */
import { describe, expect, it } from 'vitest';
import { Api, servers, tenantApi } from './client';
import { ConsentBrowser, PUBLIC_FIELDS, PassportApi, connectedUser, createAgent, data, rand } from './passport-flow';

describe.each(servers())('passport on $name', (server) => {
  const bearer = { authorization: `Bearer ${server.adminToken}` };

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
