/**
 * Payload retention over HTTP: tenant settings on both engines, and the end-to-end redaction by the
 * embedded scheduler on PostgreSQL.
 *
 * The end-to-end part needs a source event older than the window, so the test moves `received_at` into the
 * past directly in the database. That is possible only on PostgreSQL: a PGlite server owns its data
 * directory (one connection, a lock file), so nothing outside it can write there. On PGlite the redaction,
 * the queued-job exception and the scheduler are covered by packages/jobs/src/retention.test.ts, which runs
 * the same code on an in-memory PGlite.
 */
import { MEMORY_CATEGORIES, RETENTION_LOCK_KEY } from '@memory/core';
import { createDatabase } from '@memory/db';
import { EmbeddedScheduler } from '@memory/jobs';
import postgres from 'postgres';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { Api, servers, tenantApi } from './client';
import { type RunningServer, startServer } from './server';

const patch = (api: Api, body: unknown) => api.request('PATCH', '/v1/tenant/settings', body);

describe.each(servers())('tenant settings on $name', (server) => {
  it('reads the default window, changes it, and rejects values outside 1–3650', async () => {
    const api = await tenantApi(server);
    const initial = await api.get('/v1/tenant/settings');
    expect(initial.status).toBe(200);
    expect(initial.body.data).toEqual({ payload_retention_days: 30, review_before_write: null });

    const changed = await patch(api, { payload_retention_days: 7 });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toEqual({ payload_retention_days: 7, review_before_write: null });
    expect((await api.get('/v1/tenant/settings')).body.data).toEqual({ payload_retention_days: 7, review_before_write: null });

    for (const body of [
      { payload_retention_days: 0 },
      { payload_retention_days: 3651 },
      { payload_retention_days: 1.5 },
      { payload_retention_days: '30' },
      { payload_retention_days: 30, retention: 1 },
      {},
    ]) {
      const bad = await patch(api, body);
      expect(bad.status, JSON.stringify(body)).toBe(422);
      expect(bad.body.code).toBe('validation_failed');
      expect(bad.body.errors.length).toBeGreaterThan(0);
    }
    expect((await patch(api, { payload_retention_days: 0 })).body.errors.map((e: any) => e.path)).toEqual(['payload_retention_days']);
    expect((await api.get('/v1/tenant/settings')).body.data).toEqual({ payload_retention_days: 7, review_before_write: null });

    const forever = await patch(api, { payload_retention_days: null });
    expect(forever.body.data).toEqual({ payload_retention_days: null, review_before_write: null });
    expect((await api.get('/v1/tenant/settings')).body.data).toEqual({ payload_retention_days: null, review_before_write: null });

    // settings are per tenant, and need a key
    expect((await (await tenantApi(server)).get('/v1/tenant/settings')).body.data).toEqual({ payload_retention_days: 30, review_before_write: null });
    expect((await new Api(server).get('/v1/tenant/settings')).status).toBe(401);
  });
});

describe('payload retention end to end on postgres', () => {
  const pg = servers().find((s) => s.name === 'postgres');
  const url = inject('pgDatabaseUrl');
  const sql = postgres(url, { max: 2, onnotice: () => {} });
  let extra: RunningServer | null = null;

  afterAll(async () => {
    await extra?.stop();
    await sql.end({ timeout: 5 });
  });

  it('redacts a payload past the window; the hash, the memories and the export stay', async () => {
    if (!pg) throw new Error('no postgres server');
    const api = await tenantApi(pg);
    expect((await patch(api, { payload_retention_days: 1 })).status).toBe(200);
    const add = await api.post('/v1/memories/add', {
      external_user_id: 'ret1',
      messages: [
        { role: 'user', content: 'I live in Lisbon. I love jazz.' },
        { role: 'assistant', content: 'The Gulbenkian gardens host open-air jazz concerts every Friday in July.' },
      ],
    });
    expect(add.body.status).toBe('queued');
    expect((await api.waitForJob(add.body.job_id)).status).toBe('completed');
    // a second event, inside the window: it keeps its payload
    const recent = await api.post('/v1/memories/add', { external_user_id: 'ret1', messages: [{ role: 'user', content: 'I speak Portuguese.' }] });
    await api.waitForJob(recent.body.job_id);

    const listed = async () => (await api.get('/v1/tenant/source-events?external_user_id=ret1')).body.data.items as any[];
    const before = (await listed()).find((e) => e.job_id === add.body.job_id);
    expect(before.payload_redacted).toBe(false);
    // the memory layer alone (with passages, a memory whose message a passage quotes is not returned twice)
    const memoriesOnly = async () => {
      const body = { external_user_id: 'ret1', query: 'where does the user live?', categories: [...MEMORY_CATEGORIES] };
      return (await api.post('/v1/memories/retrieve', body)).body.data;
    };
    const memoriesBefore = await memoriesOnly();
    expect(memoriesBefore.map((m: any) => m.content)).toContain('The user lives in Lisbon.');
    // the reply, quoting the user message it answers (docs/evidence-layer.md)
    const concerts = async () =>
      (await api.post('/v1/memories/retrieve', { external_user_id: 'ret1', query: 'Gulbenkian gardens concerts', categories: ['conversation'] })).body.data;
    expect((await concerts()).map((m: any) => m.provenance.message_indices)).toEqual([[0, 1]]);

    // two days old, with a one-day window
    await sql`UPDATE source_events SET received_at = now() - interval '2 days' WHERE job_id = ${add.body.job_id}`;

    // a new server process runs retention once shortly after it starts
    extra = await startServer('postgres', { DATABASE_URL: url });
    const deadline = Date.now() + 45_000;
    let after = before;
    while (!after.payload_redacted && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      after = (await listed()).find((e) => e.job_id === add.body.job_id);
    }
    expect(after.payload_redacted).toBe(true);
    expect(after.payload_hash).toBe(before.payload_hash);
    expect((await listed()).find((e) => e.job_id === recent.body.job_id).payload_redacted).toBe(false);

    // the passages of a redacted payload leave retrieval with it; the memories stay
    expect(await concerts()).toEqual([]);
    const memoriesAfter = await memoriesOnly();
    expect(memoriesAfter.map((m: any) => m.content).sort()).toEqual(memoriesBefore.map((m: any) => m.content).sort());
    expect(memoriesAfter.find((m: any) => m.content === 'The user lives in Lisbon.').provenance.payload_hash).toBe(before.payload_hash);

    const bundle = (await api.get('/v1/users/me/export?external_user_id=ret1')).body.data;
    const exported = bundle.source_events.find((e: any) => e.job_id === add.body.job_id);
    expect(exported).toMatchObject({ payload: null, payload_redacted_at: expect.any(String), payload_hash: before.payload_hash });
    expect(bundle.source_events.find((e: any) => e.job_id === recent.body.job_id).payload).not.toBeNull();
    expect(bundle.memories.length).toBeGreaterThanOrEqual(2);
  });

  it('skips the run while another process holds the retention lock', async () => {
    if (!pg) throw new Error('no postgres server');
    const api = await tenantApi(pg);
    await patch(api, { payload_retention_days: 1 });
    const add = await api.post('/v1/memories/add', { external_user_id: 'ret2', messages: [{ role: 'user', content: 'I live in Porto.' }] });
    await api.waitForJob(add.body.job_id);
    await sql`UPDATE source_events SET received_at = now() - interval '2 days' WHERE job_id = ${add.body.job_id}`;

    const database = createDatabase({ kind: 'postgres', url, poolSize: 2 });
    const holder = await sql.reserve();
    try {
      const scheduler = new EmbeddedScheduler({ db: database.db }, { intervalMinutes: 60 });
      await holder`SELECT pg_advisory_lock(${RETENTION_LOCK_KEY})`;
      expect(await scheduler.runOnce()).toMatchObject({ redacted: 0, busy: true });
      const [held] = await sql`SELECT payload IS NULL AS redacted FROM source_events WHERE job_id = ${add.body.job_id}`;
      expect(held.redacted).toBe(false);

      await holder`SELECT pg_advisory_unlock(${RETENTION_LOCK_KEY})`;
      expect(await scheduler.runOnce()).toMatchObject({ busy: false });
      const [done] = await sql`SELECT payload IS NULL AS redacted FROM source_events WHERE job_id = ${add.body.job_id}`;
      expect(done.redacted).toBe(true);
    } finally {
      holder.release();
      await database.close();
    }
  });
});
