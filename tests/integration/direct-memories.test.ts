/**
 * Direct memory operations (docs/direct-operations.md) on both engines: POST /v1/memories writes a memory without
 * extraction on the extracted memories' path (provenance, conflict rules, ledger, retrievable at once), PATCH edits
 * it as a new revision, GET returns it with its history; metadata_filter on retrieve and list.
 */
import { describe, expect, it } from 'vitest';
import { Api, servers, tenantApi } from './client';

const patch = (api: Api, id: string, body: unknown) => api.request('PATCH', `/v1/memories/${id}`, body);
const retrieve = (api: Api, body: Record<string, unknown>) => api.post('/v1/memories/retrieve', { external_user_id: 'ann', limit: 50, ...body });

describe.each(servers())('direct memory operations on $name', (server) => {
  it('creates a memory without extraction: 201, provenance, a completed direct job, a ledger entry, retrievable at once', async () => {
    const api = await tenantApi(server);
    const created = await api.post('/v1/memories', {
      external_user_id: 'ann',
      content: 'The user plays the cello in a string quartet.',
      category: 'expertise',
      importance: 0.8,
      metadata: { channel: 'crm', ticket: 7 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const m = created.body.data;
    expect(m).toMatchObject({
      external_user_id: 'ann',
      content: 'The user plays the cello in a string quartet.',
      category: 'expertise',
      status: 'active',
      importance_score: 0.8,
      confidence: 1,
      outcome: 'created',
      superseded_memory_ids: [],
      review_id: null,
      metadata: { channel: 'crm', ticket: 7 },
    });
    expect(m.provenance).toMatchObject({ service: 'default', job_id: expect.any(String), payload_hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(m.revisions).toEqual([expect.objectContaining({ action: 'created', to_status: 'active', actor: expect.stringMatching(/^api_key:/), reason: 'written directly through the API' })]);
    const job = await api.get(`/v1/memories/jobs/${m.provenance.job_id}`);
    expect(job.body.data).toMatchObject({ status: 'completed', memories_created: 1, provider: 'direct', queue_name: 'memory-direct' });

    const found = await retrieve(api, { query: 'does the user play an instrument like the cello?' });
    expect(found.body.data.map((r: any) => r.id)).toContain(m.id);
    const got = await api.get(`/v1/memories/${m.id}`);
    expect(got.status).toBe(200);
    expect(got.body.data).toEqual(Object.fromEntries(Object.entries(m).filter(([k]) => !['outcome', 'superseded_memory_ids', 'review_id'].includes(k))));
  });

  it('refuses bad input with 422 and names the field', async () => {
    const api = await tenantApi(server);
    const base = { external_user_id: 'ann', content: 'The user likes tea.', category: 'preference' };
    for (const [body, path, code] of [
      [{ ...base, category: 'gossip' }, 'category', 'validation_failed'],
      [{ ...base, importance: 1.5 }, 'importance', 'validation_failed'],
      [{ ...base, content: '   ' }, 'content', 'validation_failed'],
      [{ ...base, colour: 'red' }, '(body)', 'validation_failed'],
      [{ ...base, source: { service: 'Not A Slug', event_id: 'e1' } }, 'source.service', 'PROV_422'],
    ] as const) {
      const res = await api.post('/v1/memories', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.code).toBe(code);
      expect(JSON.stringify(res.body.errors)).toContain(path === '(body)' ? 'colour' : path);
    }
    expect((await api.post('/v1/memories', { ...base, source: { service: 'nobody', event_id: 'e1' } })).body.code).toBe('PROV_404');
  });

  it('applies the conflict rules: a later claim supersedes, the same claim reinforces, a more trusted writer wins', async () => {
    const api = await tenantApi(server);
    const lisbon = (await api.post('/v1/memories', { external_user_id: 'ann', content: 'The user lives in Lisbon.', category: 'fact' })).body.data;
    const porto = await api.post('/v1/memories', { external_user_id: 'ann', content: 'The user moved to Porto.', category: 'fact' });
    expect(porto.status).toBe(201);
    expect(porto.body.data.superseded_memory_ids).toEqual([lisbon.id]);
    const old = (await api.get(`/v1/memories/${lisbon.id}`)).body.data;
    expect(old.status).toBe('inactive');
    expect(old.revisions.map((r: any) => r.action)).toEqual(['created', 'superseded']);

    const again = await api.post('/v1/memories', { external_user_id: 'ann', content: 'The user moved to Porto.', category: 'fact' });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ id: porto.body.data.id, outcome: 'reinforced' });

    // a writer with more authority for facts: a later default-provenance claim loses to it
    expect((await api.post('/v1/tenant/service-writers', { service_key: 'registry', display_name: 'Registry', authority_rules: { default_priority: 900 } })).status).toBe(201);
    const trusted = await api.post('/v1/memories', {
      external_user_id: 'bo', content: 'The user lives in Berlin.', category: 'fact', source: { service: 'registry', event_id: 'r-1', observed_at: '2024-01-01T00:00:00Z' },
    });
    expect(trusted.body.data.provenance).toMatchObject({ service: 'registry', event_id: 'r-1', writer_id: expect.any(String) });
    const later = await api.post('/v1/memories', { external_user_id: 'bo', content: 'The user lives in Munich.', category: 'fact' });
    expect(later.status).toBe(201);
    expect(later.body.data.status).toBe('inactive');
    expect(later.body.data.revisions[0].reason).toMatch(/lost a conflict about residence/);
    expect((await api.get(`/v1/memories/${trusted.body.data.id}`)).body.data.status).toBe('active');
  });

  it('honours Idempotency-Key and source event ids like add', async () => {
    const api = await tenantApi(server);
    const body = { external_user_id: 'ann', content: 'The user is allergic to peanuts.', category: 'fact' };
    const first = await api.post('/v1/memories', body, { 'idempotency-key': 'k-1' });
    const replay = await api.post('/v1/memories', body, { 'idempotency-key': 'k-1' });
    expect(first.status).toBe(201);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    const reused = await api.post('/v1/memories', { ...body, content: 'The user is allergic to cats.' }, { 'idempotency-key': 'k-1' });
    expect(reused.status).toBe(422);
    expect(reused.body.code).toBe('idempotency_key_reused');
    const list = await api.get('/v1/memories?external_user_id=ann');
    expect(list.body.data.items).toHaveLength(1);

    expect((await api.post('/v1/tenant/service-writers', { service_key: 'crm', display_name: 'CRM', authority_rules: { default_priority: 10 } })).status).toBe(201);
    const sourced = { ...body, content: 'The user speaks Greek.', source: { service: 'crm', event_id: 'ev-9' } };
    const a = await api.post('/v1/memories', sourced);
    const b = await api.post('/v1/memories', sourced);
    expect(b.status).toBe(201);
    expect(b.body.data.id).toBe(a.body.data.id);
    const c = await api.post('/v1/memories', { ...sourced, content: 'The user speaks Latin.' });
    expect(c.status).toBe(409);
    expect(c.body.code).toBe('PROV_409');
  });

  it('edits content, category and importance as a new revision; re-indexes; 404, 409 and 422 where it must', async () => {
    const api = await tenantApi(server);
    const m = (await api.post('/v1/memories', { external_user_id: 'ann', content: 'The user collects vintage stamps.', category: 'preference' })).body.data;
    const edited = await patch(api, m.id, { content: 'The user collects antique clocks.', category: 'fact', importance: 0.9 });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.data).toMatchObject({ id: m.id, content: 'The user collects antique clocks.', category: 'fact', importance_score: 0.9, status: 'active' });
    const last = edited.body.data.revisions.at(-1);
    expect(edited.body.data.revisions.map((r: any) => r.action)).toEqual(['created', 'edited']);
    expect(last).toMatchObject({
      action: 'edited',
      actor: expect.stringMatching(/^api_key:/),
      content: 'The user collects antique clocks.',
      details: {
        content: { before: 'The user collects vintage stamps.', after: 'The user collects antique clocks.' },
        category: { before: 'preference', after: 'fact' },
        importance: { before: 0.6, after: 0.9 },
      },
    });
    const clocks = await retrieve(api, { query: 'antique clocks' });
    expect(clocks.body.data.find((r: any) => r.id === m.id)).toMatchObject({ content: 'The user collects antique clocks.', category: 'fact' });
    // re-indexed: the new content is the memory's fingerprint, the old one no longer is
    const same = await api.post('/v1/memories', { external_user_id: 'ann', content: 'The user collects antique clocks.', category: 'fact' });
    expect(same.body.data).toMatchObject({ id: m.id, outcome: 'reinforced' });
    const oldText = await api.post('/v1/memories', { external_user_id: 'ann', content: 'The user collects vintage stamps.', category: 'preference' });
    expect(oldText.body.data.outcome).toBe('created');
    expect(oldText.body.data.id).not.toBe(m.id);

    // the same values again record nothing (the reinforcement above is the third revision)
    const unchanged = await patch(api, m.id, { content: 'The user collects antique clocks.' });
    expect(unchanged.body.data.revisions.map((r: any) => r.action)).toEqual(['created', 'edited', 'reinforced']);
    for (const body of [{}, { importance: 2 }, { content: '' }, { status: 'active' }, { category: 'gossip' }]) {
      const bad = await patch(api, m.id, body);
      expect(bad.status, JSON.stringify(body)).toBe(422);
      expect(bad.body.code).toBe('validation_failed');
    }
    const other = await tenantApi(server);
    expect((await patch(other, m.id, { importance: 0.1 })).status).toBe(404);
    expect((await other.get(`/v1/memories/${m.id}`)).status).toBe(404);
    expect((await api.get(`/v1/memories/${m.id}`)).body.data.content).toBe('The user collects antique clocks.');

    expect((await api.delete(`/v1/memories/${m.id}`)).status).toBe(200);
    const archived = await patch(api, m.id, { importance: 0.5 });
    expect(archived.status).toBe(409);
    expect(archived.body.code).toBe('conflict');
    expect((await api.get(`/v1/memories/${m.id}`)).body.data.revisions.map((r: any) => r.action)).toEqual(['created', 'edited', 'reinforced', 'deleted']);
  });

  it('metadata_filter keeps only memories and passages of adds whose metadata matches, on retrieve and list', async () => {
    const api = await tenantApi(server);
    const sources: Record<string, string> = {};
    // the assistant's answers yield no memory: they stay in retrieve as passages of the evidence layer
    for (const [channel, said, answer] of [
      ['web', 'I adopted a greyhound named Pixel.', 'Greyhounds love short sprints and long naps on soft beds.'],
      ['sms', 'My neighbour has a greyhound called Bolt.', 'Greyhounds were bred for racing on oval tracks.'],
    ] as const) {
      const messages = [{ role: 'user', content: said }, { role: 'assistant', content: answer }];
      const add = await api.post('/v1/memories/add', { external_user_id: 'ann', messages, metadata: { channel, shard: 1 } });
      const job = await api.waitForJob(add.body.job_id);
      sources[channel] = job.source_event_id;
    }
    const direct = (await api.post('/v1/memories', { external_user_id: 'ann', content: 'The user walks the greyhound at dawn.', category: 'procedure', metadata: { channel: 'web' } })).body.data;
    sources.direct = direct.source_event_id;

    const all = await retrieve(api, { query: 'greyhound' });
    const allSources = new Set(all.body.data.map((r: any) => r.source_event_id));
    // without a filter both adds answer, passages included (so the filter below has something to remove)
    expect(allSources.has(sources.web) && allSources.has(sources.sms)).toBe(true);
    expect(all.body.data.some((r: any) => r.category === 'conversation' && r.source_event_id === sources.sms)).toBe(true);

    const web = await retrieve(api, { query: 'greyhound', metadata_filter: { channel: 'web' } });
    expect(web.status).toBe(200);
    const webSources = web.body.data.map((r: any) => r.source_event_id);
    expect(webSources.length).toBeGreaterThan(0);
    expect(new Set(webSources)).toEqual(new Set([sources.web, sources.direct]));
    expect(web.body.data.some((r: any) => r.category === 'conversation')).toBe(true);
    expect(web.body.system_prompt_addition).not.toMatch(/Bolt|racing/);
    const both = await retrieve(api, { query: 'greyhound', metadata_filter: { channel: 'web', shard: 1 } });
    expect(new Set(both.body.data.map((r: any) => r.source_event_id))).toEqual(new Set([sources.web]));
    expect((await retrieve(api, { query: 'greyhound', metadata_filter: { channel: 'web', shard: '1' } })).body.data).toEqual([]);

    const listed = await api.get(`/v1/memories?external_user_id=ann&metadata_filter=${encodeURIComponent(JSON.stringify({ channel: 'sms' }))}`);
    expect(listed.status).toBe(200);
    expect(listed.body.data.items.length).toBeGreaterThan(0);
    expect(listed.body.data.items.every((m: any) => m.source_event_id === sources.sms)).toBe(true);
    const unfiltered = await api.get('/v1/memories?external_user_id=ann&limit=100');
    expect(unfiltered.body.data.items.length).toBeGreaterThan(listed.body.data.items.length);

    for (const filter of [{ channel: { nested: 1 } }, { channel: ['web'] }, {}, { channel: null }, 'web']) {
      const bad = await retrieve(api, { query: 'greyhound', metadata_filter: filter });
      expect(bad.status, JSON.stringify(filter)).toBe(422);
      expect(bad.body.errors.some((e: any) => e.path.startsWith('metadata_filter'))).toBe(true);
    }
    for (const q of ['not-json', encodeURIComponent('[1]'), encodeURIComponent('{"a":{"b":1}}')]) {
      const bad = await api.get(`/v1/memories?external_user_id=ann&metadata_filter=${q}`);
      expect(bad.status, q).toBe(422);
      expect(bad.body.code).toBe('validation_failed');
    }
  });
});
