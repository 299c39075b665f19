import { BuiltinExtractor, type ExtractionProvider, apiKeyActor, claimNextJob, extendLease, getJobView, recordFailure, releaseOrphanedLeases } from '@memory/core';
import { type Database, and, eq, extractionJobs, memories, claimRevisions, reviews, sql } from '@memory/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExtraction } from './extraction';
import { EmbeddedRunner } from './runner';
import { openTestDatabase, queueConversation, testAddDeps } from './test-support';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
}, 60_000);
afterAll(async () => database.close());

const opts = { pollMs: 20, leaseSeconds: 30, backoffBaseMs: 10 };
const direct = { run: async <T>(_id: string, fn: () => Promise<T> | T) => fn() };

async function memoryCount(jobId: string) {
  const rows = await database.db.select().from(memories).where(eq(memories.jobId, jobId));
  return rows.length;
}

describe('embedded runner', () => {
  it('runs a queued job to completed and records one attempt', async () => {
    const { auth, jobId } = await queueConversation(database, 'I live in Lisbon. I love jazz.');
    const runner = new EmbeddedRunner({ db: database.db, extractor: new BuiltinExtractor() }, opts);
    expect(await runner.drain()).toBe(1);
    const view = await getJobView(database.db, auth.tenantId, jobId);
    expect(view).toMatchObject({ status: 'completed', memories_created: 2, attempts: 1, error: null });
  });

  it('picks up the job of a crashed worker once its lease expires, and completes it exactly once', async () => {
    const { auth, jobId } = await queueConversation(database, 'I have two kids. I work as a nurse.');
    // worker A claims the job and dies without finishing
    const claimed = await claimNextJob(database.db, { workerId: 'worker-a', leaseSeconds: 30, jobId });
    expect(claimed?.id).toBe(jobId);
    const runner = new EmbeddedRunner({ db: database.db, extractor: new BuiltinExtractor() }, opts);
    // while the lease holds, nobody else may take it
    expect(await runner.drain()).toBe(0);
    await database.db
      .update(extractionJobs)
      .set({ leaseUntil: sql`now() - interval '1 second'` })
      .where(eq(extractionJobs.id, jobId));
    expect(await runner.drain()).toBe(1);
    const view = await getJobView(database.db, auth.tenantId, jobId);
    expect(view).toMatchObject({ status: 'completed', memories_created: 2, attempts: 2 });
    expect(await memoryCount(jobId)).toBe(2);
  });

  it('on the embedded database at start-up, a job a dead process left running is claimable at once; an Inngest run keeps its lease', async () => {
    const { jobId } = await queueConversation(database, 'I grow tomatoes on my balcony.');
    const other = await queueConversation(database, 'I play the cello on Sundays.');
    expect((await claimNextJob(database.db, { workerId: 'dead-process', leaseSeconds: 3600, jobId }))?.id).toBe(jobId);
    await database.db.update(extractionJobs).set({ status: 'running', lockedBy: 'inngest', leaseUntil: sql`now() + interval '1 hour'` }).where(eq(extractionJobs.id, other.jobId));
    expect(await claimNextJob(database.db, { workerId: 'new-process', leaseSeconds: 30, jobId })).toBeNull();
    expect(await releaseOrphanedLeases(database.db, 'extraction_jobs')).toBe(1);
    expect((await claimNextJob(database.db, { workerId: 'new-process', leaseSeconds: 30, jobId }))?.lockedBy).toBe('new-process');
    expect(await claimNextJob(database.db, { workerId: 'new-process', leaseSeconds: 30, jobId: other.jobId })).toBeNull();
    await database.db.update(extractionJobs).set({ status: 'queued', lockedBy: null, leaseUntil: null }).where(eq(extractionJobs.id, other.jobId));
    await new EmbeddedRunner({ db: database.db, extractor: new BuiltinExtractor() }, opts).drain();
  });

  it('lets only the worker holding the lease extend it or record a failure: a stalled worker cannot undo the new owner', async () => {
    const { jobId } = await queueConversation(database, 'I have a dog named Rex.');
    const a = await claimNextJob(database.db, { workerId: 'worker-a', leaseSeconds: 30, jobId });
    expect(a?.id).toBe(jobId);
    expect(await extendLease(database.db, jobId, 30, 'extraction_jobs', 'worker-a')).toBe(true);
    // worker A stalls past its lease; worker B takes the job over
    await database.db.update(extractionJobs).set({ leaseUntil: sql`now() - interval '1 second'` }).where(eq(extractionJobs.id, jobId));
    const b = await claimNextJob(database.db, { workerId: 'worker-b', leaseSeconds: 30, jobId });
    expect(b?.id).toBe(jobId);
    expect(await extendLease(database.db, jobId, 30, 'extraction_jobs', 'worker-a')).toBe(false);
    const late = await recordFailure(database.db, a!, new Error('timeout'), { backoffBaseMs: 10, lockedBy: 'worker-a' });
    expect(late).toEqual({ status: 'lease_lost', runAfter: null });
    const [row] = await database.db.select().from(extractionJobs).where(eq(extractionJobs.id, jobId));
    expect(row).toMatchObject({ status: 'running', lockedBy: 'worker-b', attempts: 2, error: null });
    // the owner still can
    expect(await extendLease(database.db, jobId, 30, 'extraction_jobs', 'worker-b')).toBe(true);
    // (a permanent failure, so no retry of this job is left for the other tests' drains)
    const owned = await recordFailure(database.db, b!, new Error('bad input'), { backoffBaseMs: 10, permanent: true, lockedBy: 'worker-b' });
    expect(owned.status).toBe('failed');
    expect(await extendLease(database.db, jobId, 30, 'extraction_jobs', 'worker-b')).toBe(false);
  });

  it('creates memories once when the same job runs twice', async () => {
    const { jobId } = await queueConversation(database, 'I am allergic to peanuts. I speak French.');
    const deps = { db: database.db, extractor: new BuiltinExtractor() };
    const first = await runExtraction(jobId, direct, deps);
    // a second delivery of the same job (at-least-once execution)
    await database.db.update(extractionJobs).set({ status: 'running' }).where(eq(extractionJobs.id, jobId));
    const second = await runExtraction(jobId, direct, deps);
    expect(first?.memories_created).toBe(2);
    expect(second?.memories_created).toBe(2);
    expect(await memoryCount(jobId)).toBe(2);
    const ledger = await database.db.select().from(claimRevisions).where(eq(claimRevisions.jobId, jobId));
    expect(ledger.length).toBe(2);
  });

  it('retries a failing job with backoff and marks it dead with an error summary', async () => {
    const { auth, jobId } = await queueConversation(database, 'I live in Rome.', 'retry-user');
    let calls = 0;
    const broken: ExtractionProvider = {
      name: 'broken',
      extract: async () => {
        calls++;
        throw new Error('provider unavailable');
      },
    };
    // A long backoff, so the retry cannot come due inside the same drain().
    const runner = new EmbeddedRunner({ db: database.db, extractor: broken }, { ...opts, backoffBaseMs: 60_000 });
    expect(await runner.drain()).toBe(1);
    let view = await getJobView(database.db, auth.tenantId, jobId);
    expect(view).toMatchObject({ status: 'queued', attempts: 1, error: 'Error: provider unavailable', error_summary: null });
    const [row] = await database.db.select().from(extractionJobs).where(eq(extractionJobs.id, jobId));
    // first retry: half to all of the base delay (full jitter), so at least 30 s away
    expect(row.runAfter.getTime()).toBeGreaterThan(Date.now() + 25_000);
    // the backoff holds it back until run_after; make it due instead of sleeping
    for (let i = 0; i < 2; i++) {
      await database.db.update(extractionJobs).set({ runAfter: sql`now()` }).where(eq(extractionJobs.id, jobId));
      await runner.drain();
    }
    view = await getJobView(database.db, auth.tenantId, jobId);
    expect(view?.status).toBe('dead');
    expect(view?.attempts).toBe(3);
    expect(view?.error_summary).toBe('gave up after 3 attempts; last error: Error: provider unavailable');
    expect(calls).toBe(3);
    expect(await runner.drain()).toBe(0);
  });

  it('fails a job whose payload is gone without retrying', async () => {
    const { auth, jobId } = await queueConversation(database, 'I live in Vienna.', 'redacted-user');
    await database.db.execute(sql`UPDATE source_events SET payload = NULL WHERE job_id = ${jobId}`);
    const runner = new EmbeddedRunner({ db: database.db, extractor: new BuiltinExtractor() }, opts);
    await runner.drain();
    const view = await getJobView(database.db, auth.tenantId, jobId);
    expect(view?.status).toBe('failed');
    expect(view?.attempts).toBe(1);
    expect(view?.error_summary).toMatch(/redacted before extraction/);
  });

  it('runs one job per user at a time', async () => {
    const a = await queueConversation(database, 'I live in Paris.', 'same-user');
    const claimedA = await claimNextJob(database.db, { workerId: 'w1', leaseSeconds: 30, jobId: a.jobId });
    expect(claimedA?.id).toBe(a.jobId);
    // a second job for the same tenant and user
    const { addMemories, loadConfig } = await import('@memory/core');
    const second = await addMemories(
      testAddDeps(database.db, { name: 'none', enqueue: async () => {} }, loadConfig({})),
      a.auth,
      { external_user_id: 'same-user', messages: [{ role: 'user', content: 'I love cheese.' }] },
      { requestId: crypto.randomUUID() },
    );
    expect(await claimNextJob(database.db, { workerId: 'w2', leaseSeconds: 30, jobId: second.body.job_id! })).toBeNull();
  });

  it('uses the claim a provider supplies: a subject the built-in rules do not know still conflicts', async () => {
    const { addMemories, createTenant, loadConfig } = await import('@memory/core');
    const tenant = await createTenant(database.db, 'claims');
    const auth = { tenantId: tenant.tenant_id, apiKeyId: tenant.api_key_id, actor: apiKeyActor(tenant.api_key_id) };
    const drinks: Record<string, string> = { 'tea please': 'tea', 'coffee please': 'coffee' };
    const provider: ExtractionProvider = {
      name: 'fake-llm',
      extract: async ({ messages }) => {
        const value = drinks[messages[0].content];
        return {
          memories: [
            {
              content: `The user drinks ${value} in the morning.`,
              category: 'preference',
              importance: 0.5,
              confidence: 0.9,
              messageIndices: [0],
              claim: { subject: 'morning_drink', value },
            },
          ],
          metadata: {
            provider: 'fake-llm',
            sentences_considered: 1,
            skipped: {},
            compositional_pass_attempted: false,
            compositional_pass_used: false,
            compositional_entities: 0,
            compositional_relationships: 0,
            compositional_error: null,
          },
        };
      },
    };
    const runner = new EmbeddedRunner({ db: database.db, extractor: provider }, opts);
    for (const content of ['tea please', 'coffee please']) {
      await addMemories(
        testAddDeps(database.db, { name: 'none', enqueue: async () => {} }, loadConfig({})),
        auth,
        { external_user_id: 'drinker', messages: [{ role: 'user', content }] },
        { requestId: crypto.randomUUID() },
      );
      await runner.drain();
    }
    // two adds without a source block are the tenant's own later observation: the newer claim supersedes, no review
    const open = await database.db.select().from(reviews).where(and(eq(reviews.tenantId, auth.tenantId), eq(reviews.status, 'open')));
    expect(open).toEqual([]);
    const mine = await database.db.select().from(memories).where(eq(memories.tenantId, auth.tenantId));
    const byContent = new Map(mine.map((m) => [m.content, m]));
    expect(byContent.get('The user drinks coffee in the morning.')).toMatchObject({ status: 'active', subject: 'morning_drink', claimValue: 'coffee' });
    expect(byContent.get('The user drinks tea in the morning.')).toMatchObject({
      status: 'inactive',
      supersededBy: byContent.get('The user drinks coffee in the morning.')?.id,
    });
  });
});
