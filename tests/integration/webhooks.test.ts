/**
 * Signed webhooks end to end (docs/webhooks.md) on both engines, against a real receiver on 127.0.0.1 (the test
 * servers run with MEMORY_WEBHOOKS_ALLOW_PRIVATE=true and retries one second apart).
 */
import { WEBHOOK_EVENT_TYPES } from '@memory/core';
import { WebhookVerificationError, verifyWebhook } from '@memory/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, servers, tenantApi } from './client';
import { type ReceivedWebhook, WebhookReceiver } from './webhook-receiver';

const ALL_TYPES = [...WEBHOOK_EVENT_TYPES];

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await WebhookReceiver.start({ '/flaky': [500, 503, 200], '/gone': [410], '/down': [503] });
});
afterAll(async () => receiver.close());

let seq = 0;
const uniquePath = (base: string) => `${base}-${++seq}-${Math.random().toString(36).slice(2, 8)}`;

async function register(api: Api, path: string, eventTypes: string[] = ALL_TYPES) {
  const res = await api.post('/v1/tenant/webhooks', { url: receiver.baseUrl + path, event_types: eventTypes, description: 'tests' });
  expect(res.status).toBe(201);
  expect(res.body.data.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  return res.body.data as { id: string; secret: string; secret_prefix: string };
}

async function say(api: Api, user: string, content: string, source?: Record<string, unknown>) {
  const res = await api.post('/v1/memories/add', { external_user_id: user, messages: [{ role: 'user', content }], ...(source ? { source } : {}) });
  expect(res.body.status).toBe('queued');
  return api.waitForJob(res.body.job_id);
}

async function writer(api: Api, key: string) {
  const res = await api.post('/v1/tenant/service-writers', {
    service_key: key,
    display_name: key,
    authority_rules: { default_priority: 10, categories: { fact: 40 } },
  });
  expect(res.status).toBe(201);
}

const verified = (secret: string | string[], r: ReceivedWebhook) => verifyWebhook<{ type: string; timestamp: string; data: any }>(secret, r.headers, r.body);

/** Polls the delivery log (bounded) until `pick` finds what the test waits for. */
async function waitForDeliveries<T>(api: Api, endpointId: string, pick: (items: any[]) => T | undefined | null | false, what: string): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await api.get(`/v1/tenant/webhooks/${endpointId}/deliveries?limit=100`);
    expect(res.status).toBe(200);
    const found = pick(res.body.data.items);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(res.body.data.items.map((d: any) => [d.event_type, d.status]))}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.each(servers())('webhooks on $name', (server) => {
  it('announces every quota mode change once, signed, as the budget is used up and restored', async () => {
    const admin = new Api(server);
    const t = await admin.createTenant();
    const api = admin.withKey(t.api_key);
    const asAdmin = { authorization: `Bearer ${server.adminToken}` };
    const plan = (body: unknown) => api.request('PUT', `/v1/admin/tenants/${t.tenant_id}/plan`, body, asAdmin);
    // 20 adds per period: the 16th leaves 20 % (DEGRADED_RETRIEVE), the 19th 5 % (PASSTHROUGH), the 20th 0 % (BLOCKED)
    expect((await plan({ plan: 'free', overrides: { budgets: { add_calls: 20, retrieve_calls: 1000 }, rate_limits: { user_writes_per_minute: null, tenant_writes_per_minute: null } } })).status).toBe(200);
    const path = uniquePath('/quota');
    const endpoint = await register(api, path, ['quota.mode_changed']);
    for (let i = 0; i < 20; i++) {
      const res = await api.post('/v1/memories/add', { external_user_id: 'q1', messages: [{ role: 'user', content: `I have ${i + 2} plants.` }] });
      expect(res.status).toBe(200);
    }
    expect((await plan({ plan: 'pro' })).status).toBe(200);
    const changes = await receiver.waitFor(() => {
      const got = receiver.at(path).map((r) => verified(endpoint.secret, r).payload);
      return got.length >= 4 && got;
    }, 'four quota.mode_changed events');
    expect(changes.map((e) => e.type)).toEqual(Array(4).fill('quota.mode_changed'));
    // deliveries run in parallel: their order of arrival is not the order of the changes (docs/webhooks.md)
    const order = ['FULL', 'DEGRADED_RETRIEVE', 'PASSTHROUGH', 'BLOCKED'];
    const transitions = changes.map((e) => [e.data.from, e.data.to, e.data.budget_remaining_pct]);
    transitions.sort((a, b) => order.indexOf(a[0]) - order.indexOf(b[0]));
    expect(transitions).toEqual([
      ['FULL', 'DEGRADED_RETRIEVE', 20],
      ['DEGRADED_RETRIEVE', 'PASSTHROUGH', 5],
      ['PASSTHROUGH', 'BLOCKED', 0],
      ['BLOCKED', 'FULL', 100],
    ]);
  });

  it('delivers signed, verifiable events for add → job → memory → review → resolution', async () => {
    const api = await tenantApi(server);
    const path = uniquePath('/flow');
    const endpoint = await register(api, path);
    await writer(api, 'web');
    await writer(api, 'mobile');
    const first = await say(api, 'w1', 'I live in Lisbon.', { service: 'web', event_id: 'w-1', observed_at: '2026-05-01T09:00:00Z' });
    expect(first.status).toBe('completed');
    await say(api, 'w1', 'I live in Porto.', { service: 'mobile', event_id: 'm-1', observed_at: '2026-05-01T18:00:00Z' });

    const reviewEvent = await receiver.waitFor(
      () => receiver.at(path).map((r) => verified(endpoint.secret, r)).find((e) => e.payload.type === 'review.created'),
      'review.created',
    );
    const review = reviewEvent.payload.data;
    expect(review).toMatchObject({ external_user_id: 'w1', subject: 'residence' });
    const resolved = await api.post(`/v1/tenant/reviews/${review.review_id}/resolve`, { chosen_memory_id: review.claim_b_id });
    expect(resolved.status).toBe(200);

    // deliveries run in parallel and arrive in any order: wait for every event asserted below
    const events = await receiver.waitFor(() => {
      const all = receiver.at(path).map((r) => verified(endpoint.secret, r).payload);
      const count = (type: string) => all.filter((e) => e.type === type).length;
      const updated = all.some((e) => e.type === 'memory.updated' && e.data.change === 'review_resolved');
      const done = count('review.resolved') > 0 && count('memory.archived') > 0 && updated && count('job.completed') >= 2 && count('memory.created') >= 2;
      return done ? all : null;
    }, 'review.resolved, memory.archived, memory.updated (review_resolved), two job.completed and two memory.created');

    const jobs = events.filter((e) => e.type === 'job.completed');
    expect(jobs.map((e) => e.data.status)).toEqual(['completed', 'completed']);
    expect(jobs[0].data).toMatchObject({ job_id: first.job_id, kind: 'extraction', external_user_id: 'w1', memories_created: 1 });
    const created = events.filter((e) => e.type === 'memory.created');
    expect(created.map((e) => e.data.status).sort()).toEqual(['active', 'inactive']);
    expect(created.find((e) => e.data.status === 'inactive')?.data.memory_id).toBe(review.claim_b_id);
    expect(events.find((e) => e.type === 'review.resolved')?.data).toMatchObject({
      review_id: review.review_id,
      chosen_memory_id: review.claim_b_id,
      archived_memory_id: review.claim_a_id,
      external_user_id: 'w1',
    });
    expect(events.find((e) => e.type === 'memory.archived')?.data).toMatchObject({ memory_id: review.claim_a_id, change: 'review_resolved' });
    expect(events.filter((e) => e.type === 'memory.updated').map((e) => e.data.change)).toContain('review_resolved');
    // Thin events: ids, never memory content.
    expect(receiver.at(path).map((r) => r.body).join('')).not.toMatch(/Lisbon|Porto/);

    // Every delivery in the log succeeded with one attempt.
    const log = await waitForDeliveries(api, endpoint.id, (items) => items.length >= events.length && items.every((d) => d.status === 'succeeded') && items, 'all succeeded');
    expect(log.every((d: any) => d.attempts === 1 && d.last_status_code === 200)).toBe(true);
  });

  it('deliveries refuse to verify with a tampered body, an old timestamp or another secret', async () => {
    const api = await tenantApi(server);
    const path = uniquePath('/verify');
    const endpoint = await register(api, path, ['memory.created']);
    await say(api, 'v1', "I'm a vegetarian.");
    const got = await receiver.waitFor(() => receiver.at(path)[0], 'a delivery');
    expect(got.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(got.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(verified(endpoint.secret, got).payload.type).toBe('memory.created');
    expect(() => verified(endpoint.secret, { ...got, body: got.body.replace('"memory.created"', '"memory.archived"') })).toThrow(WebhookVerificationError);
    const later = new Date((Number(got.headers['webhook-timestamp']) + 301) * 1000);
    expect(() => verifyWebhook(endpoint.secret, got.headers, got.body, { now: later })).toThrow(/tolerance/);
    const other = await register(api, uniquePath('/other'), ['memory.created']);
    expect(() => verified(other.secret, got)).toThrow(/no signature/);
  });

  it('retries a receiver that fails, with the attempts in the delivery log', async () => {
    const api = await tenantApi(server);
    // '/flaky' answers 500, then 503, then 200; one endpoint per engine shares it, so count this tenant's requests.
    const endpoint = await register(api, `/flaky?t=${server.name}`, ['job.completed']);
    const job = await say(api, 'r1', 'I live in Lisbon.');
    const delivery = await waitForDeliveries(api, endpoint.id, (items) => items.find((d) => d.status === 'succeeded'), 'the retried delivery');
    expect(delivery.attempts).toBe(3);
    expect(delivery.attempt_log.map((a: any) => a.status_code)).toEqual([500, 503, 200]);
    expect(delivery.payload.data.job_id).toBe(job.job_id);
    const calls = receiver.at(`/flaky?t=${server.name}`);
    expect(calls).toHaveLength(3);
    expect(new Set(calls.map((c) => c.headers['webhook-id'])).size).toBe(1);
    expect(calls.every((c) => verified(endpoint.secret, c).payload.type === 'job.completed')).toBe(true);
    const ep = await api.get(`/v1/tenant/webhooks/${endpoint.id}`);
    expect(ep.body.data).toMatchObject({ status: 'enabled', consecutive_failures: 0 });
  });

  it('disables an endpoint that answers 410 at once, and one that keeps failing after the last attempt', async () => {
    const api = await tenantApi(server);
    const gone = await register(api, '/gone', ['memory.created']);
    const down = await register(api, `/down?t=${server.name}`, ['memory.created']);
    await say(api, 'g1', "I'm a vegetarian.");
    const failed = await waitForDeliveries(api, gone.id, (items) => items.find((d) => d.status === 'failed'), 'the 410 delivery');
    expect(failed).toMatchObject({ attempts: 1, last_status_code: 410 });
    expect((await api.get(`/v1/tenant/webhooks/${gone.id}`)).body.data).toMatchObject({ status: 'disabled', disabled_reason: 'gone' });

    const dead = await waitForDeliveries(api, down.id, (items) => items.find((d) => d.status === 'failed'), 'the failing delivery');
    expect(dead.attempts).toBe(4);
    expect(dead.attempt_log.map((a: any) => a.status_code)).toEqual([503, 503, 503, 503]);
    expect((await api.get(`/v1/tenant/webhooks/${down.id}`)).body.data).toMatchObject({ status: 'disabled', disabled_reason: 'failing' });

    // A disabled endpoint gets no new deliveries, and resending needs it enabled again.
    await say(api, 'g1', 'I live in Porto.');
    const again = await api.get(`/v1/tenant/webhooks/${gone.id}/deliveries`);
    expect(again.body.data.items).toHaveLength(1);
    const refused = await api.post(`/v1/tenant/webhooks/${gone.id}/deliveries/${failed.id}/resend`, {});
    expect(refused.status).toBe(409);
    expect(refused.headers.get('content-type')).toMatch(/application\/problem\+json/);
    const enabled = await api.request('PATCH', `/v1/tenant/webhooks/${gone.id}`, { url: `${receiver.baseUrl}${uniquePath('/back')}`, enabled: true });
    expect(enabled.body.data).toMatchObject({ status: 'enabled', disabled_reason: null, consecutive_failures: 0 });
    const resent = await api.post(`/v1/tenant/webhooks/${gone.id}/deliveries/${failed.id}/resend`, {});
    expect(resent.status).toBe(202);
    expect(resent.body.data).toMatchObject({ resend_of: failed.id, status: 'pending', webhook_id: failed.webhook_id });
    const redelivered = await waitForDeliveries(api, gone.id, (items) => items.find((d) => d.id === resent.body.data.id && d.status === 'succeeded'), 'the resend');
    expect(redelivered.last_status_code).toBe(200);
  });

  it('signs with both secrets after a rotation, and shows each secret only once', async () => {
    const api = await tenantApi(server);
    const path = uniquePath('/rotate');
    const endpoint = await register(api, path, ['memory.created']);
    const listed = await api.get('/v1/tenant/webhooks');
    expect(JSON.stringify(listed.body)).not.toContain(endpoint.secret);
    expect(listed.body.data[0].secret_prefix).toBe(endpoint.secret.slice(0, 10));
    const rotated = await api.post(`/v1/tenant/webhooks/${endpoint.id}/rotate-secret`, {});
    expect(rotated.status).toBe(200);
    const fresh = rotated.body.data.secret as string;
    expect(fresh).not.toBe(endpoint.secret);
    expect(Date.parse(rotated.body.data.previous_secret_expires_at)).toBeGreaterThan(Date.now());
    await say(api, 'k1', "I'm a vegetarian.");
    const got = await receiver.waitFor(() => receiver.at(path)[0], 'a delivery after rotation');
    expect(got.headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(verified(endpoint.secret, got).id).toBe(got.headers['webhook-id']);
    expect(verified(fresh, got).id).toBe(got.headers['webhook-id']);
  });

  it('keeps each tenant’s endpoints and deliveries to itself', async () => {
    const a = await tenantApi(server);
    const b = await tenantApi(server);
    const endpoint = await register(a, uniquePath('/iso'), ['memory.created']);
    await say(a, 'i1', "I'm a vegetarian.");
    const [delivery] = await waitForDeliveries(a, endpoint.id, (items) => items.length > 0 && items, 'a delivery');
    expect((await b.get('/v1/tenant/webhooks')).body.data).toEqual([]);
    for (const res of [
      await b.get(`/v1/tenant/webhooks/${endpoint.id}`),
      await b.request('PATCH', `/v1/tenant/webhooks/${endpoint.id}`, { enabled: false }),
      await b.post(`/v1/tenant/webhooks/${endpoint.id}/rotate-secret`, {}),
      await b.get(`/v1/tenant/webhooks/${endpoint.id}/deliveries`),
      await b.post(`/v1/tenant/webhooks/${endpoint.id}/deliveries/${delivery.id}/resend`, {}),
      await b.delete(`/v1/tenant/webhooks/${endpoint.id}`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
    // B's own change never reaches A's endpoint.
    await say(b, 'i1', 'I live in Porto.');
    expect((await a.get(`/v1/tenant/webhooks/${endpoint.id}`)).body.data.status).toBe('enabled');
    const log = await a.get(`/v1/tenant/webhooks/${endpoint.id}/deliveries`);
    expect(log.body.data.items).toHaveLength(1);
    expect((await a.get('/v1/tenant/webhooks')).status).toBe(200);
    expect((await b.withKey('mem_sk_wrong').get('/v1/tenant/webhooks')).status).toBe(401);
  });

  it('validates registrations and pages the delivery log', async () => {
    const api = await tenantApi(server);
    const bad = await api.post('/v1/tenant/webhooks', { url: 'ftp://example.com/x', event_types: ['memory.made'] });
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe('validation_failed');
    expect(bad.body.errors.map((e: any) => e.path).sort()).toEqual(['event_types[0]']);
    const badUrl = await api.post('/v1/tenant/webhooks', { url: 'ftp://example.com/x', event_types: ['memory.created'] });
    expect(badUrl.body.errors).toEqual([{ path: 'url', message: 'must be an https:// URL' }]);
    const endpoint = await register(api, uniquePath('/page'), ['memory.created', 'job.completed']);
    await say(api, 'p1', "I'm a vegetarian.");
    await say(api, 'p1', 'I live in Lisbon.');
    const all = await waitForDeliveries(api, endpoint.id, (items) => items.length >= 4 && items, 'four deliveries');
    expect(all).toHaveLength(4);
    const first = await api.get(`/v1/tenant/webhooks/${endpoint.id}/deliveries?limit=3`);
    expect(first.body.data.items).toHaveLength(3);
    const second = await api.get(`/v1/tenant/webhooks/${endpoint.id}/deliveries?limit=3&cursor=${first.body.data.next_cursor}`);
    expect(second.body.data.next_cursor).toBeNull();
    const ids = [...first.body.data.items, ...second.body.data.items].map((d: any) => d.id);
    expect(new Set(ids).size).toBe(4);
    expect(ids).toEqual(all.map((d: any) => d.id));
    const doc = await api.get('/v1/openapi.json');
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining(['/v1/tenant/webhooks', '/v1/tenant/webhooks/{endpoint_id}/deliveries/{delivery_id}/resend']),
    );
    const removed = await api.delete(`/v1/tenant/webhooks/${endpoint.id}`);
    expect(removed.body.data).toEqual({ id: endpoint.id, deleted: true });
    expect((await api.get(`/v1/tenant/webhooks/${endpoint.id}/deliveries`)).status).toBe(404);
  });
});
