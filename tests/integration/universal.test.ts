/**
 * The universal store over HTTP (docs/passport-universal.md), on both engines.
 *
 * Every global agent, passport user, grant and X-Service-UUI token is made through the public API, as a real
 * tenant, agent and user make them (tests/integration/passport-flow.ts): the tenant creates the agent and a link
 * token, the user signs in with the e-mailed code and approves the link in the consent app, the agent exchanges
 * the link token; grants are revoked or changed with the passport session.
 *
 * PostgreSQL only, on top of that: a few extra checks read stored rows no endpoint shows (the categories of
 * universal_memories, the number of universal_jobs, the status of conflicting claims, the tenant tables' row
 * counts). A PGlite server owns its data directory, so nothing else can read it while the server runs.
 */
import postgres from 'postgres';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { Api, type ApiResponse, servers } from './client';
import { type ConnectedAgent, PassportApi, type Passport, connectAgent, data, signInPassport } from './passport-flow';

describe.each(servers())('universal credentials on $name', (server) => {
  it('is 401 problem+json without credentials, with an unknown agent key, or without X-Service-UUI', async () => {
    const anon = new Api(server);
    const paths: [string, unknown][] = [
      ['/v1/universal/memories/add', { messages: [{ role: 'user', content: 'I live in Lisbon.' }] }],
      ['/v1/universal/memories/retrieve', { query: 'where' }],
    ];
    for (const [path, body] of paths) {
      const none = await anon.post(path, body);
      expect(none.status, path).toBe(401);
      expect(none.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(none.body.code).toBe('unauthorized');
      const unknown = await anon.withKey('mem_ak_unknown').post(path, body, { 'x-service-uui': 'mem_uui_unknown' });
      expect(unknown.status, path).toBe(401);
      expect((await anon.withKey('mem_ak_unknown').post(path, body)).status).toBe(401);
    }
    const job = await anon.withKey('mem_ak_unknown').get('/v1/universal/memories/jobs/00000000-0000-0000-0000-000000000000', {
      'x-service-uui': 'mem_uui_unknown',
    });
    expect(job.status).toBe(401);
  });

  it('documents the universal paths in the OpenAPI document', async () => {
    const doc = (await new Api(server).get('/v1/openapi.json')).body;
    for (const path of ['/v1/universal/memories/add', '/v1/universal/memories/retrieve', '/v1/universal/memories/jobs/{job_id}']) {
      expect(doc.paths[path], path).toBeDefined();
    }
    expect(doc.components.securitySchemes.ServiceUui).toMatchObject({ in: 'header', name: 'X-Service-UUI' });
    expect(doc.paths['/v1/uui/me/questions'].get.security).toEqual([{ PassportSession: [] }]);
    expect(doc.paths['/v1/uui/me/questions/{review_id}/resolve'].post.security).toEqual([{ PassportSession: [] }]);
  });
});

describe.each(servers())('universal store on $name', (server) => {
  // Extra row checks on PostgreSQL only (see the top of the file).
  const sql = server.name === 'postgres' ? postgres(inject('pgDatabaseUrl'), { max: 2, onnotice: () => {} }) : null;
  afterAll(async () => {
    await sql?.end({ timeout: 5 });
  });

  const RW_FACT = { categories: ['fact'], access: 'read_write' } as const;

  async function waitForJob(agent: ConnectedAgent, jobId: string): Promise<any> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const res = await agent.job(jobId);
      if (res.status !== 200) throw new Error(`job poll: ${res.status} ${JSON.stringify(res.body)}`);
      if (!['queued', 'running'].includes(res.body.data.status)) return res.body.data;
      if (Date.now() > deadline) throw new Error(`universal job ${jobId} still ${res.body.data.status}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async function say(agent: ConnectedAgent, content: string) {
    const res = await agent.add({ messages: [{ role: 'user', content }] });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('queued');
    return waitForJob(agent, res.body.job_id);
  }

  /** The tenant's own memories of the external user the agent connected: the universal store must add none. */
  const tenantMemories = async (agent: ConnectedAgent) => {
    const res = await agent.tenant.get(`/v1/memories?external_user_id=${encodeURIComponent(agent.externalUserId)}`);
    expect(res.status).toBe(200);
    return res.body.data.items;
  };

  const universalJobs = async (passport: Passport) =>
    (await sql!`SELECT count(*)::int AS n FROM universal_jobs WHERE passport_user_id = ${await passport.id()}`)[0].n;

  const tenantRowCounts = async () =>
    (await sql!`SELECT (SELECT count(*) FROM memories)::int AS memories, (SELECT count(*) FROM source_events)::int AS events,
      (SELECT count(*) FROM extraction_jobs)::int AS jobs, (SELECT count(*) FROM end_users)::int AS users`)[0];

  const expectProblem = (res: ApiResponse, status: number, code: string) => {
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status, code, type: expect.any(String), title: expect.any(String), detail: expect.any(String) });
  };

  const expectNoGrantRetrieve = (res: ApiResponse) => {
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      data: [],
      system_prompt_addition: '',
      is_passthrough: false,
      permission_error: 'no_grant_for_user',
      categories_available: [],
    });
  };

  it('a read-write grant: the job writes only granted categories, retrieve returns only them, no tenant memories', async () => {
    const passport = await signInPassport(server);
    const writer = await connectAgent(passport, { categories: ['goal', 'fact'], access: 'read_write' });
    expect(writer.issued).toMatchObject({ categories: ['fact', 'goal'], access_type: 'read_write' });
    const before = sql ? await tenantRowCounts() : null;
    const res = await writer.add({
      messages: [{ role: 'user', content: 'I live in Lisbon. I love jazz. I want to run a marathon in April.' }],
      metadata: { channel: 'chat' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'queued', categories: ['fact', 'goal'], job_id: expect.any(String), request_id: expect.any(String) });
    const job = await waitForJob(writer, res.body.job_id);
    expect(job).toMatchObject({ status: 'completed', memories_created: 2, categories: ['fact', 'goal'] });
    expect(job.extraction_metadata).toMatchObject({ dropped_outside_grant: 1 });
    expect(await tenantMemories(writer)).toEqual([]);
    if (sql) {
      expect(await tenantRowCounts()).toEqual(before);
      const stored = await sql`SELECT category FROM universal_memories WHERE passport_user_id = ${await passport.id()} ORDER BY category`;
      expect(stored.map((r) => r.category)).toEqual(['fact', 'goal']);
    }

    const r = await writer.retrieve({ query: 'where in Lisbon does the user live, and what does the user want', format: 'xml' });
    expect(r.status).toBe(200);
    expect(r.body.data.map((m: any) => m.category).sort()).toEqual(['fact', 'goal']);
    expect(r.body.data[0]).toMatchObject({ content: 'The user lives in Lisbon.', source_event_id: null, provenance: { service: 'universal' } });
    expect(r.body).toMatchObject({ permission_error: null, categories_available: ['fact', 'goal'], is_passthrough: false, quota_mode: 'FULL' });
    expect(r.body.system_prompt_addition).toContain('<memory category="fact">The user lives in Lisbon.</memory>');
    expect(r.body.system_prompt_addition).not.toContain('jazz');

    // a reader granted only goals sees only goals, and nothing that names the writer
    const reader = await connectAgent(passport, { categories: ['goal'], access: 'read_only' });
    const rr = await reader.retrieve({ query: 'what race does the user want to run' });
    expect(rr.body.data.map((m: any) => m.content)).toEqual(['The user wants to run a marathon in April.']);
    expect(rr.body.categories_available).toEqual(['goal']);
    expect(JSON.stringify(rr.body)).not.toContain(writer.agentId);
    // and cannot poll the writer's job
    expectProblem(await reader.job(res.body.job_id), 404, 'not_found');
  });

  it('a read-only grant is 403 UAT_002 with error write_not_permitted; no grant is UAT_001 and an empty retrieve', async () => {
    const passport = await signInPassport(server);
    const ro = await connectAgent(passport, { categories: ['fact'], access: 'read_only' });
    const refused = await ro.add({ messages: [{ role: 'user', content: 'I live in Lisbon.' }] });
    expectProblem(refused, 403, 'UAT_002');
    expect(refused.body.error).toBe('write_not_permitted');

    // an approved link always creates a grant: "no grant" is a token whose grant the user took back before any call
    const none = await connectAgent(passport, RW_FACT);
    await none.revoke();
    const noGrant = await none.add({ messages: [{ role: 'user', content: 'I live in Lisbon.' }] });
    expectProblem(noGrant, 403, 'UAT_001');
    expect(noGrant.body.error).toBe('no_grant_for_user');
    expectNoGrantRetrieve(await none.retrieve({ query: 'anything' }));
    expect(await tenantMemories(none)).toEqual([]);
    if (sql) expect(await universalJobs(passport)).toBe(0);
  });

  it('a revoked grant empties the next retrieve and refuses writes; granting again (or changing the grant) applies at once', async () => {
    const passport = await signInPassport(server);
    const agent = await connectAgent(passport, RW_FACT);
    await say(agent, 'I live in Berlin.');
    expect((await agent.retrieve({ query: 'where does the user live' })).body.data).toHaveLength(1);
    const revoked = await agent.revoke();
    expect(revoked.body.data).toEqual({ id: agent.grantId, status: 'revoked' });
    expectNoGrantRetrieve(await agent.retrieve({ query: 'where does the user live' }));
    expectProblem(await agent.add({ messages: [{ role: 'user', content: 'I live in Paris.' }] }), 403, 'UAT_001');

    // the user grants again, read-only: the same token reads again and still may not write
    const regranted = await agent.setGrant({ categories: ['fact'], access: 'read_only' });
    expect(regranted.body.data).toMatchObject({ id: agent.grantId, status: 'active', access_type: 'read_only' });
    const back = await agent.retrieve({ query: 'where does the user live' });
    expect(back.body.data.map((m: { content: string }) => m.content)).toEqual(['The user lives in Berlin.']);
    expect(back.body).toMatchObject({ permission_error: null, categories_available: ['fact'] });
    const readOnly = await agent.add({ messages: [{ role: 'user', content: 'I live in Paris.' }] });
    expectProblem(readOnly, 403, 'UAT_002');
    expect(readOnly.body.error).toBe('write_not_permitted');
  });

  it('another agent’s key with this agent’s X-Service-UUI token is 403', async () => {
    const passport = await signInPassport(server);
    const owner = await connectAgent(passport, RW_FACT);
    const thief = await connectAgent(passport, RW_FACT);
    const api = new Api(server).withKey(thief.agentKey);
    const headers = { 'x-service-uui': owner.uuiToken };
    expectProblem(await api.post('/v1/universal/memories/add', { messages: [{ role: 'user', content: 'I live in Rome.' }] }, headers), 403, 'uui_token_agent_mismatch');
    expectProblem(await api.post('/v1/universal/memories/retrieve', { query: 'where' }, headers), 403, 'uui_token_agent_mismatch');
  });

  it('idempotency_key: the same body replays the same job, another body is 422', async () => {
    const passport = await signInPassport(server);
    const agent = await connectAgent(passport, RW_FACT);
    const body = { messages: [{ role: 'user', content: 'I work at Acme.' }], idempotency_key: 'add-1' };
    const first = await agent.add(body);
    expect(first.status).toBe(200);
    const again = await agent.add(body);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expectProblem(await agent.add({ ...body, messages: [{ role: 'user', content: 'I work at Initech.' }] }), 422, 'idempotency_key_reused');
    if (sql) expect(await universalJobs(passport)).toBe(1);
    expect((await waitForJob(agent, first.body.job_id)).status).toBe('completed');
    expect(await tenantMemories(agent)).toEqual([]);
  });

  it("an agent's later claim supersedes its own earlier one, and change language decides between agents", async () => {
    const passport = await signInPassport(server);
    const a = await connectAgent(passport, RW_FACT);
    const b = await connectAgent(passport, RW_FACT);
    await say(a, 'I live in Lisbon.');
    await say(a, 'I live in Porto.');
    let r = await b.retrieve({ query: 'where does the user live' });
    expect(r.body.data.map((m: { content: string }) => m.content)).toEqual(['The user lives in Porto.']);
    expect(r.body.clarification_question).toBeNull();
    // another agent, the same day, saying it changed
    await say(b, 'Actually I moved to Madrid.');
    r = await a.retrieve({ query: 'where does the user live' });
    expect(r.body.data.map((m: { content: string }) => m.content)).toEqual(['The user moved to Madrid.']);
    expect(r.body.clarification_question).toBeNull();
    expect((await (await passport.rest()).request('GET', '/v1/uui/me/questions')).body.data).toEqual([]);
  });

  it('contradicting claims from two agents leave retrieval and become a pending question', async () => {
    const passport = await signInPassport(server);
    const a = await connectAgent(passport, RW_FACT);
    const b = await connectAgent(passport, RW_FACT);
    await say(a, 'I live in Lisbon.');
    expect((await b.retrieve({ query: 'where does the user live' })).body.data).toHaveLength(1);
    await say(b, 'I live in Porto.');
    const r = await a.retrieve({ query: 'where does the user live' });
    expect(r.body.data).toEqual([]);
    expect(r.body.clarification_question).toBe('Do you currently live in Lisbon or in Porto?');
    if (sql) {
      const statuses = await sql`SELECT content, status FROM universal_memories WHERE passport_user_id = ${await passport.id()} ORDER BY content`;
      expect(statuses.map((s) => [s.content, s.status])).toEqual([
        ['The user lives in Lisbon.', 'inactive'],
        ['The user lives in Porto.', 'inactive'],
      ]);
    }
    const questions = await (await passport.rest()).request('GET', '/v1/uui/me/questions');
    expect(questions.status).toBe(200);
    expect(questions.body.data).toHaveLength(1);
    expect(questions.body.data[0]).toMatchObject({ subject: 'residence', question: 'Do you currently live in Lisbon or in Porto?' });
    expect(questions.body.data[0].options.map((o: { content: string }) => o.content)).toEqual(['The user lives in Lisbon.', 'The user lives in Porto.']);
    expect(await tenantMemories(a)).toEqual([]);
    expect(await tenantMemories(b)).toEqual([]);
  });

  it('the passport user answers pending questions: GET /v1/uui/me/questions, POST …/resolve, passport.questions / answerQuestion', async () => {
    const passport = await signInPassport(server);
    const rest = await passport.rest();
    const anon = new PassportApi(server);

    const a = await connectAgent(passport, RW_FACT);
    const b = await connectAgent(passport, RW_FACT);
    await say(a, 'I live in Lisbon.');
    await say(b, 'I live in Porto.');

    expect((await anon.request('GET', '/v1/uui/me/questions')).status).toBe(401);
    const listed = await rest.request('GET', '/v1/uui/me/questions');
    expect(listed.status).toBe(200);
    expect(listed.body.data).toHaveLength(1);
    const [q] = listed.body.data;
    expect(q.question).toBe('Do you currently live in Lisbon or in Porto?');
    const porto = q.options.find((o: { content: string }) => o.content === 'The user lives in Porto.');
    const resolve = (id: string, keep: unknown, client = rest) => client.request('POST', `/v1/uui/me/questions/${id}/resolve`, { keep_memory_id: keep });
    expect((await resolve(q.id, porto.memory_id, anon)).status).toBe(401);
    expectProblem(await resolve(q.id, crypto.randomUUID()), 422, 'validation_failed');
    expectProblem(await resolve(q.id, 'not-a-uuid'), 422, 'validation_failed');
    expectProblem(await resolve(crypto.randomUUID(), porto.memory_id), 404, 'not_found');
    expectProblem(await resolve('not-a-uuid', porto.memory_id), 404, 'not_found');
    const resolved = await resolve(q.id, porto.memory_id);
    expect(resolved.status).toBe(200);
    expect(resolved.body.data).toMatchObject({ id: q.id, status: 'resolved', resolution_memory_id: porto.memory_id });
    expectProblem(await resolve(q.id, porto.memory_id), 409, 'conflict');
    expect((await a.retrieve({ query: 'where does the user live' })).body.data.map((m: { content: string }) => m.content)).toEqual([
      'The user lives in Porto.',
    ]);
    expect((await rest.request('GET', '/v1/uui/me/questions')).body.data).toEqual([]);

    // The consent app: the same through passport.questions / passport.answerQuestion (CSRF header required).
    await say(a, 'I live in Madrid.');
    const browser = passport.browser;
    const asked = await browser.query('questions');
    expect(asked.status).toBe(200);
    const [q2] = data(asked);
    expect(q2.question).toBe('Do you currently live in Porto or in Madrid?');
    const madrid = q2.options.find((o: { content: string }) => o.content === 'The user lives in Madrid.');
    const csrf = browser.csrf;
    browser.csrf = null; // signed in (the cookie), but no CSRF header
    expect((await browser.mutate('answerQuestion', { reviewId: q2.id, keepMemoryId: madrid.memory_id })).status).toBe(403);
    browser.csrf = csrf;
    const answered = await browser.mutate('answerQuestion', { reviewId: q2.id, keepMemoryId: madrid.memory_id });
    expect(answered.status).toBe(200);
    expect(data(answered)).toMatchObject({ status: 'resolved', resolution_memory_id: madrid.memory_id });
    expect((await b.retrieve({ query: 'where does the user live' })).body.data.map((m: { content: string }) => m.content)).toEqual([
      'The user lives in Madrid.',
    ]);
  });
});
