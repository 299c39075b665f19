/**
 * The MCP server at /mcp (packages/mcp) on both engines, driven by the official SDK's client over Streamable HTTP:
 * a tenant key adds, waits, searches, lists and deletes; a passport agent (agent key + X-Service-UUI, approved in
 * the consent app as in passport-flow.ts) sees only its granted categories and writes only with read_write; a
 * missing or wrong key is 401 problem+json before any MCP message is read.
 */
import { describe, expect, it } from 'vitest';
import { Api, servers } from './client';
import { INITIALIZE, connectMcp, waitForMcpJob } from './mcp-client';
import { connectAgent, rand, signInPassport } from './passport-flow';

const mcpPost = (baseUrl: string, headers: Record<string, string>) =>
  fetch(`${baseUrl}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(INITIALIZE),
  });

describe.each(servers())('MCP over Streamable HTTP on $name', (server) => {
  it('refuses a missing or wrong key with 401 problem+json, and the SDK client cannot connect', async () => {
    const cases: Record<string, string>[] = [
      {},
      { authorization: 'ApiKey mem_sk_unknown' },
      { authorization: 'Bearer something' },
      { authorization: 'ApiKey mem_ak_unknown', 'x-service-uui': 'mem_uui_unknown' },
    ];
    for (const headers of cases) {
      const res = await mcpPost(server.baseUrl, headers);
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect((await res.json()).code).toBe('unauthorized');
    }
    // a live agent key with an unknown X-Service-UUI token: the universal endpoints' 401
    const passport = await signInPassport(server);
    const agent = await connectAgent(passport, { categories: ['fact'], access: 'read_only' });
    const badToken = await mcpPost(server.baseUrl, { authorization: `ApiKey ${agent.agentKey}`, 'x-service-uui': 'mem_uui_unknown' });
    expect(badToken.status).toBe(401);
    expect((await badToken.json()).code).toBe('uui_token_invalid');
    await expect(connectMcp(server, 'mem_sk_unknown')).rejects.toMatchObject({ code: 401 });
  });

  it('a tenant key: add_memory returns the job id, the job completes, search_memories finds it; list and delete', async () => {
    const { api_key: key } = await new Api(server).createTenant();
    const rest = new Api(server).withKey(key);
    const user = `mcp-${rand()}`;
    const mcp = await connectMcp(server, key);
    try {
      const { tools } = await mcp.client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['add_memory', 'get_job', 'search_memories', 'list_memories', 'delete_memory']);

      const added = await mcp.call('add_memory', {
        external_user_id: user,
        messages: [{ role: 'user', content: 'I live in Lisbon and I work as a nurse.' }],
      });
      expect(added.isError, JSON.stringify(added.data)).toBe(false);
      expect(added.data).toMatchObject({ status: 'queued', job_id: expect.any(String) });
      // the same job through REST: the tool wrote what POST /v1/memories/add writes
      const job = await rest.waitForJob(added.data.job_id);
      expect(job).toMatchObject({ status: 'completed', external_user_id: user });
      expect(job.memories_created).toBeGreaterThan(0);
      expect(await waitForMcpJob(mcp, added.data.job_id)).toMatchObject({ status: 'completed' });

      const found = await mcp.call('search_memories', { external_user_id: user, query: 'Where does the user live?' });
      expect(found.isError).toBe(false);
      expect(found.data.system_prompt_addition).toContain('Lisbon');
      expect(found.texts[0]).toBe(found.data.system_prompt_addition);
      const lisbon = found.data.data.find((m: any) => m.content.includes('Lisbon'));
      expect(lisbon).toBeDefined();

      const listed = await mcp.call('list_memories', { external_user_id: user });
      expect(listed.data.items.map((m: any) => m.id)).toContain(lisbon.id);
      const deleted = await mcp.call('delete_memory', { memory_id: lisbon.id });
      expect(deleted.isError, JSON.stringify(deleted.data)).toBe(false);
      const after = await mcp.call('list_memories', { external_user_id: user });
      expect(after.data.items.map((m: any) => m.id)).not.toContain(lisbon.id);
      const again = await mcp.call('delete_memory', { memory_id: '00000000-0000-0000-0000-000000000000' });
      expect(again).toMatchObject({ isError: true, data: { status: 404, code: 'not_found' } });

      // another tenant's key sees none of it
      const other = await connectMcp(server, (await new Api(server).createTenant()).api_key);
      const none = await other.call('search_memories', { external_user_id: user, query: 'Where does the user live?' });
      expect(none.data.data).toEqual([]);
      expect((await other.call('get_job', { job_id: added.data.job_id })).data).toMatchObject({ status: 404 });
      await other.close();
    } finally {
      await mcp.close();
    }
  });

  it('a tool refuses invalid arguments with the validation error, not a crash', async () => {
    const mcp = await connectMcp(server, (await new Api(server).createTenant()).api_key);
    const res = await mcp.call('add_memory', { external_user_id: 'u', messages: [] });
    expect(res.isError).toBe(true);
    expect(res.texts.join(' ')).toMatch(/messages/);
    await mcp.close();
  });

  it('a passport agent: adds with read_write, sees only granted categories, cannot add with read_only', async () => {
    const passport = await signInPassport(server);
    const writer = await connectAgent(passport, { categories: ['goal', 'fact'], access: 'read_write' });
    const w = await connectMcp(server, writer.agentKey, writer.uuiToken);
    const { tools } = await w.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['add_memory', 'get_job', 'search_memories', 'list_memories', 'delete_memory']);

    const added = await w.call('add_memory', {
      messages: [{ role: 'user', content: 'I live in Lisbon. I love jazz. I want to run a marathon in April.' }],
    });
    expect(added.data, JSON.stringify(added.data)).toMatchObject({ status: 'queued', categories: ['fact', 'goal'], job_id: expect.any(String) });
    // the job through REST, as the agent's backend would poll it
    let job: any;
    for (const deadline = Date.now() + 30_000; ; await new Promise((r) => setTimeout(r, 50))) {
      job = (await writer.job(added.data.job_id)).body.data;
      if (!['queued', 'running'].includes(job.status) || Date.now() > deadline) break;
    }
    expect(job).toMatchObject({ status: 'completed', memories_created: 2 });
    expect(await waitForMcpJob(w, added.data.job_id)).toMatchObject({ status: 'completed' });

    const all = await w.call('search_memories', { query: 'where in Lisbon does the user live, and what does the user want' });
    expect(all.data.data.map((m: any) => m.category).sort()).toEqual(['fact', 'goal']);
    expect(all.data.categories_available).toEqual(['fact', 'goal']);
    expect(all.texts[0]).toContain('Lisbon');
    expect(all.texts[0]).not.toContain('jazz');
    await w.close();

    // a reader granted only goals, read-only: sees the goal and nothing of the fact, and cannot write
    const reader = await connectAgent(passport, { categories: ['goal'], access: 'read_only' });
    const r = await connectMcp(server, reader.agentKey, reader.uuiToken);
    const seen = await r.call('search_memories', { query: 'where does the user live and what race does the user want to run' });
    expect(seen.data.data.map((m: any) => m.content)).toEqual(['The user wants to run a marathon in April.']);
    expect(seen.data.categories_available).toEqual(['goal']);
    expect(JSON.stringify(seen.data)).not.toContain('Lisbon');
    expect(seen.texts[0]).not.toContain('Lisbon');
    const refused = await r.call('add_memory', { messages: [{ role: 'user', content: 'I live in Porto.' }] });
    expect(refused).toMatchObject({ isError: true, data: { status: 403, code: 'UAT_002', error: 'write_not_permitted' } });
    // nor poll the writer's job
    expect((await r.call('get_job', { job_id: added.data.job_id })).data).toMatchObject({ status: 404 });
    await r.close();

    // once the user revokes the grant, search is empty with the permission error
    await reader.revoke();
    const revoked = await connectMcp(server, reader.agentKey, reader.uuiToken);
    const empty = await revoked.call('search_memories', { query: 'what race does the user want to run' });
    expect(empty.data).toMatchObject({ data: [], permission_error: 'no_grant_for_user', categories_available: [] });
    await revoked.close();
  });
});

describe.each(servers())('MCP list and delete for passport agents on $name', (server) => {
  it('lists only granted categories, deletes only with read_write, and every read is in the user’s access log', async () => {
    const passport = await signInPassport(server);
    const writer = await connectAgent(passport, { categories: ['goal', 'fact'], access: 'read_write' });
    const reader = await connectAgent(passport, { categories: ['goal'], access: 'read_only' });
    const w = await connectMcp(server, writer.agentKey, writer.uuiToken);
    const added = await w.call('add_memory', { messages: [{ role: 'user', content: 'I live in Lisbon. I want to run a marathon in April.' }] });
    expect(await waitForMcpJob(w, added.data.job_id)).toMatchObject({ status: 'completed', memories_created: 2 });

    const listed = await w.call('list_memories', {});
    expect(listed.isError).toBe(false);
    expect(listed.data).toMatchObject({ permission_error: null, categories_available: ['fact', 'goal'], next_cursor: null });
    expect(listed.data.items.map((m: any) => [m.category, m.written_by_you]).sort()).toEqual([['fact', true], ['goal', true]]);
    const paged = await w.call('list_memories', { limit: 1 });
    expect(paged.data.items).toHaveLength(1);
    const next = await w.call('list_memories', { limit: 1, cursor: paged.data.next_cursor });
    expect(next.data.items.map((m: any) => m.id)).not.toEqual(paged.data.items.map((m: any) => m.id));
    expect((await w.call('list_memories', { category: 'fact' })).data.items.map((m: any) => m.content)).toEqual(['The user lives in Lisbon.']);

    const r = await connectMcp(server, reader.agentKey, reader.uuiToken);
    const seen = await r.call('list_memories', {});
    expect(seen.data.items).toEqual([expect.objectContaining({ category: 'goal', written_by_you: false })]);
    expect(JSON.stringify(seen.data)).not.toContain('Lisbon');
    const fact = listed.data.items.find((m: any) => m.category === 'fact');
    const goal = listed.data.items.find((m: any) => m.category === 'goal');
    expect(await r.call('delete_memory', { memory_id: goal.id })).toMatchObject({ isError: true, data: { status: 403, code: 'UAT_002' } });

    // a writer whose grant no longer covers facts cannot delete one; the goal it can
    await writer.setGrant({ categories: ['goal'], access: 'read_write' });
    const w2 = await connectMcp(server, writer.agentKey, writer.uuiToken);
    expect(await w2.call('delete_memory', { memory_id: fact.id })).toMatchObject({ isError: true, data: { status: 404, code: 'not_found' } });
    expect(await w2.call('delete_memory', { memory_id: 'nope' })).toMatchObject({ isError: true, data: { status: 404 } });
    expect((await w2.call('delete_memory', { memory_id: goal.id })).data).toEqual({ id: goal.id, status: 'archived', deleted: true });
    expect(await w2.call('delete_memory', { memory_id: goal.id })).toMatchObject({ isError: true, data: { status: 404 } });
    expect((await r.call('search_memories', { query: 'what race does the user want to run' })).data.data).toEqual([]);
    expect((await r.call('list_memories', {})).data.items).toEqual([]);

    // the user still sees the archived goal, and every MCP read in the access log
    const session = await passport.rest();
    const mine = (await session.request('GET', '/v1/uui/me/memories')).body.data.items;
    expect(mine.map((m: any) => [m.category, m.status]).sort()).toEqual([['fact', 'active'], ['goal', 'archived']]);
    const log = (await session.request('GET', '/v1/uui/me/access-log?limit=100')).body.data.items;
    expect(log.every((e: any) => e.channel === 'mcp')).toBe(true);
    expect(log.filter((e: any) => e.kind === 'list')).toHaveLength(6);
    expect(log.filter((e: any) => e.kind === 'retrieve')).toEqual([
      expect.objectContaining({ agent: expect.objectContaining({ id: reader.agentId }), memories_returned: 0 }),
    ]);

    // no grant: an empty list with the permission error, and no access-log entry
    await reader.revoke();
    const revoked = await connectMcp(server, reader.agentKey, reader.uuiToken);
    expect((await revoked.call('list_memories', {})).data).toMatchObject({ items: [], permission_error: 'no_grant_for_user', categories_available: [] });
    expect((await session.request('GET', '/v1/uui/me/access-log?limit=100')).body.data.items).toHaveLength(log.length);
    for (const c of [w, w2, r, revoked]) await c.close();
  });
});
