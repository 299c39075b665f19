/**
 * A passport user's own memories and who read them (docs/passport.md, "Your memories and who read them"), on both
 * engines: GET /v1/uui/me/memories with the agent that wrote each memory, DELETE /v1/uui/me/memories/{id} (agents
 * no longer get it; another user's is 404), GET /v1/uui/me/export (an attachment), GET /v1/uui/me/access-log (one
 * entry per agent read, never content), and the same over the consent app's tRPC procedures (CSRF on mutations).
 * Everything is made through the public API (passport-flow.ts).
 */
import { describe, expect, it } from 'vitest';
import { Api, servers } from './client';
import { type ConnectedAgent, type Passport, connectAgent, data, signInPassport } from './passport-flow';

async function say(agent: ConnectedAgent, content: string) {
  const res = await agent.add({ messages: [{ role: 'user', content }] });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.status).toBe('queued');
  for (const deadline = Date.now() + 30_000; ; await new Promise((r) => setTimeout(r, 50))) {
    const job = (await agent.job(res.body.job_id)).body.data;
    if (!['queued', 'running'].includes(job.status)) return job;
    if (Date.now() > deadline) throw new Error(`universal job still ${job.status}`);
  }
}

const me = async (passport: Passport, path: string, method = 'GET') => (await passport.rest()).request(method, path);

/** A passport with a writer (fact + preference, read-write) that said two things, and a read-only fact reader. */
async function passportWithMemories(server: Parameters<typeof signInPassport>[0]) {
  const passport = await signInPassport(server);
  const writer = await connectAgent(passport, { categories: ['fact', 'preference'], access: 'read_write' }, { agent: { name: 'Travel Writer' } });
  const reader = await connectAgent(passport, { categories: ['fact'], access: 'read_only' }, { agent: { name: 'Fact Reader' } });
  expect(await say(writer, 'I live in Lisbon. I love jazz.')).toMatchObject({ status: 'completed', memories_created: 2 });
  return { passport, writer, reader };
}

describe.each(servers())('passport memories and access log on $name', (server) => {
  it('lists the user’s memories with the agent that wrote each and when, filtered and paged', async () => {
    const { passport, writer } = await passportWithMemories(server);
    const list = await me(passport, '/v1/uui/me/memories');
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    const items = list.body.data.items as any[];
    expect(items.map((m) => m.category).sort()).toEqual(['fact', 'preference']);
    for (const m of items) {
      expect(m).toMatchObject({
        status: 'active',
        written_by: { id: writer.agentId, name: 'Travel Writer' },
        job_id: expect.any(String),
        observed_at: expect.any(String),
        created_at: expect.any(String),
        access_count: 0,
      });
    }
    const facts = await me(passport, '/v1/uui/me/memories?category=fact');
    expect(facts.body.data.items.map((m: any) => m.content)).toEqual(['The user lives in Lisbon.']);
    const first = await me(passport, '/v1/uui/me/memories?limit=1');
    expect(first.body.data.items).toHaveLength(1);
    expect(first.body.data.next_cursor).toEqual(expect.any(String));
    const second = await me(passport, `/v1/uui/me/memories?limit=1&cursor=${encodeURIComponent(first.body.data.next_cursor)}`);
    expect(second.body.data.items).toHaveLength(1);
    expect(second.body.data.next_cursor).toBeNull();
    expect(second.body.data.items[0].id).not.toBe(first.body.data.items[0].id);
    expect((await me(passport, '/v1/uui/me/memories?status=archived')).body.data.items).toEqual([]);
    // bad input is 422, never a 5xx
    for (const query of ['limit=0', 'limit=abc', 'status=gone', 'category=secrets', 'cursor=not-a-cursor']) {
      const bad = await me(passport, `/v1/uui/me/memories?${query}`);
      expect(bad.status, query).toBe(422);
      expect(bad.body.code, query).toBe('validation_failed');
    }
    // another passport user sees none of them
    const other = await signInPassport(server);
    expect((await me(other, '/v1/uui/me/memories')).body.data.items).toEqual([]);
  });

  it('logs every agent read with agent, time, count and categories — never content — and shows it newest first', async () => {
    const { passport, writer, reader } = await passportWithMemories(server);
    expect((await me(passport, '/v1/uui/me/access-log')).body.data.items).toEqual([]);
    const read = await reader.retrieve({ query: 'where does the user live' });
    expect(read.body.data.map((m: any) => m.content)).toEqual(['The user lives in Lisbon.']);
    const both = await writer.retrieve({ query: 'what does the user love and where does the user live' });
    expect(both.body.data).toHaveLength(2);

    const log = await me(passport, '/v1/uui/me/access-log');
    expect(log.status).toBe(200);
    const entries = log.body.data.items as any[];
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({
      agent: { id: writer.agentId, name: 'Travel Writer' },
      kind: 'retrieve',
      channel: 'rest',
      memories_returned: 2,
      categories: ['fact', 'preference'],
      created_at: expect.any(String),
    });
    expect(entries[1]).toMatchObject({ agent: { id: reader.agentId, name: 'Fact Reader' }, memories_returned: 1, categories: ['fact'] });
    expect(JSON.stringify(log.body)).not.toMatch(/Lisbon|jazz|where does/);
    // the memories count their reads
    const lisbon = (await me(passport, '/v1/uui/me/memories?category=fact')).body.data.items[0];
    expect(lisbon).toMatchObject({ access_count: 2, last_accessed: expect.any(String) });

    // paged
    const page = await me(passport, '/v1/uui/me/access-log?limit=1');
    expect(page.body.data.items.map((e: any) => e.id)).toEqual([entries[0].id]);
    const rest = await me(passport, `/v1/uui/me/access-log?limit=1&cursor=${encodeURIComponent(page.body.data.next_cursor)}`);
    expect(rest.body.data.items.map((e: any) => e.id)).toEqual([entries[1].id]);
    expect((await me(passport, '/v1/uui/me/access-log?limit=101')).status).toBe(422);

    // a read without a grant returns nothing and is not an access
    await reader.revoke();
    expect((await reader.retrieve({ query: 'where does the user live' })).body.permission_error).toBe('no_grant_for_user');
    expect((await me(passport, '/v1/uui/me/access-log')).body.data.items).toHaveLength(2);
    // a read that finds nothing is still an access
    await writer.retrieve({ query: 'zzzz qqqq' });
    const after = (await me(passport, '/v1/uui/me/access-log')).body.data.items;
    expect(after).toHaveLength(3);
    expect(after[0]).toMatchObject({ agent: { id: writer.agentId }, memories_returned: 0, categories: [] });
  });

  it('erases a memory: gone from the list and from every agent’s retrieval; again or another user’s is 404', async () => {
    const { passport, writer, reader } = await passportWithMemories(server);
    const lisbon = (await me(passport, '/v1/uui/me/memories?category=fact')).body.data.items[0];
    // the reader's hot tier holds the memory before the delete
    expect((await reader.retrieve({ query: 'where does the user live' })).body.data.map((m: any) => m.id)).toEqual([lisbon.id]);

    const other = await signInPassport(server);
    const foreign = await me(other, `/v1/uui/me/memories/${lisbon.id}`, 'DELETE');
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('not_found');

    const deleted = await me(passport, `/v1/uui/me/memories/${lisbon.id}`, 'DELETE');
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(deleted.body.data).toEqual({ id: lisbon.id, deleted: true, questions_settled: 0 });
    expect((await me(passport, '/v1/uui/me/memories')).body.data.items.map((m: any) => m.id)).not.toContain(lisbon.id);
    for (const agent of [reader, writer]) {
      const again = await agent.retrieve({ query: 'where does the user live in Lisbon' });
      expect(again.body.data.map((m: any) => m.id)).not.toContain(lisbon.id);
      expect(again.body.system_prompt_addition).not.toContain('Lisbon');
    }
    expect((await me(passport, `/v1/uui/me/memories/${lisbon.id}`, 'DELETE')).status).toBe(404);
    expect((await me(passport, '/v1/uui/me/memories/not-a-uuid', 'DELETE')).status).toBe(404);
  });

  it('erasing one side of a pending question settles it for the other, which agents get again', async () => {
    const passport = await signInPassport(server);
    const rw = { categories: ['fact'], access: 'read_write' } as const;
    const [a, b] = [await connectAgent(passport, rw), await connectAgent(passport, rw)];
    await say(a, 'I live in Lisbon.');
    await say(b, 'I live in Porto.');
    const questions = (await me(passport, '/v1/uui/me/questions')).body.data;
    expect(questions).toHaveLength(1);
    const porto = questions[0].options.find((o: any) => o.content.includes('Porto'));
    const lisbon = questions[0].options.find((o: any) => o.content.includes('Lisbon'));
    const inactive = (await me(passport, '/v1/uui/me/memories?status=inactive')).body.data.items;
    expect(inactive.map((m: any) => m.id).sort()).toEqual([lisbon.memory_id, porto.memory_id].sort());

    const deleted = await me(passport, `/v1/uui/me/memories/${porto.memory_id}`, 'DELETE');
    expect(deleted.body.data).toMatchObject({ deleted: true, questions_settled: 1 });
    expect((await me(passport, '/v1/uui/me/questions')).body.data).toEqual([]);
    const kept = (await me(passport, '/v1/uui/me/memories')).body.data.items;
    expect(kept.map((m: any) => [m.id, m.status])).toEqual([[lisbon.memory_id, 'active']]);
    expect((await a.retrieve({ query: 'where does the user live' })).body.data.map((m: any) => m.id)).toEqual([lisbon.memory_id]);
  });

  it('exports memories with their writers, grants, connections, questions and the access log as a JSON attachment', async () => {
    const { passport, writer, reader } = await passportWithMemories(server);
    await reader.retrieve({ query: 'where does the user live' });
    const res = await fetch(`${server.baseUrl}/v1/uui/me/export`, { headers: { authorization: `Bearer ${(await passport.rest()).token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="memory-passport-export.json"');
    expect(res.headers.get('cache-control')).toContain('no-store');
    const bundle = await res.json();
    expect(bundle).toMatchObject({ format_version: 1, exported_at: expect.any(String), passport: { id: await passport.id(), email: passport.email } });
    expect(bundle.memories.map((m: any) => [m.content, m.written_by.name]).sort()).toEqual([
      ['The user loves jazz.', 'Travel Writer'],
      ['The user lives in Lisbon.', 'Travel Writer'],
    ].sort());
    expect(bundle.grants.map((g: any) => [g.agent.id, g.access_type, g.status]).sort()).toEqual(
      [[writer.agentId, 'read_write', 'active'], [reader.agentId, 'read_only', 'active']].sort(),
    );
    expect(bundle.connections).toHaveLength(2);
    expect(bundle.questions).toEqual([]);
    expect(bundle.access_log).toEqual([expect.objectContaining({ agent: { id: reader.agentId, name: 'Fact Reader' }, memories_returned: 1 })]);
  });

  it('needs a passport session on every new endpoint', async () => {
    const anon = new Api(server);
    for (const [method, path] of [
      ['GET', '/v1/uui/me/memories'],
      ['DELETE', '/v1/uui/me/memories/00000000-0000-4000-8000-000000000000'],
      ['GET', '/v1/uui/me/export'],
      ['GET', '/v1/uui/me/access-log'],
    ]) {
      const res = await anon.request(method, path);
      expect(res.status, path).toBe(401);
      expect(res.headers.get('www-authenticate'), path).toMatch(/^Bearer/);
    }
  });

  it('the consent app: memories, access log, export and erase over tRPC; mutations need the CSRF token', async () => {
    const { passport, writer, reader } = await passportWithMemories(server);
    await reader.retrieve({ query: 'where does the user live' });
    const { browser } = passport;
    const memories = await browser.query('memories', {});
    expect(memories.status).toBe(200);
    expect(data(memories).items.map((m: any) => m.written_by.id)).toEqual([writer.agentId, writer.agentId]);
    const log = await browser.query('accessLog', {});
    expect(data(log).items).toEqual([expect.objectContaining({ agent: { id: reader.agentId, name: 'Fact Reader' }, kind: 'retrieve' })]);

    const target = data(memories).items[0].id;
    const csrf = browser.csrf;
    browser.csrf = null;
    expect((await browser.mutate('deleteMemory', { memoryId: target })).status).toBe(403);
    expect((await browser.mutate('exportPassport')).status).toBe(403);
    browser.csrf = csrf;
    const exported = await browser.mutate('exportPassport');
    expect(exported.status).toBe(200);
    expect(data(exported).memories).toHaveLength(2);
    const erased = await browser.mutate('deleteMemory', { memoryId: target });
    expect(erased.status).toBe(200);
    expect(data(erased)).toMatchObject({ id: target, deleted: true });
    expect(data(await browser.query('memories', {})).items).toHaveLength(1);
    const again = await browser.mutate('deleteMemory', { memoryId: target });
    expect(again.status).toBe(404);
    expect(again.body.error.data.apiCode).toBe('not_found');
  });
});
