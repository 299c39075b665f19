/**
 * Erasure of an end user (DELETE /v1/users/{external_user_id}, docs/erasure.md) on both engines: after one user's
 * conversations, corrections, retrievals, webhook events, Idempotency-Keys, link tokens and passport connection,
 * every text and JSON column of every table (enumerated from information_schema, so tables added later are
 * searched too) is searched for the erased user's id and distinctive words: none is left, while another user of
 * the same tenant keeps everything. Each engine gets its own server: a PGlite server owns its data directory, so
 * the search opens it after that server stopped.
 */
import { createHash, randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { type Database, createDatabase, rows, sql } from '@memory/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api } from './client';
import { connectAgent, createAgent, linkToken, signInPassport } from './passport-flow';
import { type RunningServer, type TestDatabase, createTestDatabase, startServer, tempDataDir } from './server';
import { WebhookReceiver } from './webhook-receiver';

const tag = randomUUID().slice(0, 6);
const ERASED = `erase-me-${tag}`;
const KEPT = `keep-me-${tag}`;
/** Words whose stems are themselves, so stored stems and vectors' neighbours match too. */
const ERASED_WORDS = ['zorbulon', 'vexford', 'brindlemoor', 'glimmerdusk', 'tck-qf9981'];
const KEPT_WORDS = ['quorvath', 'plinkett'];

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

/** Every (table, column) of the public schema that can hold text: anything but ids, numbers, flags and times. */
async function hits(db: Database['db'], needles: string[]): Promise<string[]> {
  const columns = await rows<{ table_name: string; column_name: string }>(
    db,
    sql`SELECT c.table_name, c.column_name FROM information_schema.columns c
        JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
        WHERE c.table_schema = 'public'
          AND c.data_type NOT IN ('uuid', 'integer', 'bigint', 'smallint', 'real', 'double precision', 'numeric', 'boolean',
                                  'timestamp with time zone', 'timestamp without time zone', 'date', 'bytea')`,
  );
  expect(columns.length).toBeGreaterThan(50);
  const found: string[] = [];
  for (const { table_name, column_name } of columns) {
    for (const needle of needles) {
      const [r] = await rows<{ n: number }>(
        db,
        sql`SELECT count(*)::int AS n FROM ${sql.identifier(table_name)} WHERE ${sql.identifier(column_name)}::text ILIKE ${`%${needle}%`}`,
      );
      if (r.n > 0) found.push(`${table_name}.${column_name}: ${needle}`);
    }
  }
  return found;
}

describe.each(['pglite', 'postgres'] as const)('erasure on %s', (engine) => {
  let server: RunningServer;
  let pg: TestDatabase | undefined;
  let receiver: WebhookReceiver;
  const dataDir = engine === 'pglite' ? tempDataDir() : '';
  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    pg = engine === 'postgres' ? await createTestDatabase('erasure') : undefined;
    server = await startServer(engine, engine === 'pglite' ? { MEMORY_DATA_DIR: dataDir } : { DATABASE_URL: pg!.url });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await pg?.drop();
    await receiver?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /** The server's database, for the search (the PGlite server is stopped first). */
  async function openDatabase(): Promise<Database> {
    if (engine === 'pglite') {
      await server.stop();
      return createDatabase({ kind: 'pglite', dataDir });
    }
    return createDatabase({ kind: 'postgres', url: pg!.url });
  }

  it('erases everything held about one user, answers a receipt, and leaves the other user untouched', async () => {
    const admin = new Api(server);
    const api = admin.withKey((await admin.createTenant()).api_key);
    const other = admin.withKey((await admin.createTenant()).api_key);
    const hook = await api.post('/v1/tenant/webhooks', {
      url: `${receiver.baseUrl}/hook-${tag}`,
      event_types: ['memory.created', 'job.completed', 'user.erased'],
    });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);

    const say = async (user: string, content: string, key?: string) => {
      const added = await api.post(
        '/v1/memories/add',
        { external_user_id: user, messages: [{ role: 'user', content }], metadata: { ticket: user === ERASED ? 'TCK-QF9981' : 'none' } },
        key ? { 'idempotency-key': key } : {},
      );
      expect(added.status, JSON.stringify(added.body)).toBe(200);
      expect((await api.waitForJob(added.body.job_id)).status).toMatch(/completed|processed/);
      return added.body.job_id as string;
    };
    const erasedJob = await say(ERASED, 'I live in Vexford and my cat is called Zorbulon.', `idem-${tag}`);
    await say(KEPT, 'I live in Quorvath and I play the plinkett every evening.');
    // a retrieval, and a correction with its own job and saved Idempotency-Key answer
    const retrieved = await api.post('/v1/memories/retrieve', { external_user_id: ERASED, query: 'Where do I live?' });
    expect(retrieved.body.data.length).toBeGreaterThan(0);
    const feedback = await api.post(
      '/v1/memories/retrieval-feedback',
      { retrieval_id: retrieved.body.retrieval_id, outcome: 'user_corrected', used_memory_ids: [retrieved.body.data[0].id], correction: 'Actually I moved to Brindlemoor.' },
      { 'idempotency-key': `fb-${tag}` },
    );
    expect(feedback.status, JSON.stringify(feedback.body)).toBe(200);
    await api.waitForJob(feedback.body.data.correction_job_id);
    // a pending link token and a passport connection made from this tenant user
    const agent = await createAgent(api);
    await linkToken(api, agent.id, ERASED);
    const passport = await signInPassport(server);
    await connectAgent(passport, { categories: ['fact'], access: 'read_only' }, { tenant: api, externalUserId: ERASED });

    // another tenant's call cannot erase (or see) this user
    expect((await other.delete(`/v1/users/${ERASED}`)).status).toBe(404);

    const first = await api.delete(`/v1/users/${encodeURIComponent(ERASED)}`);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const receipt = first.body.data;
    expect(receipt).toMatchObject({ already_erased: false, external_user_id_sha256: sha256(ERASED) });
    expect(receipt.counts).toMatchObject({ end_user: 1, jobs: 2, source_events: 2, retrieval_feedback: 1, idempotency_records: 2, link_tokens: 2, passport_connections: 1 });
    for (const kind of ['memories', 'claim_revisions', 'passages', 'retrievals', 'webhook_events']) expect(receipt.counts[kind], kind).toBeGreaterThan(0);
    expect(receipt.erased.jobs).toContain(erasedJob);
    // the receipt's hash is the SHA-256 of the listing it returned (docs/erasure.md, Verifying a receipt)
    const listing = Object.keys(receipt.erased)
      .sort()
      .flatMap((kind) => [...receipt.erased[kind]].sort().map((id: string) => `${kind}:${id}\n`))
      .join('');
    expect(receipt.sha256).toBe(sha256(listing));
    for (const [kind, ids] of Object.entries(receipt.erased)) expect(receipt.counts[kind]).toBe((ids as string[]).length);

    // the event reached the tenant's receiver, without the external id
    const delivered = await receiver.waitFor((all) => all.find((w) => w.body.includes(receipt.receipt_id)), 'the user.erased delivery');
    expect(JSON.parse(delivered.body)).toMatchObject({ type: 'user.erased', data: { receipt_id: receipt.receipt_id, counts: receipt.counts } });
    expect(delivered.body).not.toContain(ERASED);

    // gone from the API; the other user is not
    expect((await api.get(`/v1/memories/jobs/${erasedJob}`)).status).toBe(404);
    expect((await api.get(`/v1/users/me/export?external_user_id=${ERASED}`)).status).toBe(404);
    expect((await api.post('/v1/memories/retrieve', { external_user_id: ERASED, query: 'Where do I live?' })).body.data).toEqual([]);
    expect((await api.get(`/v1/memories?external_user_id=${KEPT}`)).body.data.items.length).toBeGreaterThan(0);

    // a second call is harmless: the same receipt, without the listing
    const again = await api.delete(`/v1/users/${ERASED}`);
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual({ ...receipt, erased: null, already_erased: true });
    expect((await api.delete(`/v1/users/never-seen-${tag}`)).status).toBe(404);

    // the id can be used again, and that data is erased by the next call, under a new receipt
    await say(ERASED, 'My new neighbour Glimmerdusk waters my plants.');
    const second = await api.delete(`/v1/users/${ERASED}`);
    expect(second.body.data).toMatchObject({ already_erased: false, counts: { end_user: 1, jobs: 1 } });
    expect(second.body.data.receipt_id).not.toBe(receipt.receipt_id);
    expect((await api.delete(`/v1/users/${ERASED}`)).body.data.receipt_id).toBe(second.body.data.receipt_id);

    const database = await openDatabase();
    try {
      const db = database.db;
      expect(await hits(db, [ERASED, ...ERASED_WORDS])).toEqual([]);
      // the other user's words are found, so the search would see them
      expect((await hits(db, [KEPT, ...KEPT_WORDS])).length).toBeGreaterThanOrEqual(KEPT_WORDS.length + 1);
      const tombstones = await rows<{ id: string; counts: Record<string, number>; sha256: string }>(
        db,
        sql`SELECT id, counts, sha256 FROM user_erasures WHERE external_user_id_sha256 = ${sha256(ERASED)} ORDER BY erased_at`,
      );
      expect(tombstones.map((t) => t.id)).toEqual([receipt.receipt_id, second.body.data.receipt_id]);
      expect(tombstones[0]).toMatchObject({ counts: receipt.counts, sha256: receipt.sha256 });
      const events = await rows<{ payload: { data: Record<string, unknown> } }>(db, sql`SELECT payload FROM webhook_events WHERE type = 'user.erased' ORDER BY created_at`);
      expect(events.map((e) => e.payload.data.receipt_id)).toEqual([receipt.receipt_id, second.body.data.receipt_id]);
      expect(events[0].payload.data).toEqual({
        receipt_id: receipt.receipt_id,
        external_user_id_sha256: sha256(ERASED),
        erased_at: receipt.erased_at,
        counts: receipt.counts,
        sha256: receipt.sha256,
      });
      const audit = await rows<{ actor: string; target_id: string }>(db, sql`SELECT actor, target_id FROM audit_log WHERE action = 'user.erased' ORDER BY created_at`);
      expect(audit.map((a) => a.target_id)).toEqual([receipt.receipt_id, second.body.data.receipt_id]);
      expect(audit[0].actor).toMatch(/^api_key:/);
    } finally {
      await database.close();
    }
  }, 240_000);
});
