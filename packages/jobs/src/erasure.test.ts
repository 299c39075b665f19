/** Erasure while the user's extraction job is in flight: the job finishing afterwards cannot bring anything back. */
import { BuiltinExtractor, addMemories, eraseUser } from '@memory/core';
import { type Database, rows, sql } from '@memory/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExtraction } from './extraction';
import { openTestDatabase, queueConversation, runQueuedJobs, testAddDeps } from './test-support';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
}, 60_000);
afterAll(() => database.close());

/** Rows of the tenant in each table that holds an end user's data. */
async function tenantRows(tenantId: string) {
  const [r] = await rows<Record<string, number>>(
    database.db,
    sql`SELECT
      (SELECT count(*)::int FROM end_users WHERE tenant_id = ${tenantId}) AS end_users,
      (SELECT count(*)::int FROM source_events WHERE tenant_id = ${tenantId}) AS source_events,
      (SELECT count(*)::int FROM extraction_jobs WHERE tenant_id = ${tenantId}) AS jobs,
      (SELECT count(*)::int FROM memories WHERE tenant_id = ${tenantId}) AS memories,
      (SELECT count(*)::int FROM passages WHERE tenant_id = ${tenantId}) AS passages,
      (SELECT count(*)::int FROM claim_revisions WHERE tenant_id = ${tenantId}) AS claim_revisions,
      (SELECT count(*)::int FROM entities WHERE tenant_id = ${tenantId}) AS entities`,
  );
  return r;
}

const none = { end_users: 0, source_events: 0, jobs: 0, memories: 0, passages: 0, claim_revisions: 0, entities: 0 };

describe('erasure during an extraction job', () => {
  it('erases the user between the extract and store steps; the store step and later runs write nothing', async () => {
    const { auth, jobId } = await queueConversation(database, 'I live in Lisbon and my sister Zelda plays the theremin.', 'erase-me');
    let receipt: Awaited<ReturnType<typeof eraseUser>> | undefined;
    const eraseBeforeStore = {
      run: async <T>(id: string, fn: () => Promise<T> | T) => {
        if (id === 'store-memories') receipt = await eraseUser({ db: database.db }, auth, 'erase-me');
        return fn();
      },
    };
    await expect(runExtraction(jobId, eraseBeforeStore, { db: database.db, extractor: new BuiltinExtractor() })).rejects.toThrow(/does not exist/);
    expect(receipt?.counts).toMatchObject({ jobs: 1, source_events: 1, end_user: 1, memories: 0 });
    expect(await tenantRows(auth.tenantId)).toEqual(none);

    // a retry of the same job, or the runner, finds nothing to run
    await expect(runExtraction(jobId, { run: async (_id, fn) => fn() }, { db: database.db, extractor: new BuiltinExtractor() })).rejects.toThrow();
    await runQueuedJobs(database);
    expect(await tenantRows(auth.tenantId)).toEqual(none);
  });

  it('erases what a finished job stored', async () => {
    const { auth, jobId } = await queueConversation(database, 'I live in Porto and I work at Quantix Labs.', 'finished');
    await runExtraction(jobId, { run: async (_id, fn) => fn() }, { db: database.db, extractor: new BuiltinExtractor() });
    expect((await tenantRows(auth.tenantId)).memories).toBeGreaterThan(0);
    const receipt = await eraseUser({ db: database.db }, auth, 'finished');
    expect(receipt.counts.memories).toBeGreaterThan(0);
    expect(receipt.already_erased).toBe(false);
    expect(await tenantRows(auth.tenantId)).toEqual(none);
    const again = await eraseUser({ db: database.db }, auth, 'finished');
    expect(again).toMatchObject({ receipt_id: receipt.receipt_id, sha256: receipt.sha256, counts: receipt.counts, already_erased: true, erased: null });
  });

  it('an add that still holds the erased user’s cached id (erased by another process) creates the user again', async () => {
    const { auth } = await queueConversation(database, 'I live in Lisbon.', 'cached');
    // another process erased the user: this process's cache of (tenant, external id) -> user id was not told
    await database.db.execute(sql`DELETE FROM end_users WHERE tenant_id = ${auth.tenantId}`);
    const again = await addMemories(testAddDeps(database.db), auth, { external_user_id: 'cached', messages: [{ role: 'user', content: 'I live in Porto.' }] }, { requestId: crypto.randomUUID() });
    expect(again.body.status).toBe('queued');
    expect((await tenantRows(auth.tenantId)).end_users).toBe(1);
  });
});
