/**
 * Review before write (docs/review-before-write.md) on both engines: the tenant setting, memories held as pending
 * and kept out of retrieve, MCP search and the default listing; approve, edit then approve, reject through the API,
 * the conflict rules applied on approval, the ledger and the webhooks.
 */
import { envelope, reviewPage, reviewView, tenantSettingsView } from '@memory/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, factWriter as writer, sayCompleted as say, servers, tenantApi } from './client';
import { connectMcp } from './mcp-client';
import { WebhookReceiver } from './webhook-receiver';

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await WebhookReceiver.start();
});
afterAll(async () => receiver.close());

const setting = (api: Api, review_before_write: unknown) => api.request('PATCH', '/v1/tenant/settings', { review_before_write });
const retrieved = async (api: Api, user: string, query: string) => {
  const r = await api.post('/v1/memories/retrieve', { external_user_id: user, query });
  expect(r.status).toBe(200);
  return r.body;
};
const contents = (body: { data: { content: string }[] }) => body.data.map((m) => m.content);
const openHeld = async (api: Api, user: string) => {
  const res = await api.get(`/v1/tenant/reviews?kind=pending_write&status=open&external_user_id=${user}`);
  expect(res.status).toBe(200);
  expect(() => envelope(reviewPage).parse(res.body)).not.toThrow();
  return res.body.data.items as any[];
};
const ledger = async (api: Api, user: string, memoryId: string) => {
  const bundle = await api.get(`/v1/users/me/export?external_user_id=${user}`);
  return bundle.body.data.claim_revisions.filter((c: any) => c.memory_id === memoryId).map((c: any) => [c.action, c.to_status]);
};

describe.each(servers())('review before write on $name', (server) => {
  it('is off by default; the setting is validated, returned and turned off again', async () => {
    const api = await tenantApi(server);
    const initial = await api.get('/v1/tenant/settings');
    expect(initial.body.data.review_before_write).toBeNull();
    const set = await setting(api, { categories: ['fact', 'fact'], below_authority: 50 });
    expect(set.status).toBe(200);
    expect(() => envelope(tenantSettingsView).parse(set.body)).not.toThrow();
    expect(set.body.data).toMatchObject({ payload_retention_days: 30, review_before_write: { categories: ['fact'], below_authority: 50 } });
    for (const bad of [{ categories: ['secrets'] }, {}, { below_authority: 0 }, { categories: ['fact'], extra: 1 }]) {
      const res = await setting(api, bad);
      expect(res.status, JSON.stringify(bad)).toBe(422);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.errors[0].path).toMatch(/^review_before_write/);
    }
    expect((await api.get('/v1/tenant/settings')).body.data.review_before_write).toEqual({ categories: ['fact'], below_authority: 50 });
    expect((await setting(api, null)).body.data.review_before_write).toBeNull();
  });

  it('holds a memory of a held category: stored pending, out of retrieve, MCP search and the default list; in export', async () => {
    const { api_key: key } = await new Api(server).createTenant();
    const api = new Api(server).withKey(key);
    expect((await setting(api, { categories: ['fact'] })).status).toBe(200);
    const job = await say(api, 'h1', 'I live in Lisbon. I love jazz.');
    expect(job.extraction_metadata.memories_held_for_review).toBe(1);

    const active = await api.get('/v1/memories?external_user_id=h1');
    expect(contents({ data: active.body.data.items })).toEqual(['The user loves jazz.']);
    const pending = await api.get('/v1/memories?external_user_id=h1&status=pending');
    expect(pending.body.data.items.map((m: any) => [m.content, m.status])).toEqual([['The user lives in Lisbon.', 'pending']]);
    const heldId = pending.body.data.items[0].id;
    const all = await api.get('/v1/memories?external_user_id=h1&status=all');
    expect(all.body.data.items.map((m: any) => m.id)).toContain(heldId);

    const where = await retrieved(api, 'h1', 'where does the user live?');
    expect(JSON.stringify(where)).not.toContain('Lisbon');
    expect(where.clarification_question).toBeNull();
    expect(contents(await retrieved(api, 'h1', 'what music does the user love?'))).toEqual(['The user loves jazz.']);

    const mcp = await connectMcp(server, key);
    try {
      const found = await mcp.call('search_memories', { external_user_id: 'h1', query: 'Where does the user live? Lisbon' });
      expect(found.isError).toBe(false);
      expect(JSON.stringify(found.data)).not.toContain('Lisbon');
    } finally {
      await mcp.close();
    }

    const bundle = await api.get('/v1/users/me/export?external_user_id=h1');
    expect(bundle.body.data.memories.find((m: any) => m.id === heldId).status).toBe('pending');
    expect(await ledger(api, 'h1', heldId)).toEqual([['created', 'pending']]);

    const [review] = await openHeld(api, 'h1');
    expect(review).toMatchObject({ kind: 'pending_write', status: 'open', decision: null, subject: 'residence', external_user_id: 'h1' });
    expect(review.claims.map((c: any) => [c.id, c.status])).toEqual([[heldId, 'pending']]);
    // the admin's question is never the user's
    expect(review.question).toContain('The user lives in Lisbon.');
  });

  it('holds a direct write (POST /v1/memories) too: 201 pending with its review, out of retrieve until approved', async () => {
    const api = await tenantApi(server);
    await setting(api, { categories: ['fact'] });
    const created = await api.post('/v1/memories', { external_user_id: 'h-direct', content: 'The user lives in Porto.', category: 'fact' });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ outcome: 'created', status: 'pending' });
    expect(created.body.data.review_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.stringify(await retrieved(api, 'h-direct', 'where does the user live?'))).not.toContain('Porto');
    const [review] = await openHeld(api, 'h-direct');
    expect(review.id).toBe(created.body.data.review_id);
    expect((await api.post(`/v1/tenant/reviews/${review.id}/resolve`, { action: 'approve' })).status).toBe(200);
    expect(contents(await retrieved(api, 'h-direct', 'where does the user live?'))).toEqual(['The user lives in Porto.']);
    // a category the setting does not name is written at once
    const goal = await api.post('/v1/memories', { external_user_id: 'h-direct', content: 'The user wants to learn Portuguese.', category: 'goal' });
    expect(goal.body.data).toMatchObject({ status: 'active', review_id: null });
  });

  it('approve: the memory is written and retrieved; edit then approve: the new content, the ledger keeps both; reject: discarded', async () => {
    const api = await tenantApi(server);
    await setting(api, { categories: ['fact'] });
    await say(api, 'h2', 'I live in Lisbon.');
    const [approve] = await openHeld(api, 'h2');
    const approved = await api.post(`/v1/tenant/reviews/${approve.id}/resolve`, { action: 'approve', note: 'checked' });
    expect(approved.status).toBe(200);
    expect(() => envelope(reviewView).parse(approved.body)).not.toThrow();
    expect(approved.body.data).toMatchObject({ status: 'resolved', decision: 'approved', resolution_memory_id: approve.claims[0].id, resolved_by: expect.stringMatching(/^api_key:/) });
    expect(contents(await retrieved(api, 'h2', 'where does the user live?'))).toEqual(['The user lives in Lisbon.']);
    expect((await api.post(`/v1/tenant/reviews/${approve.id}/resolve`, { action: 'approve' })).status).toBe(409);

    await say(api, 'h3', 'I work at Globex.');
    const [edit] = await openHeld(api, 'h3');
    const editId = edit.claims[0].id;
    const edited = await api.post(`/v1/tenant/reviews/${edit.id}/resolve`, { action: 'approve', content: 'The user works at Initech.' });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ decision: 'edited', claims: [{ id: editId, content: 'The user works at Initech.', status: 'active' }] });
    const where = await retrieved(api, 'h3', 'where does the user work?');
    expect(contents(where)).toEqual(['The user works at Initech.']);
    expect(JSON.stringify(where.data)).not.toContain('Globex');
    expect(await ledger(api, 'h3', editId)).toEqual([
      ['created', 'pending'],
      ['edited', 'pending'],
      ['approved', 'active'],
    ]);
    const bundle = await api.get('/v1/users/me/export?external_user_id=h3');
    const revisions = bundle.body.data.claim_revisions.filter((c: any) => c.memory_id === editId);
    expect(revisions.map((c: any) => c.content)).toEqual(['The user works at Globex.', 'The user works at Initech.', 'The user works at Initech.']);

    await say(api, 'h4', 'I live in Faro.');
    const [reject] = await openHeld(api, 'h4');
    const rejectId = reject.claims[0].id;
    const rejected = await api.post(`/v1/tenant/reviews/${reject.id}/resolve`, { action: 'reject', note: 'wrong user' });
    expect(rejected.body.data).toMatchObject({ decision: 'rejected', resolution_memory_id: null, claims: [{ id: rejectId, status: 'archived' }] });
    expect(JSON.stringify(await retrieved(api, 'h4', 'where does the user live? Faro'))).not.toContain('Faro');
    expect(await ledger(api, 'h4', rejectId)).toEqual([
      ['created', 'pending'],
      ['rejected', 'archived'],
    ]);
    expect((await api.get('/v1/memories?external_user_id=h4&status=pending')).body.data.items).toEqual([]);
  });

  it('holds writers below the authority and applies the conflict rules when an approved memory meets a stronger claim', async () => {
    const api = await tenantApi(server);
    await writer(api, 'chat', 20);
    await writer(api, 'hr', 90);
    await setting(api, { below_authority: 50 });
    await say(api, 'h5', 'I live in Porto.', { service: 'hr', event_id: 'hr-1', observed_at: '2026-05-01T10:00:00Z' });
    expect(await openHeld(api, 'h5')).toEqual([]);
    await say(api, 'h5', 'I live in Lisbon.', { service: 'chat', event_id: 'chat-1', observed_at: '2026-05-02T10:00:00Z' });
    const [review] = await openHeld(api, 'h5');
    expect(review.claims[0].provenance.service).toBe('chat');
    const res = await api.post(`/v1/tenant/reviews/${review.id}/resolve`, { action: 'approve' });
    expect(res.status).toBe(200);
    // approved, then it lost to the more trusted writer: history, not the current value
    expect(res.body.data.claims[0].status).toBe('inactive');
    expect(contents(await retrieved(api, 'h5', 'where does the user live?'))[0]).toBe('The user lives in Porto.');
    const history = await ledger(api, 'h5', review.claims[0].id);
    expect(history).toEqual([
      ['created', 'pending'],
      ['approved', 'inactive'],
    ]);
  });

  it('answers a body that does not fit the review kind with 422, another tenant with 404', async () => {
    const api = await tenantApi(server);
    await setting(api, { categories: ['fact'] });
    await say(api, 'h6', 'I live in Lisbon.');
    const [review] = await openHeld(api, 'h6');
    const wrongKind = await api.post(`/v1/tenant/reviews/${review.id}/resolve`, { chosen_memory_id: review.claims[0].id });
    expect(wrongKind.status).toBe(422);
    expect(wrongKind.body.errors[0].path).toBe('action');
    for (const bad of [{ action: 'reject', content: 'x' }, { action: 'approve', chosen_memory_id: review.claims[0].id }, {}]) {
      expect((await api.post(`/v1/tenant/reviews/${review.id}/resolve`, bad)).status, JSON.stringify(bad)).toBe(422);
    }
    const other = await tenantApi(server);
    expect((await other.post(`/v1/tenant/reviews/${review.id}/resolve`, { action: 'approve' })).status).toBe(404);
    // a held memory deleted before the decision cannot be approved
    expect((await api.delete(`/v1/memories/${review.claims[0].id}`)).status).toBe(200);
    const gone = await api.post(`/v1/tenant/reviews/${review.id}/resolve`, { action: 'approve' });
    expect(gone.status).toBe(409);
    expect(gone.body.code).toBe('conflict');
  });

  it('says what happened in webhooks: memory.pending, review.created, memory.approved, memory.rejected, review.resolved', async () => {
    const api = await tenantApi(server);
    const path = `/rbw-${Math.random().toString(36).slice(2, 8)}`;
    const types = ['memory.pending', 'memory.approved', 'memory.rejected', 'review.created', 'review.resolved', 'memory.created'];
    const endpoint = await api.post('/v1/tenant/webhooks', { url: receiver.baseUrl + path, event_types: types });
    expect(endpoint.status).toBe(201);
    await setting(api, { categories: ['fact'] });
    await say(api, 'h7', 'I live in Lisbon. I work at Globex.');
    const held = await openHeld(api, 'h7');
    expect(held.length).toBe(2);
    const [first, second] = held;
    await api.post(`/v1/tenant/reviews/${first.id}/resolve`, { action: 'approve' });
    await api.post(`/v1/tenant/reviews/${second.id}/resolve`, { action: 'reject' });
    const events = await receiver.waitFor(() => {
      const got = receiver.at(path).map((r) => JSON.parse(r.body) as { type: string; data: any });
      return got.filter((e) => e.type === 'review.resolved').length === 2 && got.length >= 8 ? got : null;
    }, 'the held memories, their reviews and both decisions');
    const of = (type: string) => events.filter((e) => e.type === type).map((e) => e.data);
    expect(of('memory.pending').map((d) => d.memory_id).sort()).toEqual([first.claims[0].id, second.claims[0].id].sort());
    expect(of('memory.pending')[0]).toMatchObject({ status: 'pending', change: 'created', external_user_id: 'h7', review_id: expect.any(String) });
    expect(of('memory.created')).toEqual([]);
    expect(of('review.created').map((d) => d.kind)).toEqual(['pending_write', 'pending_write']);
    expect(of('memory.approved')).toEqual([expect.objectContaining({ memory_id: first.claims[0].id, status: 'active', previous_status: 'pending' })]);
    expect(of('memory.rejected')).toEqual([expect.objectContaining({ memory_id: second.claims[0].id, status: 'archived' })]);
    expect(of('review.resolved').map((d) => [d.review_id, d.kind, d.decision]).sort()).toEqual(
      [
        [first.id, 'pending_write', 'approved'],
        [second.id, 'pending_write', 'rejected'],
      ].sort(),
    );
    // thin events: ids, never memory content
    expect(JSON.stringify(events)).not.toMatch(/Lisbon|Globex/);
  });
});
