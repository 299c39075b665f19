/**
 * The universal store over HTTP (docs/passport-universal.md).
 *
 * The credential checks that need no passport rows run on both engines. Everything else needs a global agent,
 * a passport user, a grant and an X-Service-UUI token; their endpoints belong to another part of issue 5, so
 * this file writes those rows directly into the database — possible only on PostgreSQL (a PGlite server owns
 * its data directory). On PGlite the same core code is covered by packages/jobs/src/universal.test.ts, which
 * runs it on an in-memory PGlite.
 */
import { generateKey, listPassportQuestions } from '@memory/core';
import { createDatabase } from '@memory/db';
import postgres from 'postgres';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { TrpcClient, mailboxCodes, randomIp } from './browser';
import { Api, type ApiResponse, servers } from './client';

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

type Grant = { categories: string[]; access: 'read_only' | 'read_write' } | null;

describe('universal store on postgres', () => {
  const server = servers().find((s) => s.name === 'postgres');
  const url = inject('pgDatabaseUrl');
  const sql = postgres(url, { max: 2, onnotice: () => {} });
  const database = createDatabase({ kind: 'postgres', url, poolSize: 2 });

  afterAll(async () => {
    await sql.end({ timeout: 5 });
    await database.close();
  });

  let tenantId: string | null = null;
  async function tenant(): Promise<string> {
    if (!server) throw new Error('no postgres server');
    tenantId ??= (await new Api(server).createTenant()).tenant_id;
    return tenantId;
  }

  /** A global agent (with an X-Service-UUI token for the passport user, and optionally a grant), as rows. */
  async function agentFor(passportUserId: string, grant: Grant) {
    const key = generateKey('agent');
    const [agent] = await sql`INSERT INTO global_agents (id, tenant_id, name, key_hash, key_prefix)
      VALUES (gen_random_uuid(), ${await tenant()}, 'agent', ${key.hash}, ${key.displayPrefix}) RETURNING id`;
    const token = generateKey('uui');
    await sql`INSERT INTO uui_tokens (id, token_hash, passport_user_id, agent_id)
      VALUES (gen_random_uuid(), ${token.hash}, ${passportUserId}, ${agent.id})`;
    let grantId: string | null = null;
    if (grant) {
      const [g] = await sql`INSERT INTO grants (id, passport_user_id, agent_id, categories, access_type)
        VALUES (gen_random_uuid(), ${passportUserId}, ${agent.id}, ${sql.json(grant.categories)}, ${grant.access}) RETURNING id`;
      grantId = g.id;
    }
    const api = new Api(server!).withKey(key.key);
    const headers = { 'x-service-uui': token.key };
    return {
      agentId: agent.id as string,
      agentKey: key.key,
      uuiToken: token.key,
      grantId,
      add: (body: unknown) => api.post('/v1/universal/memories/add', body, headers),
      retrieve: (body: unknown) => api.post('/v1/universal/memories/retrieve', body, headers),
      job: (id: string) => api.get(`/v1/universal/memories/jobs/${id}`, headers),
    };
  }

  async function passportUser(): Promise<string> {
    const [u] = await sql`INSERT INTO passport_users (id, email) VALUES (gen_random_uuid(), ${`${crypto.randomUUID()}@example.test`}) RETURNING id`;
    return u.id;
  }

  type Agent = Awaited<ReturnType<typeof agentFor>>;

  async function waitForJob(agent: Agent, jobId: string): Promise<any> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const res = await agent.job(jobId);
      if (res.status !== 200) throw new Error(`job poll: ${res.status} ${JSON.stringify(res.body)}`);
      if (!['queued', 'running'].includes(res.body.data.status)) return res.body.data;
      if (Date.now() > deadline) throw new Error(`universal job ${jobId} still ${res.body.data.status}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async function say(agent: Agent, content: string) {
    const res = await agent.add({ messages: [{ role: 'user', content }] });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('queued');
    return waitForJob(agent, res.body.job_id);
  }

  const tenantRowCounts = async () =>
    (await sql`SELECT (SELECT count(*) FROM memories)::int AS memories, (SELECT count(*) FROM source_events)::int AS events,
      (SELECT count(*) FROM extraction_jobs)::int AS jobs, (SELECT count(*) FROM end_users)::int AS users`)[0];

  const expectProblem = (res: ApiResponse, status: number, code: string) => {
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status, code, type: expect.any(String), title: expect.any(String), detail: expect.any(String) });
  };

  it('a read-write grant: the job writes only granted categories, retrieve returns only them, no tenant rows', async () => {
    const user = await passportUser();
    const writer = await agentFor(user, { categories: ['fact', 'goal'], access: 'read_write' });
    const before = await tenantRowCounts();
    const res = await writer.add({
      messages: [{ role: 'user', content: 'I live in Lisbon. I love jazz. I want to run a marathon in April.' }],
      metadata: { channel: 'chat' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'queued', categories: ['fact', 'goal'], job_id: expect.any(String), request_id: expect.any(String) });
    const job = await waitForJob(writer, res.body.job_id);
    expect(job).toMatchObject({ status: 'completed', memories_created: 2, categories: ['fact', 'goal'] });
    expect(job.extraction_metadata).toMatchObject({ dropped_outside_grant: 1 });
    expect(await tenantRowCounts()).toEqual(before);
    const stored = await sql`SELECT category FROM universal_memories WHERE passport_user_id = ${user} ORDER BY category`;
    expect(stored.map((r) => r.category)).toEqual(['fact', 'goal']);

    const r = await writer.retrieve({ query: 'where does the user live', format: 'xml' });
    expect(r.status).toBe(200);
    expect(r.body.data.map((m: any) => m.category).sort()).toEqual(['fact', 'goal']);
    expect(r.body.data[0]).toMatchObject({ content: 'The user lives in Lisbon.', source_event_id: null, provenance: { service: 'universal' } });
    expect(r.body).toMatchObject({ permission_error: null, categories_available: ['fact', 'goal'], is_passthrough: false, quota_mode: 'FULL' });
    expect(r.body.system_prompt_addition).toContain('<memory category="fact">The user lives in Lisbon.</memory>');
    expect(r.body.system_prompt_addition).not.toContain('jazz');

    // a reader granted only goals sees only goals, and nothing that names the writer
    const reader = await agentFor(user, { categories: ['goal'], access: 'read_only' });
    const rr = await reader.retrieve({ query: 'what is the user training for' });
    expect(rr.body.data.map((m: any) => m.content)).toEqual(['The user wants to run a marathon in April.']);
    expect(rr.body.categories_available).toEqual(['goal']);
    expect(JSON.stringify(rr.body)).not.toContain(writer.agentId);
    // and cannot poll the writer's job
    expectProblem(await reader.job(res.body.job_id), 404, 'not_found');
  });

  it('a read-only grant is 403 UAT_002 with error write_not_permitted; no grant is UAT_001 and an empty retrieve', async () => {
    const user = await passportUser();
    const ro = await agentFor(user, { categories: ['fact'], access: 'read_only' });
    const refused = await ro.add({ messages: [{ role: 'user', content: 'I live in Lisbon.' }] });
    expectProblem(refused, 403, 'UAT_002');
    expect(refused.body.error).toBe('write_not_permitted');

    const none = await agentFor(user, null);
    const noGrant = await none.add({ messages: [{ role: 'user', content: 'I live in Lisbon.' }] });
    expectProblem(noGrant, 403, 'UAT_001');
    expect(noGrant.body.error).toBe('no_grant_for_user');
    const empty = await none.retrieve({ query: 'anything' });
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({
      data: [],
      system_prompt_addition: '',
      is_passthrough: false,
      permission_error: 'no_grant_for_user',
      categories_available: [],
    });
    const [{ n }] = await sql`SELECT count(*)::int AS n FROM universal_jobs WHERE passport_user_id = ${user}`;
    expect(n).toBe(0);
  });

  it('a revoked grant empties the next retrieve and refuses writes', async () => {
    const user = await passportUser();
    const agent = await agentFor(user, { categories: ['fact'], access: 'read_write' });
    await say(agent, 'I live in Berlin.');
    expect((await agent.retrieve({ query: 'where does the user live' })).body.data).toHaveLength(1);
    await sql`UPDATE grants SET status = 'revoked', revoked_at = now() WHERE id = ${agent.grantId}`;
    const after = await agent.retrieve({ query: 'where does the user live' });
    expect(after.body).toMatchObject({ data: [], system_prompt_addition: '', permission_error: 'no_grant_for_user', categories_available: [] });
    expectProblem(await agent.add({ messages: [{ role: 'user', content: 'I live in Paris.' }] }), 403, 'UAT_001');
  });

  it('another agent’s key with this agent’s X-Service-UUI token is 403', async () => {
    const user = await passportUser();
    const owner = await agentFor(user, { categories: ['fact'], access: 'read_write' });
    const thief = await agentFor(user, { categories: ['fact'], access: 'read_write' });
    const api = new Api(server!).withKey(thief.agentKey);
    const headers = { 'x-service-uui': owner.uuiToken };
    expectProblem(await api.post('/v1/universal/memories/add', { messages: [{ role: 'user', content: 'I live in Rome.' }] }, headers), 403, 'uui_token_agent_mismatch');
    expectProblem(await api.post('/v1/universal/memories/retrieve', { query: 'where' }, headers), 403, 'uui_token_agent_mismatch');
  });

  it('idempotency_key: the same body replays the same job, another body is 422', async () => {
    const user = await passportUser();
    const agent = await agentFor(user, { categories: ['fact'], access: 'read_write' });
    const body = { messages: [{ role: 'user', content: 'I work at Acme.' }], idempotency_key: 'add-1' };
    const first = await agent.add(body);
    const again = await agent.add(body);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expectProblem(await agent.add({ ...body, messages: [{ role: 'user', content: 'I work at Initech.' }] }), 422, 'idempotency_key_reused');
    const [{ n }] = await sql`SELECT count(*)::int AS n FROM universal_jobs WHERE passport_user_id = ${user}`;
    expect(n).toBe(1);
    expect((await waitForJob(agent, first.body.job_id)).status).toBe('completed');
  });

  it('contradicting claims from two agents leave retrieval and become a pending question', async () => {
    const user = await passportUser();
    const a = await agentFor(user, { categories: ['fact'], access: 'read_write' });
    const b = await agentFor(user, { categories: ['fact'], access: 'read_write' });
    await say(a, 'I live in Lisbon.');
    expect((await b.retrieve({ query: 'where does the user live' })).body.data).toHaveLength(1);
    await say(b, 'I live in Porto.');
    const r = await a.retrieve({ query: 'where does the user live' });
    expect(r.body.data).toEqual([]);
    expect(r.body.clarification_question).toBe('Do you currently live in Lisbon or in Porto?');
    const statuses = await sql`SELECT content, status FROM universal_memories WHERE passport_user_id = ${user} ORDER BY content`;
    expect(statuses.map((s) => [s.content, s.status])).toEqual([
      ['The user lives in Lisbon.', 'inactive'],
      ['The user lives in Porto.', 'inactive'],
    ]);
    const questions = await listPassportQuestions(database.db, user);
    expect(questions).toHaveLength(1);
    expect(questions[0]).toMatchObject({ subject: 'residence', question: 'Do you currently live in Lisbon or in Porto?' });
    expect(questions[0].options.map((o) => o.content)).toEqual(['The user lives in Lisbon.', 'The user lives in Porto.']);
  });

  it('the passport user answers pending questions: GET /v1/uui/me/questions, POST …/resolve, passport.questions / answerQuestion', async () => {
    const email = `${crypto.randomUUID()}@example.test`;
    const ip = randomIp();
    const code = async () => (await mailboxCodes(server!, email, /Your passport sign-in code is (\d{6})/))[0];
    const rest = (method: string, path: string, body?: unknown, token?: string) =>
      new Api(server!).request(method, path, body, { 'x-forwarded-for': ip, ...(token ? { authorization: `Bearer ${token}` } : {}) });
    expect((await rest('POST', '/v1/uui/otp/send', { email })).status).toBe(200);
    const verified = await rest('POST', '/v1/uui/otp/verify', { email, code: await code() });
    expect(verified.status).toBe(200);
    const token = verified.body.data.session_token as string;
    const user = verified.body.data.passport.id as string;

    const a = await agentFor(user, { categories: ['fact'], access: 'read_write' });
    const b = await agentFor(user, { categories: ['fact'], access: 'read_write' });
    await say(a, 'I live in Lisbon.');
    await say(b, 'I live in Porto.');

    expect((await rest('GET', '/v1/uui/me/questions')).status).toBe(401);
    const listed = await rest('GET', '/v1/uui/me/questions', undefined, token);
    expect(listed.status).toBe(200);
    expect(listed.body.data).toHaveLength(1);
    const [q] = listed.body.data;
    expect(q.question).toBe('Do you currently live in Lisbon or in Porto?');
    const porto = q.options.find((o: { content: string }) => o.content === 'The user lives in Porto.');
    const resolve = (id: string, keep: unknown, t = token) =>
      rest('POST', `/v1/uui/me/questions/${id}/resolve`, { keep_memory_id: keep }, t);
    expect((await resolve(q.id, porto.memory_id, '')).status).toBe(401);
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
    expect((await rest('GET', '/v1/uui/me/questions', undefined, token)).body.data).toEqual([]);

    // The consent app: the same through passport.questions / passport.answerQuestion (CSRF header required).
    await say(a, 'I live in Madrid.');
    const browser = new TrpcClient(server!, ip, 'passport.');
    expect((await browser.mutate('sendCode', { email })).status).toBe(200);
    const signedIn = await browser.mutate('verifyCode', { email, code: await code() });
    expect(signedIn.status).toBe(200);
    const asked = await browser.query('questions');
    expect(asked.status).toBe(200);
    const [q2] = asked.body.result.data;
    expect(q2.question).toBe('Do you currently live in Porto or in Madrid?');
    const madrid = q2.options.find((o: { content: string }) => o.content === 'The user lives in Madrid.');
    expect((await browser.mutate('answerQuestion', { reviewId: q2.id, keepMemoryId: madrid.memory_id })).status).toBe(403);
    browser.csrf = signedIn.body.result.data.csrfToken;
    const answered = await browser.mutate('answerQuestion', { reviewId: q2.id, keepMemoryId: madrid.memory_id });
    expect(answered.status).toBe(200);
    expect(answered.body.result.data).toMatchObject({ status: 'resolved', resolution_memory_id: madrid.memory_id });
    expect((await b.retrieve({ query: 'where does the user live' })).body.data.map((m: { content: string }) => m.content)).toEqual([
      'The user lives in Madrid.',
    ]);
  });
});
