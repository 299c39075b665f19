/**
 * The Customer Support schema over real HTTP on PGlite and PostgreSQL (docs/domain-schemas.md): support
 * conversations from the fixture go through add (with source blocks: channel, ticket, ticket_status, escalated)
 * and the extraction job; then the customer profile, the customers list with filters and paging, the support
 * stats, the customer section in retrieve, the console's tRPC views, and tenant isolation.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Api, servers, tenantApi } from './client';
import { ConsoleClient, tenantWithAdmin } from './console-client';

interface Session {
  event_id: string;
  observed_at: string;
  scope: Record<string, unknown>;
  messages: Array<{ role: string; content: string }>;
}
const FIXTURE = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../fixtures/support-conversations.json'), 'utf8')) as {
  customers: Array<{ external_user_id: string; sessions: Session[] }>;
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const WINDOW = 'from=2025-03-01T00:00:00Z&to=2025-03-15T00:00:00Z';

/** A tenant on the Customer Support schema with the fixture's conversations extracted (schema first: extraction adapts to it). */
async function supportTenant(api: Api) {
  expect((await api.request('PATCH', '/v1/tenant/domain-schema', { domain_schema: 'customer_support' })).status).toBe(200);
  const writer = await api.post('/v1/tenant/service-writers', {
    service_key: 'helpdesk',
    display_name: 'Helpdesk',
    authority_rules: { default_priority: 50, categories: {} },
  });
  expect(writer.status).toBe(201);
  for (const c of FIXTURE.customers) {
    for (const s of c.sessions) {
      const add = await api.post('/v1/memories/add', {
        external_user_id: c.external_user_id,
        messages: s.messages,
        source: { service: 'helpdesk', event_id: s.event_id, observed_at: s.observed_at, scope: s.scope },
      });
      expect(add.status).toBe(200);
      expect((await api.waitForJob(add.body.job_id)).status).toBe('completed');
    }
  }
}

/** event_id → source event uuid, and memory content → memory, for one customer. */
async function recordsOf(api: Api, externalUserId: string) {
  const events = (await api.get(`/v1/tenant/source-events?external_user_id=${externalUserId}&limit=100`)).body.data.items as Array<{ id: string; event_id: string }>;
  const memories = (await api.get(`/v1/memories?external_user_id=${externalUserId}`)).body.data.items as Array<{ id: string; content: string; source_event_id: string }>;
  const event = (eventId: string) => {
    const e = events.find((x) => x.event_id === eventId);
    expect(e, eventId).toBeDefined();
    return e!.id;
  };
  const memory = (content: string) => {
    const m = memories.find((x) => x.content === content);
    expect(m, content).toBeDefined();
    return m!;
  };
  return { event, memory, memories };
}

describe.each(servers())('customer support on $name', (server) => {
  it('builds each customer’s profile from support conversations, with the memories and source events behind it', async () => {
    const api = await tenantApi(server);
    await supportTenant(api);
    const dana = await recordsOf(api, 'cust_dana');

    const res = await api.get('/v1/tenant/customers/cust_dana');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const p = res.body.data;
    const plan = dana.memory('The user is on the Business plan.');
    expect(p.plan).toEqual([{ value: 'Business plan', memory_ids: [plan.id], source_event_ids: [dana.event('zd-1001-a')] }]);
    expect(p.products.map((e: any) => e.value)).toEqual(['Acme Invoicing']);
    expect(p.environment.map((e: any) => e.value)).toEqual(['Windows 11', 'Chrome']);
    const charged = dana.memory("The user was charged twice for the user's March invoice.");
    expect(p.open_issues).toEqual([
      {
        value: "The user was charged twice for the user's March invoice",
        status: 'open',
        ticket: '1002',
        opened_at: '2025-03-10T11:00:00.000Z',
        memory_ids: [charged.id],
        source_event_ids: [dana.event('zd-1002-a')],
        resolution: null,
      },
    ]);
    const failing = dana.memory('The user said that the CSV export keeps failing with a timeout error.');
    expect(p.past_issues).toEqual([
      {
        value: 'The CSV export keeps failing with a timeout error',
        status: 'resolved',
        ticket: '1001',
        opened_at: '2025-03-03T09:00:00.000Z',
        memory_ids: [failing.id],
        source_event_ids: [dana.event('zd-1001-a')],
        resolution: { resolved_at: '2025-03-05T14:00:00.000Z', by: 'ticket_status', memory_ids: [], source_event_ids: [dana.event('zd-1001-b')] },
      },
    ]);
    // the job stored a sentiment per conversation: this customer got angrier
    expect(p.sentiment).toMatchObject({ label: 'negative', trend: 'declining' });
    expect(p.sentiment.points.map((x: any) => x.source_event_id)).toEqual(['zd-1001-a', 'zd-1001-b', 'zd-1002-a'].map(dana.event));
    expect(p.preferred_channel).toEqual({
      value: 'email',
      basis: 'stated',
      memory_ids: [dana.memory('The user prefers to be contacted by email.').id],
      source_event_ids: [dana.event('zd-1001-b')],
    });
    expect(p.escalations).toHaveLength(1);
    expect(p.escalations[0]).toMatchObject({ ticket: '1002', source_event_ids: [dana.event('zd-1002-a')] });
    expect(p.escalations[0].memory_ids).toContain(dana.memory('The user asked to speak to a manager.').id);
    expect(p).toMatchObject({ conversation_count: 3, last_contact_at: '2025-03-10T11:00:00.000Z', memory_count: dana.memories.length });

    const omar = (await api.get('/v1/tenant/customers/cust_omar')).body.data;
    expect(omar.plan.map((e: any) => e.value)).toEqual(['Pro plan', 'Starter plan']);
    expect(omar.sentiment).toMatchObject({ label: 'positive', trend: 'improving' });
    expect(omar.preferred_channel).toMatchObject({ value: 'chat', basis: 'most_used' });
    for (const e of omar.plan) expect(e.source_event_ids[0]).toMatch(UUID);

    expect((await api.get('/v1/tenant/customers/nobody')).status).toBe(404);
    expect((await api.get(`/v1/tenant/customers/${encodeURIComponent('cust dana')}`)).status).toBe(404);
  });

  it('lists customers with filters, sorts and paging, and reports support stats over a window', async () => {
    const api = await tenantApi(server);
    await supportTenant(api);
    const ids = async (query: string) => {
      const r = await api.get(`/v1/tenant/customers${query}`);
      expect(r.status, query).toBe(200);
      return r.body.data.customers.map((c: any) => c.external_user_id);
    };
    const all = await api.get('/v1/tenant/customers');
    expect(all.body.data.total).toBe(2);
    expect(all.body.data.next_cursor).toBeNull();
    expect(all.body.data.customers[0]).toEqual({
      external_user_id: 'cust_omar',
      plan: 'Pro plan',
      products: ['Acme mobile app'],
      open_issues: 1,
      past_issues: 0,
      sentiment: expect.any(Number),
      sentiment_label: 'positive',
      sentiment_trend: 'improving',
      preferred_channel: 'chat',
      escalations: 0,
      conversation_count: 2,
      last_contact_at: '2025-03-12T10:00:00.000Z',
    });
    expect(await ids('?sort=sentiment')).toEqual(['cust_dana', 'cust_omar']);
    expect(await ids('?plan=business')).toEqual(['cust_dana']);
    expect(await ids('?escalated=true')).toEqual(['cust_dana']);
    expect(await ids('?sentiment=negative&has_open_issues=true')).toEqual(['cust_dana']);
    expect(await ids('?sentiment_trend=improving')).toEqual(['cust_omar']);
    expect(await ids('?channel=email')).toEqual(['cust_dana']);
    expect(await ids('?has_open_issues=false')).toEqual([]);

    const first = await api.get('/v1/tenant/customers?limit=1');
    expect(first.body.data.customers.map((c: any) => c.external_user_id)).toEqual(['cust_omar']);
    expect(first.body.data.total).toBe(2);
    const second = await api.get(`/v1/tenant/customers?limit=1&cursor=${first.body.data.next_cursor}`);
    expect(second.body.data.customers.map((c: any) => c.external_user_id)).toEqual(['cust_dana']);
    expect(second.body.data.next_cursor).toBeNull();
    for (const bad of [`?cursor=${first.body.data.next_cursor}&sort=sentiment`, '?cursor=nope', '?limit=0', '?limit=101', '?sentiment=angry', '?escalated=yes', '?sort=name']) {
      const refused = await api.get(`/v1/tenant/customers${bad}`);
      expect(refused.status, bad).toBe(422);
      expect(refused.headers.get('content-type')).toMatch(/application\/problem\+json/);
      expect(refused.body.code).toBe('validation_failed');
    }

    const stats = await api.get(`/v1/tenant/support-stats?${WINDOW}`);
    expect(stats.status).toBe(200);
    const s = stats.body.data;
    expect(s.window).toEqual({ from: '2025-03-01T00:00:00.000Z', to: '2025-03-15T00:00:00.000Z', days: 14, bucket: 'day' });
    expect(s.totals).toMatchObject({ conversations: 5, customers_contacted: 2, issues_opened: 3, issues_resolved: 1, escalations: 1, median_resolution_hours: 53 });
    expect(s.previous).toMatchObject({ conversations: 0, issues_opened: 0, average_sentiment: null });
    expect(s.current).toEqual({ customers: 2, open_issues: 2, customers_with_open_issues: 2, customers_negative: 1, customers_declining: 1 });
    expect(s.series).toHaveLength(14);
    expect(s.series.map((b: any) => b.conversations)).toEqual([0, 0, 1, 1, 1, 0, 0, 0, 0, 1, 0, 1, 0, 0]);
    expect(s.channels).toEqual([
      { channel: 'chat', conversations: 3 },
      { channel: 'email', conversations: 1 },
      { channel: 'phone', conversations: 1 },
    ]);
    expect(s.plans).toEqual([
      { plan: 'Business plan', customers: 1 },
      { plan: 'Pro plan', customers: 1 },
    ]);
    // the fixture is in March 2025: the default window (the last 30 days) is empty but answers
    const recent = await api.get('/v1/tenant/support-stats');
    expect(recent.status).toBe(200);
    expect(recent.body.data.window.days).toBe(30);
    expect(recent.body.data.totals.conversations).toBe(0);
    expect(recent.body.data.current.customers).toBe(2);
    for (const bad of ['?window=0d', '?window=400d', '?window=week', `?window=7d&${WINDOW}`, '?to=2025-03-01T00:00:00Z', '?from=2025-03-02T00:00:00Z&to=2025-03-01T00:00:00Z']) {
      const refused = await api.get(`/v1/tenant/support-stats${bad}`);
      expect(refused.status, bad).toBe(422);
      expect(refused.body.code).toBe('validation_failed');
    }
  });

  it('adds a customer section to retrieve in every format, within the token budget', async () => {
    const api = await tenantApi(server);
    await supportTenant(api);
    const retrieve = (body: Record<string, unknown>) => api.post('/v1/memories/retrieve', { external_user_id: 'cust_dana', query: 'billing problem', ...body });
    const bullets = await retrieve({});
    expect(bullets.status).toBe(200);
    expect(bullets.body.system_prompt_addition).toContain(
      "\n\nCustomer profile:\n- Plan: Business plan\n- Open issues: The user was charged twice for the user's March invoice (ticket 1002), since 2025-03-10\n- Sentiment: negative",
    );
    expect(bullets.body.system_prompt_addition).toContain('- Preferred channel: email (stated)');
    const json = JSON.parse((await retrieve({ format: 'json' })).body.system_prompt_addition);
    expect(json.customer_profile.plan).toEqual(['Business plan']);
    expect(json.customer_profile.open_issues).toHaveLength(1);
    const xml = (await retrieve({ format: 'xml' })).body.system_prompt_addition;
    expect(xml).toContain('<customer_profile>\n<field name="plan">Business plan</field>');
    for (const max of [40, 80, 160]) {
      const small = await retrieve({ context_max_tokens: max });
      expect(small.status).toBe(200);
      expect(small.body.context_token_count).toBeLessThanOrEqual(max);
    }
    // switching away removes the section and keeps the memories
    const count = (await api.get('/v1/memories?external_user_id=cust_dana')).body.data.items.length;
    expect((await api.request('PATCH', '/v1/tenant/domain-schema', { domain_schema: 'general' })).status).toBe(200);
    expect((await retrieve({})).body.system_prompt_addition).not.toContain('Customer profile');
    expect((await api.get('/v1/memories?external_user_id=cust_dana')).body.data.items.length).toBe(count);
  });

  it('answers 409 unless Customer Support is on, and never shows another tenant’s customers', async () => {
    const api = await tenantApi(server);
    await supportTenant(api);
    const other = await tenantApi(server);
    for (const p of ['/v1/tenant/customers', '/v1/tenant/customers/cust_dana', '/v1/tenant/support-stats']) {
      const off = await other.get(p);
      expect(off.status, p).toBe(409);
      expect(off.body.code).toBe('conflict');
      expect(off.body.detail).toContain('"domain_schema":"customer_support"');
      expect((await other.withKey('mem_sk_nope').get(p)).status).toBe(401);
    }
    expect((await other.request('PATCH', '/v1/tenant/domain-schema', { domain_schema: 'customer_support' })).status).toBe(200);
    expect((await other.get('/v1/tenant/customers')).body.data).toEqual({ customers: [], next_cursor: null, total: 0 });
    expect((await other.get('/v1/tenant/customers/cust_dana')).status).toBe(404);
    expect((await other.get(`/v1/tenant/support-stats?${WINDOW}`)).body.data.totals.conversations).toBe(0);
  });
});

describe.each(servers())('customer support in the console on $name', (server) => {
  it('shows the same customers, profile and stats as the API, for the session’s tenant only', async () => {
    const { email, api } = await tenantWithAdmin(server);
    await supportTenant(api);
    const other = await tenantWithAdmin(server);
    await other.api.post('/v1/memories/add', { external_user_id: 'cust_zed', messages: [{ role: 'user', content: "I'm on the Free plan." }] });
    const c = new ConsoleClient(server);
    await c.signIn(email);
    for (const page of ['/console/customers', '/console/support']) expect((await fetch(`${server.baseUrl}${page}`)).status).toBe(200);

    const list = await c.query('domains.customers', { sort: 'last_contact', limit: 20 });
    expect(list.status).toBe(200);
    expect(list.body.result.data).toEqual((await api.get('/v1/tenant/customers')).body.data);
    const profile = await c.query('domains.customer', { external_user_id: 'cust_dana' });
    const { generated_at: _a, ...viaConsole } = profile.body.result.data;
    const { generated_at: _b, ...viaApi } = (await api.get('/v1/tenant/customers/cust_dana')).body.data;
    expect(viaConsole).toEqual(viaApi);
    const stats = await c.query('domains.supportStats', { from: '2025-03-01T00:00:00Z', to: '2025-03-15T00:00:00Z' });
    expect(stats.body.result.data.totals.conversations).toBe(5);
    expect((await c.query('domains.customer', { external_user_id: 'cust_zed' })).body.error.data.code).toBe('NOT_FOUND');

    const signedOut = new ConsoleClient(server);
    expect((await signedOut.query('domains.customers', { sort: 'last_contact', limit: 20 })).body.error.data.code).toBe('UNAUTHORIZED');
  });
});
