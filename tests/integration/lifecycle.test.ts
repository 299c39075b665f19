/**
 * The memory lifecycle pass against the PostgreSQL server's database (postgres.js binds parameters
 * differently from PGlite, which the unit tests use): an unused preference decays below the threshold and
 * is archived with a ledger entry, and retrieve no longer returns it.
 */
import { runLifecyclePass } from '@memory/core';
import { createDatabase } from '@memory/db';
import postgres from 'postgres';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { servers, tenantApi } from './client';

const pg = servers().find((s) => s.name === 'postgres');
const url = inject('pgDatabaseUrl');
const sql = postgres(url, { max: 1, onnotice: () => {} });
afterAll(async () => sql.end());

describe('memory lifecycle on PostgreSQL', () => {
  it('archives an unused preference after its decay and takes it out of retrieval', async () => {
    if (!pg) throw new Error('no postgres server');
    const api = await tenantApi(pg);
    const add = await api.post('/v1/memories/add', { external_user_id: 'life-1', messages: [{ role: 'user', content: 'I love jazz.' }] });
    expect(await api.waitForJob(add.body.job_id)).toMatchObject({ status: 'completed', memories_created: 1 });
    const [memory] = await sql`SELECT id, category FROM memories WHERE job_id = ${add.body.job_id}`;
    expect(memory.category).toBe('preference');
    // created a year ago and never used
    await sql`UPDATE memories SET created_at = now() - interval '365 days', updated_at = now() - interval '365 days' WHERE id = ${memory.id}`;

    const database = createDatabase({ kind: 'postgres', url, poolSize: 2 });
    try {
      const result = await runLifecyclePass(database.db, new Date());
      expect(result.busy).toBe(false);
      expect(result.archived).toBeGreaterThanOrEqual(1);
    } finally {
      await database.close();
    }
    const [after] = await sql`SELECT status, importance FROM memories WHERE id = ${memory.id}`;
    expect(after.status).toBe('archived');
    expect(after.importance).toBeLessThan(0.1);
    const ledger = await sql`SELECT action, actor FROM claim_revisions WHERE memory_id = ${memory.id} ORDER BY created_at`;
    expect(ledger.map((r) => `${r.action}:${r.actor}`)).toContain('archived:lifecycle');

    const retrieved = await api.post('/v1/memories/retrieve', { external_user_id: 'life-1', query: 'jazz' });
    expect(retrieved.body.data.map((m: { id: string }) => m.id)).not.toContain(memory.id);
  });
});
