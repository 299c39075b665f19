/**
 * The console's operator views over tRPC on both engines: the end-user list (search, paging, counts, tenant
 * isolation), a source event with what was said, a memory and archiving it from the console. On PostgreSQL a
 * redacted payload shows when and after how many days it was redacted. Editing a memory, deleting one permanently
 * (its content then in no column of the database, searched on PostgreSQL) and erasing a user.
 */
import postgres from 'postgres';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { factWriter, sayCompleted, servers } from './client';
import { ConsoleClient, rand, tenantWithAdmin } from './console-client';

const data = (r: { body: any }) => r.body.result.data;

/** Every text-like column of the PostgreSQL test database that holds `needle` (the erasure test's scan, raw SQL). */
async function columnsHolding(needle: string): Promise<string[]> {
  const db = postgres(inject('pgDatabaseUrl'), { max: 1, onnotice: () => {} });
  try {
    const columns = await db<{ table_name: string; column_name: string }[]>`
      SELECT c.table_name, c.column_name FROM information_schema.columns c
      JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
      WHERE c.table_schema = 'public' AND c.data_type NOT IN ('uuid', 'integer', 'bigint', 'smallint', 'real', 'double precision', 'numeric',
        'boolean', 'timestamp with time zone', 'timestamp without time zone', 'date', 'bytea')`;
    expect(columns.length).toBeGreaterThan(50);
    const found: string[] = [];
    for (const { table_name, column_name } of columns) {
      const [r] = await db`SELECT count(*)::int AS n FROM ${db(table_name)} WHERE ${db(column_name)}::text ILIKE ${`%${needle}%`}`;
      if (r.n > 0) found.push(`${table_name}.${column_name}`);
    }
    return found;
  } finally {
    await db.end({ timeout: 5 });
  }
}

describe.each(servers())('console users, source events and memories on $name', (server) => {
  it('lists the tenant’s end users with counts and last activity, searches by substring and pages by external id', async () => {
    const a = await tenantWithAdmin(server);
    const prefix = `u${rand()}`;
    const ids = [`${prefix}-anna`, `${prefix}-bob`, `${prefix}-carla`, `${prefix}_50%`];
    for (const id of ids) {
      const add = await a.api.post('/v1/memories/add', { external_user_id: id, messages: [{ role: 'user', content: `I live in Lisbon and my name is ${id}.` }] });
      expect(add.status).toBe(200);
      await a.api.waitForJob(add.body.job_id);
    }
    const c = new ConsoleClient(server);
    await c.signIn(a.email);

    const all = data(await c.query('users.list', {}));
    expect(all.items.map((u: any) => u.external_user_id)).toEqual([...ids].sort());
    const anna = all.items.find((u: any) => u.external_user_id === `${prefix}-anna`);
    expect(anna).toMatchObject({ source_events: 1, last_activity_at: expect.any(String) });
    expect(anna.active_memories).toBeGreaterThan(0);
    expect(anna.memories).toBeGreaterThanOrEqual(anna.active_memories);

    // substring, case-insensitive; `%` and `_` are plain characters, not patterns
    expect(data(await c.query('users.list', { search: 'CARL' })).items.map((u: any) => u.external_user_id)).toEqual([`${prefix}-carla`]);
    expect(data(await c.query('users.list', { search: '_50%' })).items.map((u: any) => u.external_user_id)).toEqual([`${prefix}_50%`]);
    expect(data(await c.query('users.list', { search: 'nobody-has-this' })).items).toEqual([]);

    // two per page: every user once, in order, and the last page says so
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = data(await c.query('users.list', { limit: 2, ...(cursor ? { cursor } : {}) }));
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items.map((u: any) => u.external_user_id));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual([...ids].sort());
    const forged = await c.query('users.list', { cursor: 'not-a-cursor' });
    expect(forged.status).toBe(422);
    expect(forged.body.error.data.apiCode).toBe('validation_failed');

    // another tenant's admin sees none of them
    const b = await tenantWithAdmin(server);
    const cb = new ConsoleClient(server);
    await cb.signIn(b.email);
    expect(data(await cb.query('users.list', {})).items).toEqual([]);
    expect(data(await cb.query('users.list', { search: prefix })).items).toEqual([]);
    // and the list needs a session
    expect((await new ConsoleClient(server).query('users.list', {})).status).toBe(401);
  });

  it('shows a source event’s conversation and the memories read from it, to its tenant only', async () => {
    const a = await tenantWithAdmin(server);
    const add = await a.api.post('/v1/memories/add', {
      external_user_id: 'dora',
      messages: [
        { role: 'user', name: 'Dora', content: 'I moved to Porto last spring.' },
        { role: 'assistant', content: 'Porto is lovely in spring.' },
      ],
      metadata: { conversation: 'c-1' },
    });
    await a.api.waitForJob(add.body.job_id);
    const c = new ConsoleClient(server);
    await c.signIn(a.email);
    const [listed] = data(await c.query('sourceEvents.list', { external_user_id: 'dora', limit: 10 })).items;
    const detail = await c.query('sourceEvents.get', { id: listed.id });
    expect(detail.status).toBe(200);
    expect(data(detail)).toMatchObject({
      id: listed.id,
      external_user_id: 'dora',
      payload_hash: listed.payload_hash,
      payload_redacted: false,
      payload_redacted_at: null,
      redacted_after_days: null,
      job_status: 'completed',
      messages: [
        { role: 'user', name: 'Dora', content: 'I moved to Porto last spring.' },
        { role: 'assistant', content: 'Porto is lovely in spring.' },
      ],
      metadata: { conversation: 'c-1' },
    });
    const memories = data(detail).memories as any[];
    expect(memories.some((m) => /Porto/.test(m.content))).toBe(true);
    const mine = data(await c.query('memories.listForUser', { external_user_id: 'dora', status: 'all' })).items as any[];
    expect(memories.map((m) => m.id).sort()).toEqual(mine.filter((m) => m.source_event_id === listed.id).map((m) => m.id).sort());

    const b = await tenantWithAdmin(server);
    const cb = new ConsoleClient(server);
    await cb.signIn(b.email);
    const foreign = await cb.query('sourceEvents.get', { id: listed.id });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.data.apiCode).toBe('not_found');
    expect(JSON.stringify(foreign.body)).not.toContain('Porto');
    expect((await c.query('sourceEvents.get', { id: 'not-a-uuid' })).status).toBe(400);
  });

  it('shows a memory and archives it with a ledger entry naming the admin; CSRF and tenant checks apply', async () => {
    const a = await tenantWithAdmin(server);
    const add = await a.api.post('/v1/memories/add', { external_user_id: 'emil', messages: [{ role: 'user', content: 'I work as a nurse.' }] });
    await a.api.waitForJob(add.body.job_id);
    const c = new ConsoleClient(server);
    await c.signIn(a.email);
    const [m] = data(await c.query('memories.listForUser', { external_user_id: 'emil', status: 'active' })).items;
    const shown = data(await c.query('memories.get', { memory_id: m.id }));
    expect(shown).toMatchObject({ id: m.id, external_user_id: 'emil', content: m.content, status: 'active', source_event_id: m.source_event_id });

    // another tenant can neither read nor archive it
    const b = await tenantWithAdmin(server);
    const cb = new ConsoleClient(server);
    await cb.signIn(b.email);
    expect((await cb.query('memories.get', { memory_id: m.id })).status).toBe(404);
    expect((await cb.mutate('memories.archive', { memory_id: m.id })).status).toBe(404);
    // a mutation without the CSRF token is refused
    expect((await c.mutate('memories.archive', { memory_id: m.id }, { 'x-csrf-token': 'wrong' })).status).toBe(403);
    expect(data(await c.query('memories.get', { memory_id: m.id })).status).toBe('active');

    const archived = await c.mutate('memories.archive', { memory_id: m.id });
    expect(archived.status).toBe(200);
    expect(data(archived)).toEqual({ id: m.id, status: 'archived', deleted: true });
    expect(data(await c.query('memories.get', { memory_id: m.id })).status).toBe('archived');
    const history = data(await c.query('memories.history', { memory_id: m.id })) as any[];
    expect(history.at(-1)).toMatchObject({ action: 'deleted', from_status: 'active', to_status: 'archived', reason: 'archived in the console' });
    expect(history.at(-1).actor).toMatch(/^admin:/);
    // archiving twice answers the same and writes nothing more
    expect(data(await c.mutate('memories.archive', { memory_id: m.id }))).toEqual({ id: m.id, status: 'archived', deleted: true });
    expect((data(await c.query('memories.history', { memory_id: m.id })) as any[]).length).toBe(history.length);
    // retrieval no longer returns it
    const retrieved = await a.api.post('/v1/memories/retrieve', { external_user_id: 'emil', query: 'what is the user’s job?' });
    expect(retrieved.body.data.map((x: any) => x.id)).not.toContain(m.id);
  });

  it('edits a memory as PATCH does: an `edited` revision naming the admin; 422, 404 and CSRF checks apply', async () => {
    const a = await tenantWithAdmin(server);
    const add = await a.api.post('/v1/memories/add', { external_user_id: 'gus', messages: [{ role: 'user', content: 'I live in Braga.' }] });
    await a.api.waitForJob(add.body.job_id);
    const c = new ConsoleClient(server);
    await c.signIn(a.email);
    const [m] = data(await c.query('memories.listForUser', { external_user_id: 'gus', status: 'active' })).items;

    const bad = await c.mutate('memories.edit', { memory_id: m.id, importance: 1.5 });
    expect(bad.status).toBe(422);
    expect(bad.body.error.data.apiCode).toBe('validation_failed');
    expect(bad.body.error.data.fieldErrors.map((f: any) => f.path)).toEqual(['importance']);
    expect((await c.mutate('memories.edit', { memory_id: m.id, category: 'not-a-category' })).status).toBe(422);
    expect((await c.mutate('memories.edit', { memory_id: m.id })).status).toBe(422);
    expect((await c.mutate('memories.edit', { memory_id: m.id, content: 'I live in Faro.' }, { 'x-csrf-token': 'wrong' })).status).toBe(403);
    const b = await tenantWithAdmin(server);
    const cb = new ConsoleClient(server);
    await cb.signIn(b.email);
    const foreign = await cb.mutate('memories.edit', { memory_id: m.id, content: 'I live in Faro.' });
    expect(foreign.status).toBe(404);
    expect(data(await c.query('memories.get', { memory_id: m.id }))).toMatchObject({ content: m.content, importance_score: m.importance_score });

    const edited = await c.mutate('memories.edit', { memory_id: m.id, content: '  I live in Faro.  ', category: 'goal', importance: 0.9 });
    expect(edited.status).toBe(200);
    expect(data(edited)).toMatchObject({ id: m.id, content: 'I live in Faro.', category: 'goal', status: 'active' });
    expect(data(await c.query('memories.get', { memory_id: m.id }))).toMatchObject({ content: 'I live in Faro.', category: 'goal', importance_score: 0.9 });
    const history = data(await c.query('memories.history', { memory_id: m.id })) as any[];
    const last = history.at(-1);
    expect(last).toMatchObject({ action: 'edited', from_status: 'active', to_status: 'active' });
    expect(last.actor).toMatch(/^admin:/);
    expect(last.reason).toMatch(/^edited in the console: .*content/);
    // retrieval sees the new content
    const retrieved = await a.api.post('/v1/memories/retrieve', { external_user_id: 'gus', query: 'where does the user live?' });
    expect(retrieved.body.data.find((x: any) => x.id === m.id)?.content).toBe('I live in Faro.');
  });

  it('deletes one memory permanently: gone everywhere, its conflict’s other claim active again; 404 and CSRF apply', async () => {
    const a = await tenantWithAdmin(server);
    await factWriter(a.api, 'web', 40);
    await factWriter(a.api, 'mobile', 40);
    const user = `purge-${rand()}`;
    const syllables = ['mar', 'ven', 'dor', 'lis', 'ka', 'ro', 'tel', 'bri', 'sa', 'nu'];
    const town = `Vel${Array.from({ length: 4 }, () => syllables[Math.floor(Math.random() * syllables.length)]).join('')}`;
    await sayCompleted(a.api, user, 'I live in Lisbon.', { service: 'web', event_id: 'w-1', observed_at: '2026-05-01T09:00:00Z' });
    await sayCompleted(a.api, user, `I live in ${town}.`, { service: 'mobile', event_id: 'm-1', observed_at: '2026-05-01T18:00:00Z' });
    const c = new ConsoleClient(server);
    await c.signIn(a.email);
    const all = data(await c.query('memories.listForUser', { external_user_id: user, status: 'all' })).items as any[];
    const gone = all.find((m) => m.content.includes(town));
    const kept = all.find((m) => m.content.includes('Lisbon'));
    expect([gone?.status, kept?.status]).toEqual(['inactive', 'inactive']); // an open conflict review holds both
    expect((await a.api.get('/v1/tenant/reviews?status=open')).body.data.items.length).toBe(1);
    if (server.name === 'postgres') expect(await columnsHolding(gone.content)).toContain('claim_revisions.content');

    const b = await tenantWithAdmin(server);
    const cb = new ConsoleClient(server);
    await cb.signIn(b.email);
    const foreign = await cb.mutate('memories.purge', { memory_id: gone.id });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.data.apiCode).toBe('not_found');
    expect((await c.mutate('memories.purge', { memory_id: gone.id }, { 'x-csrf-token': 'wrong' })).status).toBe(403);
    expect((await a.api.get(`/v1/memories/${gone.id}`)).status).toBe(200);

    const purged = await c.mutate('memories.purge', { memory_id: gone.id });
    expect(purged.status).toBe(200);
    expect(data(purged)).toMatchObject({ id: gone.id, deleted: true, counts: { memories: 1, reviews: 1, claims_restored: 1 } });
    expect(data(purged).counts.claim_revisions).toBeGreaterThan(0);
    expect((await a.api.get(`/v1/memories/${gone.id}`)).status).toBe(404);
    const after = (await a.api.get(`/v1/memories?external_user_id=${user}&status=all`)).body.data.items as any[];
    expect(after.map((m) => [m.id, m.status])).toEqual([[kept.id, 'active']]);
    expect((await c.query('memories.history', { memory_id: gone.id })).status).toBe(404);
    expect((await a.api.get('/v1/tenant/reviews')).body.data.items).toEqual([]);
    const retrieved = await a.api.post('/v1/memories/retrieve', { external_user_id: user, query: `where does the user live ${town}` });
    // the memory is gone; what was said stays as evidence passages (docs/evidence-layer.md), never the claim itself
    expect(retrieved.body.data.map((x: any) => x.id)).toContain(kept.id);
    expect(retrieved.body.data.map((x: any) => x.id)).not.toContain(gone.id);
    expect(retrieved.body.data.map((x: any) => x.content)).not.toContain(gone.content);
    expect(retrieved.body.clarification_question).toBeNull();
    // on both engines the export bundle (ledger included) no longer holds it; on PostgreSQL no column does
    const bundle = (await a.api.get(`/v1/users/me/export?external_user_id=${user}`)).body.data;
    expect(bundle.claim_revisions.filter((r: any) => r.memory_id === gone.id)).toEqual([]);
    expect(JSON.stringify(bundle)).not.toContain(gone.content);
    if (server.name === 'postgres') expect(await columnsHolding(gone.content)).toEqual([]);
    // again: it is gone
    expect((await c.mutate('memories.purge', { memory_id: gone.id })).status).toBe(404);
  });

  it('deletes a directly written memory permanently: its source payload and saved Idempotency-Key answer go too', async () => {
    const a = await tenantWithAdmin(server);
    const user = `purge-direct-${rand()}`;
    const content = `The user keeps a ferret named ${rand()}.`;
    const created = await a.api.post('/v1/memories', { external_user_id: user, content, category: 'fact' }, { 'idempotency-key': `k-${rand()}` });
    expect(created.status).toBe(201);
    if (server.name === 'postgres') expect(await columnsHolding(content)).toEqual(expect.arrayContaining(['source_events.payload', 'idempotency_keys.response_body']));
    const c = new ConsoleClient(server);
    await c.signIn(a.email);
    const purged = await c.mutate('memories.purge', { memory_id: created.body.data.id });
    expect(data(purged).counts).toMatchObject({ memories: 1, direct_payloads_cleared: 1, idempotent_answers: 1 });
    expect(JSON.stringify((await a.api.get(`/v1/users/me/export?external_user_id=${user}`)).body)).not.toContain(content);
    if (server.name === 'postgres') expect(await columnsHolding(content)).toEqual([]);
  });

  it('erases a user and answers the receipt; the user is gone, another tenant gets 404, CSRF applies', async () => {
    const a = await tenantWithAdmin(server);
    const id = `erase-${rand()}`;
    const add = await a.api.post('/v1/memories/add', { external_user_id: id, messages: [{ role: 'user', content: 'I play the cello.' }] });
    await a.api.waitForJob(add.body.job_id);
    const c = new ConsoleClient(server);
    await c.signIn(a.email);
    const b = await tenantWithAdmin(server);
    const cb = new ConsoleClient(server);
    await cb.signIn(b.email);
    const foreign = await cb.mutate('users.erase', { external_user_id: id });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.data.apiCode).toBe('not_found');
    expect((await c.mutate('users.erase', { external_user_id: id }, { 'x-csrf-token': 'wrong' })).status).toBe(403);
    expect(data(await c.query('users.list', { search: id })).items.length).toBe(1);

    const erased = await c.mutate('users.erase', { external_user_id: id });
    expect(erased.status).toBe(200);
    const receipt = data(erased);
    expect(receipt).toMatchObject({ receipt_id: expect.any(String), erased_at: expect.any(String), already_erased: false, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(receipt.counts.memories).toBeGreaterThan(0);
    expect(receipt.counts.source_events).toBe(1);
    expect(JSON.stringify(receipt)).not.toContain('cello');
    expect(data(await c.query('users.list', { search: id })).items).toEqual([]);
    expect(data(await c.query('memories.listForUser', { external_user_id: id, status: 'all' })).items).toEqual([]);
    // again: the earlier receipt, nothing new erased
    expect(data(await c.mutate('users.erase', { external_user_id: id }))).toMatchObject({ receipt_id: receipt.receipt_id, already_erased: true, erased: null });
    // the REST API agrees: the same receipt
    const rest = await a.api.delete(`/v1/users/${encodeURIComponent(id)}`);
    expect(rest.body.data).toMatchObject({ receipt_id: receipt.receipt_id, already_erased: true });
  });
});

describe.runIf(servers().some((s) => s.name === 'postgres'))('a redacted source event in the console on postgres', () => {
  const sql = postgres(inject('pgDatabaseUrl'), { max: 1, onnotice: () => {} });
  afterAll(() => sql.end({ timeout: 5 }));

  it('says after how many days the payload was redacted and shows no conversation', async () => {
    const server = servers().find((s) => s.name === 'postgres')!;
    const a = await tenantWithAdmin(server);
    const add = await a.api.post('/v1/memories/add', { external_user_id: 'fay', messages: [{ role: 'user', content: 'My locker code is in the blue notebook.' }] });
    await a.api.waitForJob(add.body.job_id);
    // what the retention run sets (packages/core/src/provenance/retention.ts; the run itself is covered by
    // retention.test.ts): received 31 days ago, redacted now. Running it here would redact other tests' events.
    await sql`UPDATE source_events SET received_at = now() - interval '31 days', payload = NULL, payload_redacted_at = now()
              WHERE job_id = ${add.body.job_id}`;
    const c = new ConsoleClient(server);
    await c.signIn(a.email);
    const [listed] = data(await c.query('sourceEvents.list', { external_user_id: 'fay', limit: 10 })).items;
    expect(listed.payload_redacted).toBe(true);
    const detail = await c.query('sourceEvents.get', { id: listed.id });
    expect(data(detail)).toMatchObject({ payload_redacted: true, messages: null, metadata: null, redacted_after_days: 31, payload_redacted_at: expect.any(String) });
    // the words are gone with the payload; the memories read from it stay (docs/provenance.md)
    expect(data(detail).memories.length).toBeGreaterThan(0);
  });
});
