/**
 * Service writers, API keys and their binding, the PROV errors of add, and the source-events listing,
 * on both engines.
 */
import { describe, expect, it } from 'vitest';
import { Api, servers, tenantApi } from './client';

const conversation = (content: string) => [{ role: 'user', content }];
const rules = { default_priority: 10, categories: { fact: 80, preference: 20 } };

describe.each(servers())('provenance on $name', (server) => {
  it('creates and lists service writers; duplicates are PROV_409 and invalid bodies PROV_422', async () => {
    const api = await tenantApi(server);
    const created = await api.post('/v1/tenant/service-writers', { service_key: 'billing', display_name: 'Billing', authority_rules: rules });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({
      id: expect.any(String),
      service_key: 'billing',
      display_name: 'Billing',
      authority_rules: rules,
      api_key_id: null,
      created_at: expect.any(String),
    });
    const dup = await api.post('/v1/tenant/service-writers', { service_key: 'billing', display_name: 'Again', authority_rules: rules });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('PROV_409');

    for (const [body, path] of [
      [{ service_key: 'Not A Slug', display_name: 'x', authority_rules: rules }, 'service_key'],
      [{ service_key: 'ok', display_name: '', authority_rules: rules }, 'display_name'],
      [{ service_key: 'ok', display_name: 'x', authority_rules: { default_priority: 1001, categories: {} } }, 'authority_rules.default_priority'],
      [{ service_key: 'ok', display_name: 'x', authority_rules: { default_priority: 5, categories: { gossip: 3 } } }, 'authority_rules.categories.gossip'],
      [{ service_key: 'ok', display_name: 'x', authority_rules: { default_priority: 2.5, categories: {} } }, 'authority_rules.default_priority'],
      [{ service_key: 'ok', display_name: 'x' }, 'authority_rules'],
      [{ service_key: 'default', display_name: 'x', authority_rules: rules }, 'service_key'],
    ] as const) {
      const bad = await api.post('/v1/tenant/service-writers', body);
      expect(bad.status, JSON.stringify(body)).toBe(422);
      expect(bad.body.code).toBe('PROV_422');
      expect(bad.body.errors.map((e: any) => e.path)).toContain(path);
    }
    const unknownKey = await api.post('/v1/tenant/service-writers', {
      service_key: 'ok',
      display_name: 'x',
      authority_rules: rules,
      api_key_id: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknownKey.body.code).toBe('PROV_422');

    const list = await api.get('/v1/tenant/service-writers');
    expect(list.body.data.map((w: any) => w.service_key)).toEqual(['billing']);
    // another tenant sees none of them
    const other = await tenantApi(server);
    expect((await other.get('/v1/tenant/service-writers')).body.data).toEqual([]);
  });

  it('answers an unknown source.service with PROV_404 and a writer bound to another key with PROV_403', async () => {
    const api = await tenantApi(server);
    const unknown = await api.post('/v1/memories/add', {
      external_user_id: 'p1',
      messages: conversation('I live in Rome.'),
      source: { service: 'nobody', event_id: 'e1' },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('PROV_404');

    const key = await api.post('/v1/tenant/api-keys', { name: 'support-service' });
    expect(key.status).toBe(201);
    expect(key.body.data).toMatchObject({ name: 'support-service', api_key: expect.stringMatching(/^mem_sk_/), revoked_at: null });
    const supportKey = key.body.data.api_key;
    const writer = await api.post('/v1/tenant/service-writers', {
      service_key: 'support',
      display_name: 'Support desk',
      authority_rules: rules,
      api_key_id: key.body.data.id,
    });
    expect(writer.body.data.api_key_id).toBe(key.body.data.id);

    const body = { external_user_id: 'p1', messages: conversation('I live in Rome.'), source: { service: 'support', event_id: 'ticket-1' } };
    const wrongKey = await api.post('/v1/memories/add', body);
    expect(wrongKey.status).toBe(403);
    expect(wrongKey.body.code).toBe('PROV_403');
    const rightKey = await api.withKey(supportKey).post('/v1/memories/add', body);
    expect(rightKey.status).toBe(200);
    expect(rightKey.body.status).toBe('queued');
    await api.waitForJob(rightKey.body.job_id);
    const r = await api.post('/v1/memories/retrieve', { external_user_id: 'p1', query: 'Rome' });
    expect(r.body.data[0].provenance).toMatchObject({ service: 'support', event_id: 'ticket-1', writer_id: writer.body.data.id });

    // listing keys never shows a secret; revoking one makes it fail at once
    const keys = await api.get('/v1/tenant/api-keys');
    expect(keys.body.data.length).toBe(2);
    expect(JSON.stringify(keys.body)).not.toContain(supportKey);
    const revoked = await api.delete(`/v1/tenant/api-keys/${key.body.data.id}`);
    expect(revoked.body.data.revoked_at).not.toBeNull();
    expect((await api.withKey(supportKey).get('/v1/tenant/service-writers')).status).toBe(401);
    const self = await api.get('/v1/tenant/api-keys');
    const ownId = self.body.data.find((k: any) => k.name === 'default').id;
    const selfRevoke = await api.delete(`/v1/tenant/api-keys/${ownId}`);
    expect(selfRevoke.status).toBe(422);
  });

  it('rejects an invalid source block with PROV_422, including evidence that looks like a secret', async () => {
    const api = await tenantApi(server);
    await api.post('/v1/tenant/service-writers', { service_key: 'crm', display_name: 'CRM', authority_rules: rules });
    const cases = [
      { service: 'crm', event_id: '' },
      { service: 'crm', event_id: 'e', observed_at: 'yesterday' },
      { service: 'crm', event_id: 'e', evidence: [{ source_type: 'ticket', reference: 'sk-proj-4f9Qz8LmN2xV7cR1tY6uW3eK0pJ5hG' }] },
      { service: 'crm', event_id: 'e', evidence: [{ source_type: 'ticket' }] },
    ];
    for (const source of cases) {
      const res = await api.post('/v1/memories/add', { external_user_id: 'p2', messages: conversation('I live in Rome.'), source });
      expect(res.status, JSON.stringify(source)).toBe(422);
      expect(res.body.code).toBe('PROV_422');
      expect(res.body.errors[0].path).toMatch(/^source\./);
    }
    const good = await api.post('/v1/memories/add', {
      external_user_id: 'p2',
      messages: conversation('I live in Rome.'),
      source: { service: 'crm', event_id: 'e', evidence: [{ source_type: 'ticket', reference: 'ZD-4521' }] },
    });
    expect(good.body.status).toBe('queued');
  });

  it('lists source events with filters, hashes, evidence, scope and the linked job, page by page', async () => {
    const api = await tenantApi(server);
    await api.post('/v1/tenant/service-writers', { service_key: 'crm', display_name: 'CRM', authority_rules: rules });
    await api.post('/v1/tenant/service-writers', { service_key: 'app', display_name: 'App', authority_rules: rules });
    const jobs: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await api.post('/v1/memories/add', {
        external_user_id: i < 2 ? 'alice' : 'bob',
        messages: conversation(`I have ${i + 2} cats.`),
        source: {
          service: i === 1 ? 'app' : 'crm',
          event_id: `evt-${i}`,
          observed_at: '2026-03-01T12:00:00Z',
          scope: { channel: 'email' },
          evidence: [{ source_type: 'ticket', reference: `ZD-${i}` }],
        },
      });
      jobs.push(res.body.job_id);
    }
    await api.post('/v1/memories/add', { external_user_id: 'alice', messages: conversation('I speak French.') });
    for (const j of jobs) await api.waitForJob(j);

    const all = await api.get('/v1/tenant/source-events');
    expect(all.status).toBe(200);
    expect(all.body.data.items.length).toBe(4);
    const crmAlice = await api.get('/v1/tenant/source-events?external_user_id=alice&source_service=crm');
    expect(crmAlice.body.data.items).toEqual([
      {
        id: expect.any(String),
        service: 'crm',
        event_id: 'evt-0',
        external_user_id: 'alice',
        writer_id: expect.any(String),
        agent_id: null,
        observed_at: '2026-03-01T12:00:00.000Z',
        received_at: expect.any(String),
        payload_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
        payload_redacted: false,
        scope: { channel: 'email' },
        evidence: [{ source_type: 'ticket', reference: 'ZD-0' }],
        job_id: jobs[0],
        job_status: 'completed',
      },
    ]);
    const defaults = await api.get('/v1/tenant/source-events?source_service=default');
    expect(defaults.body.data.items.map((e: any) => e.event_id)).toEqual([expect.stringMatching(/^evt_/)]);

    const page1 = await api.get('/v1/tenant/source-events?limit=3');
    expect(page1.body.data.items.length).toBe(3);
    const page2 = await api.get(`/v1/tenant/source-events?limit=3&cursor=${page1.body.data.next_cursor}`);
    expect(page2.body.data.items.length).toBe(1);
    expect(page2.body.data.next_cursor).toBeNull();
    expect(new Set([...page1.body.data.items, ...page2.body.data.items].map((e: any) => e.id)).size).toBe(4);

    const over = await api.get('/v1/tenant/source-events?limit=101');
    expect(over.status).toBe(422);
    const other = await tenantApi(server);
    expect((await other.get('/v1/tenant/source-events')).body.data.items).toEqual([]);
  });
});
