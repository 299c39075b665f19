/**
 * Domain schemas over real HTTP on PGlite and PostgreSQL (docs/domain-schemas.md): the tenant setting and its
 * catalogue, refusals, the same add/retrieve requests under every schema, tenant isolation, the audit entry,
 * and the EdTech student profile and learner section built from the tutoring fixture.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { Api, servers, tenantApi } from './client';
import { ConsoleClient, tenantWithAdmin } from './console-client';

const FIXTURE = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../fixtures/tutoring-conversations.json'), 'utf8')) as {
  student: string;
  sessions: Array<{ observed_at: string; messages: Array<{ role: string; content: string }> }>;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const patch = (api: Api, body: unknown) => api.request('PATCH', '/v1/tenant/domain-schema', body);

async function addAndWait(api: Api, externalUserId: string, messages: unknown) {
  const add = await api.post('/v1/memories/add', { external_user_id: externalUserId, messages });
  expect(add.status).toBe(200);
  const job = await api.waitForJob(add.body.job_id);
  expect(job.status).toBe('completed');
  return job;
}

describe.each(servers())('domain schemas on $name', (server) => {
  it('starts as general, lists the catalogue, switches and refuses announced, planned and unknown schemas', async () => {
    const api = await tenantApi(server);
    const initial = await api.get('/v1/tenant/domain-schema');
    expect(initial.status).toBe(200);
    expect(initial.body.data.domain_schema).toBe('general');
    expect(initial.body.data.catalogue).toEqual([
      { id: 'general', name: 'General Engine', status: 'available', active: true },
      { id: 'edtech', name: 'EdTech Schema', status: 'available', active: false },
      { id: 'customer_support', name: 'Customer Support Schema', status: 'available', active: false },
      { id: 'hr_tech', name: 'HR Tech', status: 'announced', active: false },
      { id: 'healthtech', name: 'HealthTech', status: 'announced', active: false },
      { id: 'agritech', name: 'AgriTech', status: 'planned', active: false },
    ]);

    const other = await tenantApi(server);
    const switched = await patch(api, { domain_schema: 'edtech' });
    expect(switched.status).toBe(200);
    expect(switched.body.data.domain_schema).toBe('edtech');
    expect((await api.get('/v1/tenant/domain-schema')).body.data.domain_schema).toBe('edtech');
    expect((await other.get('/v1/tenant/domain-schema')).body.data.domain_schema).toBe('general');

    for (const [id, status] of [['hr_tech', 'announced'], ['healthtech', 'announced'], ['agritech', 'planned']]) {
      const refused = await patch(api, { domain_schema: id });
      expect(refused.status).toBe(422);
      expect(refused.headers.get('content-type')).toMatch(/application\/problem\+json/);
      expect(refused.body.code).toBe('validation_failed');
      expect(refused.body.errors[0]).toMatchObject({ path: 'domain_schema', message: expect.stringContaining(`is ${status}`) });
    }
    for (const body of [{ domain_schema: 'legal' }, { domain_schema: 'edtech', extra: 1 }, {}]) {
      const refused = await patch(api, body);
      expect(refused.status).toBe(422);
      expect(refused.body.code).toBe('validation_failed');
    }
    expect((await api.get('/v1/tenant/domain-schema')).body.data.domain_schema).toBe('edtech');
    expect((await api.withKey('mem_sk_nope').get('/v1/tenant/domain-schema')).status).toBe(401);

    expect((await patch(api, { domain_schema: 'customer_support' })).body.data.domain_schema).toBe('customer_support');
    expect((await patch(api, { domain_schema: 'general' })).body.data.domain_schema).toBe('general');
  });

  it('answers the same add and retrieve requests under every schema and never rewrites memories', async () => {
    const api = await tenantApi(server);
    await addAndWait(api, 'u1', [{ role: 'user', content: "I'm a vegetarian and I live in Lisbon." }]);
    const list = async () =>
      (await api.get('/v1/memories?external_user_id=u1')).body.data.items.map((m: any) => [m.id, m.content, m.category, m.status, m.importance_score]);
    const before = await list();
    const retrieveBody = { external_user_id: 'u1', query: 'where does the user live?' };
    let generalRetrieve: any = null;
    for (const schema of ['general', 'edtech', 'customer_support', 'general']) {
      expect((await patch(api, { domain_schema: schema })).status).toBe(200);
      const r = await api.post('/v1/memories/retrieve', retrieveBody);
      expect(r.status).toBe(200);
      // what the user eats is no answer to where they live: "the user" in the question matches no memory by itself
      expect(r.body.data.map((m: any) => m.content)).toEqual(['The user lives in Lisbon.']);
      if (schema === 'general') {
        generalRetrieve ??= r.body;
        expect(r.body.system_prompt_addition).toBe(generalRetrieve.system_prompt_addition);
        expect(r.body.system_prompt_addition).not.toContain('Learner profile');
      }
      // no learner facts among these memories: the edtech section is left out rather than shown empty
      expect(r.body.context_token_count).toBeLessThanOrEqual(2000);
      const again = await api.post('/v1/memories/add', { external_user_id: `u-${schema}`, messages: [{ role: 'user', content: 'I live in Porto.' }] });
      expect(again.status).toBe(200);
      expect(again.body.status).toBe('queued');
    }
    expect(await list()).toEqual(before);
  });

  it('builds the student profile from tutoring conversations and adds a learner section to retrieve', async () => {
    const api = await tenantApi(server);
    for (const s of FIXTURE.sessions) await addAndWait(api, FIXTURE.student, s.messages);

    const notEnabled = await api.get(`/v1/memories/edtech-profile?external_user_id=${FIXTURE.student}`);
    expect(notEnabled.status).toBe(409);
    expect(notEnabled.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(notEnabled.body.code).toBe('conflict');
    expect(notEnabled.body.detail).toContain('PATCH /v1/tenant/domain-schema');
    const plain = await api.post('/v1/memories/retrieve', { external_user_id: FIXTURE.student, query: 'how should I explain fractions?' });
    expect(plain.body.system_prompt_addition).not.toContain('Learner profile');

    expect((await patch(api, { domain_schema: 'edtech' })).status).toBe(200);
    const res = await api.get(`/v1/memories/edtech-profile?external_user_id=${FIXTURE.student}`);
    expect(res.status).toBe(200);
    const p = res.body.data;
    const memories = (await api.get(`/v1/memories?external_user_id=${FIXTURE.student}`)).body.data.items as Array<{ id: string; content: string; source_event_id: string }>;
    const byContent = new Map(memories.map((m) => [m.content, m]));
    const support = (content: string) => {
      const m = byContent.get(content);
      expect(m, content).toBeDefined();
      return { memory_ids: [m!.id], source_event_ids: [m!.source_event_id] };
    };
    expect(p.external_user_id).toBe(FIXTURE.student);
    expect(p.level).toEqual([{ value: '10th grade', ...support('The user is in 10th grade.') }]);
    expect(p.struggles).toEqual([{ value: 'fractions', ...support('The user struggles with fractions.') }]);
    expect(p.misconceptions).toEqual([{ value: 'confuses mass with weight', ...support('The user confuses mass with weight.') }]);
    expect(p.exam_dates).toEqual([
      { value: 'chemistry exam on 12 June 2025', date: '2025-06-12', ...support('The user has a chemistry exam on 12 June 2025.') },
    ]);
    expect(p.pace.map((e: any) => e.value)).toEqual(['slowly']);
    expect(p.accommodations.map((e: any) => e.value).sort()).toEqual(['dyslexia', 'extra time on tests']);
    expect(p.memory_count).toBe(memories.length);
    for (const e of p.level) expect(e.source_event_ids[0]).toMatch(UUID);

    const bullets = await api.post('/v1/memories/retrieve', { external_user_id: FIXTURE.student, query: 'how should I explain fractions?' });
    expect(bullets.status).toBe(200);
    expect(bullets.body.system_prompt_addition).toContain('\n\nLearner profile:\n- Level: 10th grade\n- Struggles: fractions\n');
    const json = await api.post('/v1/memories/retrieve', { external_user_id: FIXTURE.student, query: 'fractions', format: 'json' });
    expect(JSON.parse(json.body.system_prompt_addition).learner_profile.level).toEqual(['10th grade']);
    const xml = await api.post('/v1/memories/retrieve', { external_user_id: FIXTURE.student, query: 'fractions', format: 'xml' });
    expect(xml.body.system_prompt_addition).toContain('<learner_profile>\n<field name="level">10th grade</field>');

    // the budget holds with the section: a small budget keeps whole lines only, and the exact count
    for (const max of [40, 80, 120]) {
      const small = await api.post('/v1/memories/retrieve', { external_user_id: FIXTURE.student, query: 'fractions', context_max_tokens: max });
      expect(small.status).toBe(200);
      expect(small.body.context_token_count).toBeLessThanOrEqual(max);
      for (const line of small.body.system_prompt_addition.split('\n').filter((l: string) => l.startsWith('- ') && !l.startsWith('- The user'))) {
        expect(bullets.body.system_prompt_addition.split('\n')).toContain(line);
      }
    }

    const unknown = await api.get('/v1/memories/edtech-profile?external_user_id=nobody');
    expect(unknown.status).toBe(404);
    const missing = await api.get('/v1/memories/edtech-profile');
    expect(missing.status).toBe(422);

    // switching away keeps the memories and disables the profile again
    expect((await patch(api, { domain_schema: 'general' })).status).toBe(200);
    expect((await api.get(`/v1/memories/edtech-profile?external_user_id=${FIXTURE.student}`)).status).toBe(409);
    expect((await api.get(`/v1/memories?external_user_id=${FIXTURE.student}`)).body.data.items.length).toBe(memories.length);
  });
});

describe.each(servers())('domain schemas in the console on $name', (server) => {
  it('shows and switches the schema and the student profile, for the session’s tenant only', async () => {
    const { email, api } = await tenantWithAdmin(server);
    for (const s of FIXTURE.sessions) await addAndWait(api, FIXTURE.student, s.messages);
    const other = await tenantWithAdmin(server);
    await addAndWait(other.api, FIXTURE.student, [{ role: 'user', content: "I'm in 7th grade." }]);
    const c = new ConsoleClient(server);
    await c.signIn(email);

    const page = await fetch(`${server.baseUrl}/console/students`);
    expect(page.status).toBe(200);

    expect((await c.query('domains.get')).body.result.data.domain_schema).toBe('general');
    const off = await c.query('domains.studentProfile', { external_user_id: FIXTURE.student });
    expect(off.body.error.data.code).toBe('CONFLICT');
    const refused = await c.mutate('domains.set', { domain_schema: 'agritech' });
    expect(refused.body.error.data.code).toBe('UNPROCESSABLE_CONTENT');
    expect(refused.body.error.message).toContain('planned');

    const set = await c.mutate('domains.set', { domain_schema: 'edtech' });
    expect(set.status).toBe(200);
    expect(set.body.result.data.domain_schema).toBe('edtech');
    expect((await api.get('/v1/tenant/domain-schema')).body.data.domain_schema).toBe('edtech');
    expect((await other.api.get('/v1/tenant/domain-schema')).body.data.domain_schema).toBe('general');

    const profile = await c.query('domains.studentProfile', { external_user_id: FIXTURE.student });
    expect(profile.status).toBe(200);
    const viaApi = (await api.get(`/v1/memories/edtech-profile?external_user_id=${FIXTURE.student}`)).body.data;
    const { generated_at: _a, ...consoleProfile } = profile.body.result.data;
    const { generated_at: _b, ...apiProfile } = viaApi;
    expect(consoleProfile).toEqual(apiProfile);
    expect(consoleProfile.level.map((e: any) => e.value)).toEqual(['10th grade']); // not the other tenant's 7th grade
  });
});

describe.runIf(servers().some((s) => s.name === 'postgres'))('domain schema audit on postgres', () => {
  const server = servers().find((s) => s.name === 'postgres')!;
  const sql = postgres(inject('pgDatabaseUrl'), { max: 1, onnotice: () => {} });
  afterAll(() => sql.end({ timeout: 5 }));

  it('audits each switch with the previous and the new schema, and not a refused or unchanged one', async () => {
    const admin = new Api(server);
    const { tenant_id, api_key } = await admin.createTenant();
    const api = admin.withKey(api_key);
    await patch(api, { domain_schema: 'edtech' });
    await patch(api, { domain_schema: 'edtech' });
    await patch(api, { domain_schema: 'hr_tech' });
    await patch(api, { domain_schema: 'general' });
    const audit = await sql`SELECT actor, action, target_id, details FROM audit_log WHERE tenant_id = ${tenant_id} AND action = 'domain_schema.changed' ORDER BY created_at`;
    expect(audit.map((a) => a.details)).toEqual([
      { from: 'general', to: 'edtech' },
      { from: 'edtech', to: 'general' },
    ]);
    for (const a of audit) {
      expect(a.actor).toMatch(/^api_key:[0-9a-f-]{36}$/);
      expect(a.target_id).toBe(tenant_id);
    }
  });
});
