/**
 * Conflict governance end to end: writers with different authority, recency, near-duplicates, and a review
 * for equally trusted claims that a person resolves — on both engines.
 */
import { envelope, reviewPage, reviewView } from '@memory/core';
import { describe, expect, it } from 'vitest';
import { factWriter as writer, sayCompleted as say, servers, tenantApi } from './client';

const contents = (r: { body: any }) => r.body.data.map((m: any) => m.content);

describe.each(servers())('conflicts on $name', (server) => {
  it('lets the writer with more authority win, whichever wrote first, and keeps both in the ledger', async () => {
    const api = await tenantApi(server);
    await writer(api, 'chat', 20);
    const hrId = await writer(api, 'hr', 90);
    await say(api, 'c1', 'I live in Lisbon.', { service: 'chat', event_id: 'chat-1', observed_at: '2026-05-02T10:00:00Z' });
    await say(api, 'c1', 'I live in Porto.', { service: 'hr', event_id: 'hr-1', observed_at: '2026-05-01T10:00:00Z' });
    const r = await api.post('/v1/memories/retrieve', { external_user_id: 'c1', query: 'where does the user live' });
    expect(contents(r)).toEqual(['The user lives in Porto.']);
    expect(r.body.data[0].provenance.writer_id).toBe(hrId);
    expect(r.body.clarification_question).toBeNull();

    const all = await api.get('/v1/memories?external_user_id=c1&status=all');
    const lisbon = all.body.data.items.find((m: any) => m.content === 'The user lives in Lisbon.');
    expect(lisbon.status).toBe('inactive');
    const bundle = await api.get('/v1/users/me/export?external_user_id=c1');
    const history = bundle.body.data.claim_revisions.filter((c: any) => c.memory_id === lisbon.id);
    expect(history.map((h: any) => h.action)).toEqual(['created', 'superseded']);
    expect(history[1].reason).toMatch(/higher writer authority/);
    expect(history[1].source_event_id).toEqual(expect.any(String));

    // the weaker writer cannot take it back
    await say(api, 'c2', 'I live in Porto.', { service: 'hr', event_id: 'hr-2' });
    await say(api, 'c2', 'I live in Lisbon.', { service: 'chat', event_id: 'chat-2' });
    const r2 = await api.post('/v1/memories/retrieve', { external_user_id: 'c2', query: 'where does the user live' });
    expect(contents(r2)).toEqual(['The user lives in Porto.']);
  });

  it('with equal authority the more recent observation wins', async () => {
    const api = await tenantApi(server);
    await writer(api, 'a', 50);
    await writer(api, 'b', 50);
    await say(api, 'c3', "I'm a vegetarian.", { service: 'a', event_id: 'a-1', observed_at: '2026-05-03T10:00:00Z' });
    await say(api, 'c3', 'I eat meat.', { service: 'b', event_id: 'b-1', observed_at: '2026-05-01T10:00:00Z' });
    const r = await api.post('/v1/memories/retrieve', { external_user_id: 'c3', query: 'diet vegetarian meat' });
    // the older statement is history, not an error: it stays as dated evidence, below the current claim
    expect(contents(r)).toEqual(['The user is a vegetarian.', 'On 1 May 2026 the user said: "I eat meat."']);
    expect(r.body.data[1].category).toBe('conversation');
  });

  it('strengthens the same claim said again instead of copying it', async () => {
    const api = await tenantApi(server);
    await say(api, 'c4', 'I live in Lisbon.');
    const job = await say(api, 'c4', 'I live in Lisbon now.');
    expect(job.memories_created).toBe(0);
    expect(job.extraction_metadata.memories_reinforced).toBe(1);
    const list = await api.get('/v1/memories?external_user_id=c4&status=all');
    expect(list.body.data.items.map((m: any) => m.content)).toEqual(['The user lives in Lisbon.']);
    expect(list.body.data.items[0].importance_score).toBeGreaterThan(0.8);
  });

  it('opens a review for equally trusted claims, asks the user, and resolving it changes what retrieve returns', async () => {
    const api = await tenantApi(server);
    await writer(api, 'web', 40);
    await writer(api, 'mobile', 40);
    await say(api, 'c5', 'I live in Lisbon.', { service: 'web', event_id: 'w-1', observed_at: '2026-05-01T09:00:00Z' });
    await say(api, 'c5', 'I live in Porto.', { service: 'mobile', event_id: 'm-1', observed_at: '2026-05-01T18:00:00Z' });

    const pending = await api.post('/v1/memories/retrieve', { external_user_id: 'c5', query: 'where does the user live' });
    expect(pending.body.clarification_question).toBe('Do you currently live in Lisbon or in Porto?');
    expect(contents(pending)).toEqual([]);
    expect(pending.body.system_prompt_addition).toBe('');

    const open = await api.get('/v1/tenant/reviews?status=open');
    expect(open.body.data.items.length).toBe(1);
    expect(() => envelope(reviewPage).parse(open.body)).not.toThrow(); // as documented in /v1/openapi.json
    const review = open.body.data.items[0];
    expect(review).toMatchObject({ subject: 'residence', status: 'open', external_user_id: 'c5', resolution_memory_id: null });
    expect(review.claims.map((c: any) => [c.content, c.status, c.provenance.service])).toEqual([
      ['The user lives in Lisbon.', 'inactive', 'web'],
      ['The user lives in Porto.', 'inactive', 'mobile'],
    ]);
    const porto = review.claims[1].id;

    const bad = await api.post(`/v1/tenant/reviews/${review.id}/resolve`, { chosen_memory_id: '00000000-0000-4000-8000-000000000000' });
    expect(bad.status).toBe(422);
    const other = await tenantApi(server);
    expect((await other.post(`/v1/tenant/reviews/${review.id}/resolve`, { chosen_memory_id: porto })).status).toBe(404);

    const resolved = await api.post(`/v1/tenant/reviews/${review.id}/resolve`, { chosen_memory_id: porto, note: 'user confirmed by phone' });
    expect(resolved.status).toBe(200);
    expect(resolved.body.data).toMatchObject({ status: 'resolved', resolution_memory_id: porto, resolved_by: expect.stringMatching(/^api_key:/) });
    expect(() => envelope(reviewView).parse(resolved.body)).not.toThrow();
    const one = await api.get(`/v1/tenant/reviews/${review.id}`);
    expect(() => envelope(reviewView).parse(one.body)).not.toThrow();
    expect((await api.post(`/v1/tenant/reviews/${review.id}/resolve`, { chosen_memory_id: porto })).status).toBe(409);

    const after = await api.post('/v1/memories/retrieve', { external_user_id: 'c5', query: 'where does the user live' });
    expect(after.body.clarification_question).toBeNull();
    expect(contents(after)).toEqual(['The user lives in Porto.']);
    const bundle = await api.get('/v1/users/me/export?external_user_id=c5');
    const lisbonId = review.claims[0].id;
    expect(bundle.body.data.memories.find((m: any) => m.id === lisbonId).status).toBe('archived');
    expect(bundle.body.data.claim_revisions.filter((c: any) => c.memory_id === lisbonId).map((c: any) => c.action)).toEqual([
      'created',
      'review_opened',
      'review_resolved',
    ]);
  });
});
