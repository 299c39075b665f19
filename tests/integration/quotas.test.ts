/**
 * Usage controls over HTTP (docs/quotas.md): one tenant walked through every quota mode by consuming its budget
 * and back by a plan change, the L1 answer and the 429 headers of the write rates, on both engines; on PostgreSQL
 * also a new period (the plan anchor moved back in SQL), the audited transitions, a delayed backlog (queued jobs
 * inserted in SQL) and the Redis limiter shared by two more server processes. Direct SQL is possible only on
 * PostgreSQL: a PGlite server owns its data directory.
 */
import postgres from 'postgres';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { Api, type ApiResponse, servers, tenantApi } from './client';
import { type RunningServer, startServer } from './server';

const UUID = /^[0-9a-f-]{36}$/;

const asAdmin = (api: Api) => ({ authorization: `Bearer ${api.server.adminToken}` });

async function setPlan(api: Api, tenantId: string, body: unknown): Promise<ApiResponse> {
  return api.request('PUT', `/v1/admin/tenants/${tenantId}/plan`, body, asAdmin(api));
}

/** A tenant on the given plan: its key's client and its id. */
async function tenantOnPlan(server: Parameters<typeof tenantApi>[0], plan: unknown) {
  const admin = new Api(server);
  const t = await admin.createTenant();
  const res = await setPlan(admin, t.tenant_id, plan);
  expect(res.status).toBe(200);
  return { api: admin.withKey(t.api_key), tenantId: t.tenant_id, admin };
}

const add = (api: Api, user: string, content: string) =>
  api.post('/v1/memories/add', { external_user_id: user, messages: [{ role: 'user', content }] });
const retrieve = (api: Api, user: string, query: string) => api.post('/v1/memories/retrieve', { external_user_id: user, query });

/** The write-rate windows are whole minutes: start a rate-limit scenario early in one so it cannot straddle two. */
async function startOfAMinute() {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 40_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 200));
}

const FACTS = [
  'I live in Lisbon.',
  'I am a vegetarian.',
  'I play the cello.',
  'I work as a nurse.',
  'I have a dog named Rex.',
  'I speak Portuguese.',
  'I love jazz.',
  'I run every morning.',
  'I drink green tea.',
  'I grew up in Porto.',
  'I collect stamps.',
  'I study French.',
  'I like hiking.',
  'I bake bread on Sundays.',
  'I drive a blue car.',
  'I read science fiction.',
  'I paint with watercolours.',
  'I have two sisters.',
  'I swim on Fridays.',
  'I garden on weekends.',
  'I enjoy chess.',
];

describe.each(servers())('quota modes on $name', (server) => {
  it('walks one tenant from FULL through DEGRADED_RETRIEVE and PASSTHROUGH to BLOCKED and back by a plan change', async () => {
    // 20 adds per period make every threshold a whole number of calls: 16 used = 20 %, 19 = 5 %, 20 = 0 %.
    const { api, tenantId, admin } = await tenantOnPlan(server, {
      plan: 'free',
      overrides: { budgets: { add_calls: 20, retrieve_calls: 1000 }, rate_limits: { user_writes_per_minute: null, tenant_writes_per_minute: null } },
    });
    const usage0 = await api.get('/v1/tenant/usage');
    expect(usage0.status).toBe(200);
    expect(usage0.body.data).toMatchObject({
      tenant_id: tenantId,
      plan: { id: 'free', name: 'Free' },
      budgets: { add_calls: 20, retrieve_calls: 1000 },
      usage: { add_calls: 0, retrieve_calls: 0 },
      budget_remaining_pct: 100,
      quota_mode: 'FULL',
      thresholds: { degraded_retrieve_at_pct: 20, passthrough_at_pct: 5, blocked_at_pct: 0 },
      rate_limits: { user_writes_per_minute: null, tenant_writes_per_minute: null, window_seconds: 60 },
    });

    const expectQueued = (res: ApiResponse, mode: string, pct: number) => {
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        status: 'queued',
        job_id: expect.stringMatching(UUID),
        blocked_reason: null,
        nothing_to_extract: false,
        retry_after_seconds: null,
        budget_remaining_pct: pct,
        quota_mode: mode,
        processing_status: 'normal',
        processing_eta_seconds: null,
      });
    };

    // Each job is awaited before the next add, so the backlog stays empty and every add reports `normal`.
    // FULL: adds 1–15 leave 95 % … 25 %
    const first = await add(api, 'walker', FACTS[0]);
    expectQueued(first, 'FULL', 95);
    expect((await api.waitForJob(first.body.job_id)).status).toBe('completed');
    const full = await retrieve(api, 'walker', 'where does the user live?');
    expect(full.status).toBe(200);
    expect(full.body).toMatchObject({ quota_mode: 'FULL', budget_remaining_pct: 95, is_degraded: false, is_passthrough: false });
    expect(full.body.retrieval_id).toMatch(UUID);
    expect(full.body.data.map((m: any) => m.content)).toContain('The user lives in Lisbon.');
    const queued = async (fact: string, mode: string, pct: number) => {
      const res = await add(api, 'walker', fact);
      expectQueued(res, mode, pct);
      await api.waitForJob(res.body.job_id);
    };
    for (let n = 2; n <= 15; n++) await queued(FACTS[n - 1], 'FULL', 100 - n * 5);

    // the 16th add is still processed; the tenant is now at 20 %: DEGRADED_RETRIEVE
    await queued(FACTS[15], 'DEGRADED_RETRIEVE', 20);
    const degraded = await api.post('/v1/memories/retrieve', { external_user_id: 'walker', query: 'what does the user do?', limit: 20 });
    expect(degraded.status).toBe(200);
    expect(degraded.body).toMatchObject({ quota_mode: 'DEGRADED_RETRIEVE', budget_remaining_pct: 20, is_degraded: true, is_passthrough: false });
    expect(degraded.body.data.length).toBeGreaterThan(0);
    expect(degraded.body.data.length).toBeLessThanOrEqual(5);
    expect(degraded.body.system_prompt_addition).not.toBe('');

    await queued(FACTS[16], 'DEGRADED_RETRIEVE', 15);
    await queued(FACTS[17], 'DEGRADED_RETRIEVE', 10);
    // the 19th leaves 5 %: PASSTHROUGH
    await queued(FACTS[18], 'PASSTHROUGH', 5);
    const passthroughRetrieve = await retrieve(api, 'walker', 'where does the user live?');
    expect(passthroughRetrieve.body).toMatchObject({
      quota_mode: 'PASSTHROUGH',
      budget_remaining_pct: 5,
      is_passthrough: true,
      is_degraded: false,
      data: [],
      system_prompt_addition: '',
      retrieval_id: null,
    });

    // in PASSTHROUGH the 20th add is kept as a source event but not queued; it uses the last of the budget
    /** An add that was not queued: no job, nothing to extract, no backlog figures, and the tenant BLOCKED after it. */
    const expectNotQueued = (res: ApiResponse, status: string, blockedReason: string | null) => {
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        status,
        job_id: null,
        blocked_reason: blockedReason,
        nothing_to_extract: false,
        retry_after_seconds: null,
        budget_remaining_pct: 0,
        quota_mode: 'BLOCKED',
        processing_status: 'normal',
        processing_eta_seconds: null,
      });
    };
    expectNotQueued(await add(api, 'walker', FACTS[19]), 'passthrough', null);
    const events = (await api.get('/v1/tenant/source-events?external_user_id=walker&limit=100')).body.data.items as any[];
    expect(events).toHaveLength(20);
    expect(events.filter((e) => e.job_id === null)).toHaveLength(1);

    // BLOCKED: nothing stored, nothing counted, and retrieve says to skip memory
    expectNotQueued(await add(api, 'walker', FACTS[20]), 'blocked', 'quota_exhausted');
    expect((await api.get('/v1/tenant/source-events?external_user_id=walker&limit=100')).body.data.items).toHaveLength(20);
    const blockedRetrieve = await retrieve(api, 'walker', 'where does the user live?');
    expect(blockedRetrieve.body).toMatchObject({ quota_mode: 'BLOCKED', budget_remaining_pct: 0, is_passthrough: true, data: [], system_prompt_addition: '' });
    const usageBlocked = (await api.get('/v1/tenant/usage')).body.data;
    expect(usageBlocked).toMatchObject({ usage: { add_calls: 20, retrieve_calls: 2 }, budget_remaining_pct: 0, quota_mode: 'BLOCKED' });
    expect(usageBlocked.daily).toEqual([{ day: new Date().toISOString().slice(0, 10), add_calls: 20, retrieve_calls: 2 }]);

    // a plan change starts a new period: FULL again at once
    const changed = await setPlan(admin, tenantId, { plan: 'pro' });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({
      plan: { id: 'pro', overrides: {} },
      budgets: { add_calls: 100_000, retrieve_calls: 1_000_000 },
      usage: { add_calls: 0, retrieve_calls: 0 },
      budget_remaining_pct: 100,
      quota_mode: 'FULL',
    });
    const again = await add(api, 'walker', 'I also play the piano.');
    expectQueued(again, 'FULL', 100);
    await api.waitForJob(again.body.job_id);
    const back = await retrieve(api, 'walker', 'where does the user live?');
    expect(back.body).toMatchObject({ quota_mode: 'FULL', budget_remaining_pct: 100, is_degraded: false, is_passthrough: false });
    expect(back.body.data.map((m: any) => m.content)).toContain('The user lives in Lisbon.');
  });

  it('reports null budget and FULL on the default unlimited plan, and guards the plan routes', async () => {
    const api = await tenantApi(server);
    const res = await add(api, 'u', 'I live in Madrid.');
    expect(res.body).toMatchObject({ status: 'queued', budget_remaining_pct: null, quota_mode: 'FULL' });
    const r = await retrieve(api, 'u', 'where?');
    expect(r.body).toMatchObject({ quota_mode: 'FULL', budget_remaining_pct: null, is_degraded: false, is_passthrough: false });
    const usage = (await api.get('/v1/tenant/usage')).body.data;
    expect(usage).toMatchObject({ plan: { id: 'unlimited' }, budgets: { add_calls: null, retrieve_calls: null }, budget_remaining_pct: null, quota_mode: 'FULL' });
    expect(usage.usage).toEqual({ add_calls: 1, retrieve_calls: 1 });

    const admin = new Api(server);
    expect((await new Api(server).get('/v1/tenant/usage')).status).toBe(401);
    expect((await admin.request('PUT', `/v1/admin/tenants/${usage.tenant_id}/plan`, { plan: 'pro' })).status).toBe(401);
    const bad = await setPlan(admin, usage.tenant_id, { plan: 'gold' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: any) => e.path)).toEqual(['plan']);
    expect((await setPlan(admin, '00000000-0000-4000-8000-000000000000', { plan: 'pro' })).status).toBe(404);
    // a tenant can be created on a plan
    const created = await admin.request('POST', '/v1/admin/tenants', { name: 'on-free', plan: 'free' }, asAdmin(admin));
    expect(created.status).toBe(201);
    const onFree = await admin.withKey(created.body.data.api_key).get('/v1/tenant/usage');
    expect(onFree.body.data).toMatchObject({ plan: { id: 'free' }, budgets: { add_calls: 1000 }, budget_remaining_pct: 100 });
  });
});

describe.each(servers())('write rates on $name', (server) => {
  it('answers L1 over the per-user and per-tenant rates, and 429 with RateLimit headers on other writes', async () => {
    const { api } = await tenantOnPlan(server, {
      plan: 'free',
      overrides: { rate_limits: { user_writes_per_minute: 2, tenant_writes_per_minute: 3 } },
    });
    await startOfAMinute();
    expect((await add(api, 'alice', 'I live in Oslo.')).body.status).toBe('queued');
    expect((await add(api, 'alice', 'I like skiing.')).body.status).toBe('queued');
    // alice's third write in this minute: over the per-user rate
    const l1 = await add(api, 'alice', 'I have a cat.');
    expect(l1.status).toBe(200);
    expect(l1.body).toMatchObject({
      status: 'L1',
      job_id: null,
      blocked_reason: 'rate_limited',
      nothing_to_extract: false,
      quota_mode: 'FULL',
      budget_remaining_pct: 99.8,
      processing_status: 'normal',
      processing_eta_seconds: null,
    });
    expect(l1.body.retry_after_seconds).toBeGreaterThanOrEqual(1);
    expect(l1.body.retry_after_seconds).toBeLessThanOrEqual(60);
    // bob has written nothing, but the tenant has used its 3 writes of the minute
    const bob = await add(api, 'bob', 'I live in Bergen.');
    expect(bob.body).toMatchObject({ status: 'L1', blocked_reason: 'rate_limited', job_id: null });
    // refused writes were not counted in the budget, nor stored
    expect((await api.get('/v1/tenant/usage')).body.data.usage.add_calls).toBe(2);
    expect((await api.get('/v1/tenant/source-events?limit=100')).body.data.items).toHaveLength(2);

    // the other write endpoints answer 429
    const del = await api.delete('/v1/memories/00000000-0000-4000-8000-000000000000');
    expect(del.status).toBe(429);
    expect(del.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(del.body).toMatchObject({ code: 'rate_limited', status: 429, retry_after_seconds: expect.any(Number) });
    const retryAfter = Number(del.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(del.body.retry_after_seconds).toBe(retryAfter);
    expect(del.headers.get('ratelimit-policy')).toBe('"tenant-writes";q=3;w=60');
    expect(del.headers.get('ratelimit')).toBe(`"tenant-writes";r=0;t=${retryAfter}`);
    const feedback = await api.post('/v1/memories/retrieval-feedback', {
      retrieval_id: '00000000-0000-4000-8000-000000000000',
      outcome: 'ignored',
    });
    expect(feedback.status).toBe(429);
    expect(feedback.body.code).toBe('rate_limited');
    expect(feedback.headers.get('ratelimit-policy')).toBe('"tenant-writes";q=3;w=60');
    expect(feedback.headers.get('retry-after')).toMatch(/^\d+$/);
    // reads are not write-limited
    expect((await retrieve(api, 'alice', 'where?')).status).toBe(200);
  });

  it('sends the RateLimit headers on a write under the limit', async () => {
    const { api } = await tenantOnPlan(server, { plan: 'free', overrides: { rate_limits: { tenant_writes_per_minute: 50 } } });
    await startOfAMinute();
    const added = await add(api, 'carol', 'I live in Rome.');
    expect(added.body.status).toBe('queued');
    await api.waitForJob(added.body.job_id);
    const memory = (await api.get('/v1/memories?external_user_id=carol')).body.data.items[0];
    const del = await api.delete(`/v1/memories/${memory.id}`);
    expect(del.status).toBe(200);
    expect(del.headers.get('ratelimit-policy')).toBe('"tenant-writes";q=50;w=60');
    expect(del.headers.get('ratelimit')).toMatch(/^"tenant-writes";r=48;t=\d+$/);
    expect(del.headers.get('retry-after')).toBeNull();
  });
});

describe('quotas on postgres only', () => {
  const pg = servers().find((s) => s.name === 'postgres');
  const url = inject('pgDatabaseUrl');
  const sql = postgres(url, { max: 2, onnotice: () => {} });
  const extra: RunningServer[] = [];

  afterAll(async () => {
    await Promise.all(extra.map((s) => s.stop()));
    await sql.end({ timeout: 5 });
  });

  it('audits every mode transition once, and a new period restores the mode', async () => {
    if (!pg) throw new Error('no postgres server');
    const { api, tenantId } = await tenantOnPlan(pg, { plan: 'free', overrides: { budgets: { add_calls: 2 } } });
    expect((await add(api, 'p', 'I live in Kyiv.')).body).toMatchObject({ status: 'queued', quota_mode: 'FULL', budget_remaining_pct: 50 });
    expect((await add(api, 'p', 'I like borscht.')).body).toMatchObject({ status: 'queued', quota_mode: 'BLOCKED', budget_remaining_pct: 0 });
    expect((await add(api, 'p', 'I sing in the church choir every Sunday.')).body).toMatchObject({ status: 'blocked', quota_mode: 'BLOCKED' });

    // the period began a month and a day ago: a new period has started since
    await sql`UPDATE tenants SET plan_anchor = plan_anchor - interval '1 month 1 day' WHERE id = ${tenantId}`;
    expect((await add(api, 'p', 'I sing in a choir.')).body).toMatchObject({ status: 'queued', quota_mode: 'FULL', budget_remaining_pct: 50 });

    const audit = await sql`SELECT actor, details FROM audit_log WHERE tenant_id = ${tenantId} AND action = 'quota.mode_changed' ORDER BY created_at`;
    expect(audit.map((a) => [a.details.from, a.details.to, a.details.budget_remaining_pct])).toEqual([
      ['FULL', 'BLOCKED', 0],
      ['BLOCKED', 'FULL', 100],
    ]);
    const planAudit = await sql`SELECT actor, details FROM audit_log WHERE tenant_id = ${tenantId} AND action = 'tenant.plan_changed'`;
    expect(planAudit).toHaveLength(1);
    expect(planAudit[0]).toMatchObject({ actor: 'operator', details: { plan: 'free' } });
  });

  it('answers delayed with an ETA from the measured rate while the backlog is long', async () => {
    if (!pg) throw new Error('no postgres server');
    const api = await tenantApi(pg);
    const first = await add(api, 'slow', 'I live in Gdansk.');
    await api.waitForJob(first.body.job_id);
    // 20,000 queued jobs that are not due yet (so the runner leaves them): the queue depth, not the rate, grows
    await sql`INSERT INTO extraction_jobs (id, tenant_id, user_id, source_event_id, kind, status, queue_name, max_attempts, run_after)
              SELECT gen_random_uuid(), tenant_id, user_id, source_event_id, kind, 'queued', queue_name, max_attempts, now() + interval '1 day'
              FROM extraction_jobs, generate_series(1, 20000) WHERE id = ${first.body.job_id}`;
    try {
      // the monitor samples the job table at most once a second
      let res = await add(api, 'slow', 'I like amber.');
      const deadline = Date.now() + 10_000;
      while (res.body.processing_status !== 'delayed' && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 300));
        res = await add(api, 'slow', 'I like amber.');
      }
      expect(res.body).toMatchObject({ status: 'queued', processing_status: 'delayed' });
      expect(Number.isInteger(res.body.processing_eta_seconds)).toBe(true);
      // 20,000 jobs at the measured rate (jobs finished in the window / the seconds measured, at least 10):
      // at least 20,000 × 10 s / the jobs finished in the last 5 minutes (a few more may finish meanwhile)
      const [{ finished }] = await sql`SELECT count(*)::int AS finished FROM extraction_jobs WHERE finished_at > now() - interval '300 seconds'`;
      expect(res.body.processing_eta_seconds).toBeGreaterThanOrEqual(Math.floor((20_000 * 10) / (finished + 50)));
    } finally {
      await sql`DELETE FROM extraction_jobs WHERE tenant_id = (SELECT tenant_id FROM extraction_jobs WHERE id = ${first.body.job_id}) AND run_after > now() + interval '1 hour'`;
    }
    let res = await add(api, 'slow', 'I like linden tea.');
    const deadline = Date.now() + 10_000;
    while (res.body.processing_status !== 'normal' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 300));
      res = await add(api, 'slow', 'I like linden tea.');
    }
    expect(res.body).toMatchObject({ processing_status: 'normal', processing_eta_seconds: null });
  });

  /** Two more server processes on the same database and Redis, a tenant with the given per-user write rate, and the start of a minute. */
  async function twoServersSharingRedis(userWritesPerMinute: number) {
    if (!pg) throw new Error('no postgres server');
    const env = { DATABASE_URL: url, MEMORY_REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', MEMORY_EMBEDDED_WORKER: 'off' };
    const started = await Promise.all([startServer('postgres', env), startServer('postgres', env)]);
    extra.push(...started);
    const admin = new Api(pg);
    const t = await admin.createTenant();
    await setPlan(admin, t.tenant_id, { plan: 'pro', overrides: { rate_limits: { user_writes_per_minute: userWritesPerMinute } } });
    const [a, b] = started.map((s) => new Api({ name: 'postgres', baseUrl: s.baseUrl, adminToken: s.adminToken }, t.api_key));
    await startOfAMinute();
    return { admin, t, a, b };
  }

  it('holds a write rate across two server processes sharing Redis', async () => {
    const { admin, t, a, b } = await twoServersSharingRedis(3);
    const statuses = [];
    for (const api of [a, b, a, b]) statuses.push((await add(api, 'shared', 'I live in Vienna.')).body.status);
    expect(statuses).toEqual(['queued', 'queued', 'queued', 'L1']);
    // the database counters of the first server were not used: it still accepts this user's write
    expect((await add(admin.withKey(t.api_key), 'shared', 'I live in Graz.')).body.status).toBe('queued');
  });

  it("erasing a user deletes the user's counter from Redis, whichever server counted it", async () => {
    const { a, b } = await twoServersSharingRedis(2);
    expect([(await add(a, 'leaving', 'I live in Vienna.')).body.status, (await add(b, 'leaving', 'I live in Graz.')).body.status]).toEqual(['queued', 'queued']);
    expect((await b.delete('/v1/users/leaving')).status).toBe(200);
    // the same window: with the counter kept, this third write would be L1
    const again = [(await add(a, 'leaving', 'I live in Linz.')).body.status, (await add(a, 'leaving', 'I live in Wels.')).body.status];
    expect(again).toEqual(['queued', 'queued']);
    expect((await add(b, 'leaving', 'I live in Steyr.')).body.status).toBe('L1');
  });
});
