/**
 * Retrieval feedback on PGlite: validation against the retrieval, effects on the memories, one feedback per
 * outcome, Idempotency-Key, and the correction job (embedded runner and Inngest) superseding the wrong memory.
 */
import {
  ApiError,
  BuiltinExtractor,
  type JobQueue,
  type QueuedJob,
  type RetrievalDeps,
  type TenantAuth,
  createRetrievalDeps,
  getJobView,
  recordRetrievalFeedback,
  retrievalFeedbackRequest,
  retrieveMemories,
  retrieveRequest,
} from '@memory/core';
import { type Database, and, claimRevisions, eq, extractionJobs, memories, retrievalFeedback, sourceEvents, sql } from '@memory/db';
import { InngestTestEngine } from '@inngest/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORRECTION_REQUESTED, runCorrection } from './correction';
import { createCorrectionFunction, createInngestClient } from './inngest';
import { directSteps } from './steps';
import { openTestDatabase, memoryVersionOf, queueConversation, runQueuedJobs, testConfig } from './test-support';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
}, 60_000);
afterAll(async () => database.close());

const extractor = new BuiltinExtractor();
const drain = () => runQueuedJobs(database);

class RecordingQueue implements JobQueue {
  readonly name = 'recording';
  readonly jobs: QueuedJob[] = [];
  async enqueue(job: QueuedJob) {
    this.jobs.push(job);
  }
}

interface Setup {
  auth: TenantAuth;
  retrieval: RetrievalDeps;
  queue: RecordingQueue;
  byText(text: string): Promise<typeof memories.$inferSelect>;
}

async function setup(content: string): Promise<Setup> {
  const q = await queueConversation(database, content);
  await drain();
  // a long flush interval: only the explicit flush in the feedback path can make the retrieval visible
  const retrieval = createRetrievalDeps(database.db, undefined, { flushMs: 60_000 });
  const byText = async (text: string) => {
    const [m] = await database.db.select().from(memories).where(and(eq(memories.tenantId, q.auth.tenantId), eq(memories.content, text)));
    if (!m) throw new Error(`no memory "${text}"`);
    return m;
  };
  return { auth: q.auth, retrieval, queue: new RecordingQueue(), byText };
}

const retrieve = (s: Setup, query: string) =>
  retrieveMemories(s.retrieval, s.auth, retrieveRequest.parse({ external_user_id: 'u1', query }), { requestId: crypto.randomUUID() });

function feedback(s: Setup, body: Record<string, unknown>, opts: { idempotencyKey?: string; auth?: TenantAuth } = {}) {
  return recordRetrievalFeedback(
    { db: database.db, config: testConfig(), queue: s.queue, activity: s.retrieval.activity },
    opts.auth ?? s.auth,
    retrievalFeedbackRequest.parse(body),
    { requestId: crypto.randomUUID(), idempotencyKey: opts.idempotencyKey },
  );
}

const rejection = (p: Promise<unknown>) => p.then(() => expect.unreachable('should have been rejected'), (e: unknown) => e as ApiError);

describe('recordRetrievalFeedback', () => {
  it('finds a retrieval made a moment ago and applies the outcome to the memories used', async () => {
    const s = await setup('I live in Lisbon. I love jazz.');
    const r = await retrieve(s, 'jazz music in Lisbon');
    const jazz = await s.byText('The user loves jazz.');
    const lisbon = await s.byText('The user lives in Lisbon.');
    const v = await memoryVersionOf(database, s.auth.tenantId);

    const res = await feedback(s, { retrieval_id: r.retrieval_id, outcome: 'used_successfully', used_memory_ids: [jazz.id], agent_confidence: 1 });
    expect(res.replayed).toBe(false);
    expect(res.body.data).toEqual({
      feedback_id: expect.any(String),
      retrieval_id: r.retrieval_id,
      outcome: 'used_successfully',
      used_memory_ids: [jazz.id],
      memories_updated: 1,
      correction_job_id: null,
      created_at: expect.any(String),
    });
    expect((await s.byText('The user loves jazz.')).importance).toBeCloseTo(jazz.importance + 0.05, 5);
    expect((await s.byText('The user loves jazz.')).feedbackScore).toBe(1);
    expect((await s.byText('The user lives in Lisbon.')).importance).toBe(lisbon.importance);
    expect(await memoryVersionOf(database, s.auth.tenantId)).toBe(v + 1);
    expect(s.queue.jobs).toEqual([]);

    // without used_memory_ids the feedback is about every memory the retrieval returned
    const all = await feedback(s, { retrieval_id: r.retrieval_id, outcome: 'irrelevant', agent_confidence: 0.5 });
    expect(all.body.data.used_memory_ids.sort()).toEqual([jazz.id, lisbon.id].sort());
    expect((await s.byText('The user lives in Lisbon.')).importance).toBeCloseTo(lisbon.importance - 0.04, 5);
    expect((await s.byText('The user lives in Lisbon.')).feedbackScore).toBe(-0.5);
    const [row] = await database.db.select().from(retrievalFeedback).where(eq(retrievalFeedback.id, all.body.data.feedback_id));
    expect(row).toMatchObject({ outcome: 'irrelevant', usedMemoryIds: [], agentConfidence: 0.5, correction: null });
  });

  it('answers 404 for an unknown retrieval and for another tenant’s, 422 for memories the retrieval did not return', async () => {
    const s = await setup('I live in Porto. I love fado.');
    const other = await setup('I live in Faro.');
    const r = await retrieve(s, 'fado');
    const fado = await s.byText('The user loves fado.');
    const porto = await s.byText('The user lives in Porto.');

    const unknown = await rejection(feedback(s, { retrieval_id: crypto.randomUUID(), outcome: 'ignored' }));
    expect([unknown.status, unknown.code]).toEqual([404, 'not_found']);
    const foreign = await rejection(feedback(s, { retrieval_id: r.retrieval_id, outcome: 'ignored' }, { auth: other.auth }));
    expect([foreign.status, foreign.code]).toEqual([404, 'not_found']);

    const limited = await retrieveMemories(s.retrieval, s.auth, retrieveRequest.parse({ external_user_id: 'u1', query: 'fado', limit: 1 }), {
      requestId: crypto.randomUUID(),
    });
    expect(limited.data.map((m) => m.id)).toEqual([fado.id]);
    const bad = await rejection(
      feedback(s, { retrieval_id: limited.retrieval_id, outcome: 'used_successfully', used_memory_ids: [fado.id, porto.id] }),
    );
    expect([bad.status, bad.code]).toEqual([422, 'validation_failed']);
    expect(bad.extra.errors).toEqual([{ path: 'used_memory_ids[1]', message: 'is not a memory this retrieval returned' }]);
  });

  it('takes one feedback per retrieval and outcome, and replays an Idempotency-Key', async () => {
    const s = await setup('I love cumbia.');
    const r = await retrieve(s, 'cumbia');
    const first = await feedback(s, { retrieval_id: r.retrieval_id, outcome: 'used_successfully' }, { idempotencyKey: 'k1' });
    const replay = await feedback(s, { retrieval_id: r.retrieval_id, outcome: 'used_successfully' }, { idempotencyKey: 'k1' });
    expect(replay).toEqual({ ...first, replayed: true });
    const reused = await rejection(feedback(s, { retrieval_id: r.retrieval_id, outcome: 'ignored' }, { idempotencyKey: 'k1' }));
    expect([reused.status, reused.code]).toEqual([422, 'idempotency_key_reused']);

    const again = await rejection(feedback(s, { retrieval_id: r.retrieval_id, outcome: 'used_successfully' }));
    expect([again.status, again.code]).toEqual([409, 'conflict']);
    expect(again.extra.fields).toEqual({ feedback_id: first.body.data.feedback_id });
    const cumbia = await s.byText('The user loves cumbia.');
    expect(cumbia.feedbackScore).toBe(1); // counted once

    // another outcome for the same retrieval is new information
    expect((await feedback(s, { retrieval_id: r.retrieval_id, outcome: 'partially_used' })).body.data.memories_updated).toBe(1);
    expect((await feedback(s, { retrieval_id: r.retrieval_id, outcome: 'missing_context' })).body.data.memories_updated).toBe(0);
  });
});

describe('corrections', () => {
  it('queues a correction job at once, and the job supersedes the contradicted claim through the ledger', async () => {
    const s = await setup('I live in Lisbon. I love jazz.');
    const r = await retrieve(s, 'where do I live');
    const lisbon = await s.byText('The user lives in Lisbon.');
    const jazz = await s.byText('The user loves jazz.');
    const res = await feedback(s, {
      retrieval_id: r.retrieval_id,
      outcome: 'user_corrected',
      used_memory_ids: [lisbon.id],
      correction: 'Actually I live in Porto now',
      metadata: { conversation_id: 'c-9' },
    });
    const jobId = res.body.data.correction_job_id as string;
    expect(jobId).toEqual(expect.any(String));
    expect(s.queue.jobs).toEqual([{ jobId, tenantId: s.auth.tenantId, userId: lisbon.userId, kind: 'correction' }]);
    // answered without waiting: the job is still queued, and shows like any job
    expect(await getJobView(database.db, s.auth.tenantId, jobId)).toMatchObject({
      status: 'queued',
      queue_name: 'memory-correction',
      extraction_metadata: { kind: 'correction', retrieval_feedback_id: res.body.data.feedback_id, retrieval_id: r.retrieval_id },
    });
    expect((await s.byText('The user lives in Lisbon.')).importance).toBeCloseTo(lisbon.importance - 0.15, 5);
    const [event] = await database.db.select().from(sourceEvents).where(eq(sourceEvents.jobId, jobId));
    expect(event).toMatchObject({
      service: 'default',
      eventId: `feedback_${res.body.data.feedback_id}`,
      payload: { messages: [{ role: 'user', content: 'Actually I live in Porto now' }], metadata: { conversation_id: 'c-9' } },
      evidence: [{ source_type: 'retrieval_feedback', reference: res.body.data.feedback_id }],
    });

    expect(await drain()).toBe(1);
    expect(await getJobView(database.db, s.auth.tenantId, jobId)).toMatchObject({
      status: 'completed',
      memories_created: 1,
      extraction_metadata: { memories_superseded: 1, superseded_memory_ids: [lisbon.id] },
    });
    const porto = await s.byText('The user lives in Porto now.');
    expect(porto).toMatchObject({ status: 'active', subject: 'residence', claimValue: 'porto', jobId, sourceEventId: event.id });
    expect(await s.byText('The user lives in Lisbon.')).toMatchObject({ status: 'inactive', supersededBy: porto.id });
    expect((await s.byText('The user loves jazz.'))).toMatchObject({ status: 'active', importance: jazz.importance });

    const history = await database.db.select().from(claimRevisions).where(eq(claimRevisions.memoryId, lisbon.id)).orderBy(claimRevisions.createdAt);
    expect(history.map((h) => h.action)).toEqual(['created', 'superseded']);
    expect(history[1]).toMatchObject({
      actor: `feedback:${res.body.data.feedback_id}`,
      reason: `corrected by the user via retrieval feedback ${res.body.data.feedback_id}`,
      fromStatus: 'active',
      toStatus: 'inactive',
      jobId,
      details: expect.objectContaining({ superseded_by: porto.id, decided_by: 'user_correction', was_used: true }),
    });

    const after = await retrieve(s, 'where do I live');
    expect(after.data.map((m) => m.content)).toContain('The user lives in Porto now.');
    expect(after.data.map((m) => m.content)).not.toContain('The user lives in Lisbon.');

    // a second run of the finished job changes nothing and reports the first run
    const count = async () => (await database.db.select().from(memories).where(eq(memories.tenantId, s.auth.tenantId))).length;
    const n = await count();
    expect(await runCorrection(jobId, directSteps, { db: database.db, extractor })).toEqual({
      status: 'completed',
      memories_created: 1,
      memories_reinforced: 0,
      memories_superseded: 1,
    });
    expect(await count()).toBe(n);
  });

  it('wins over a writer with more authority', async () => {
    const s = await setup('I am a vegetarian.');
    // as if a trusted writer had stated it: authority plays no part in a user's correction
    await database.db.update(memories).set({ writerId: crypto.randomUUID() }).where(eq(memories.tenantId, s.auth.tenantId));
    const r = await retrieve(s, 'diet');
    const res = await feedback(s, { retrieval_id: r.retrieval_id, outcome: 'user_corrected', correction: "No, I'm vegan." });
    await drain();
    expect((await getJobView(database.db, s.auth.tenantId, res.body.data.correction_job_id as string))?.status).toBe('completed');
    expect((await s.byText('The user is vegan.')).status).toBe('active');
    expect((await s.byText('The user is a vegetarian.')).status).toBe('inactive');
  });

  it('supersedes a named memory that is not a claim when the correction shares its words, and only that one', async () => {
    const s = await setup('I love jazz. I love opera.');
    const r = await retrieve(s, 'music');
    const jazz = await s.byText('The user loves jazz.');
    const opera = await s.byText('The user loves opera.');
    const res = await feedback(s, {
      retrieval_id: r.retrieval_id,
      outcome: 'user_corrected',
      used_memory_ids: [jazz.id, opera.id],
      correction: 'Actually I hate jazz now.',
    });
    await drain();
    const hates = await s.byText('The user hates jazz now.');
    expect(await s.byText('The user loves jazz.')).toMatchObject({ status: 'inactive', supersededBy: hates.id });
    expect((await s.byText('The user loves opera.')).status).toBe('active');
    expect(await getJobView(database.db, s.auth.tenantId, res.body.data.correction_job_id as string)).toMatchObject({
      status: 'completed',
      extraction_metadata: { memories_superseded: 1 },
    });
  });

  it('reinforces what the user already has instead of copying it, and finds nothing in an empty correction', async () => {
    const s = await setup('I live in Lisbon. I love tea.');
    const r = await retrieve(s, 'where');
    const same = await feedback(s, { retrieval_id: r.retrieval_id, outcome: 'user_corrected', correction: 'I live in Lisbon.' });
    await drain();
    expect(await getJobView(database.db, s.auth.tenantId, same.body.data.correction_job_id as string)).toMatchObject({
      status: 'completed',
      memories_created: 0,
      extraction_metadata: { memories_reinforced: 1, memories_superseded: 0 },
    });
    expect((await s.byText('The user lives in Lisbon.')).status).toBe('active');

    const r2 = await retrieve(s, 'tea');
    const nothing = await feedback(s, { retrieval_id: r2.retrieval_id, outcome: 'user_corrected', correction: 'hmm, no.' });
    await drain();
    expect((await getJobView(database.db, s.auth.tenantId, nothing.body.data.correction_job_id as string))?.status).toBe('processed');
    expect((await s.byText('The user loves tea.')).status).toBe('active');
  });

  it('runs as an Inngest function with the same body', async () => {
    const s = await setup('I work at Acme.');
    const r = await retrieve(s, 'work');
    const res = await feedback(s, { retrieval_id: r.retrieval_id, outcome: 'user_corrected', correction: 'I work at Globex.' });
    const jobId = res.body.data.correction_job_id as string;
    const fn = createCorrectionFunction(createInngestClient(), async () => ({ db: database.db, extractor }));
    const t = new InngestTestEngine({
      function: fn,
      events: [{ name: CORRECTION_REQUESTED, data: { job_id: jobId, tenant_id: s.auth.tenantId, user_id: 'x' } }],
    });
    const { result, error } = await t.execute();
    expect(error).toBeUndefined();
    expect(result).toEqual({ status: 'completed', memories_created: 1, memories_reinforced: 0, memories_superseded: 1 });
    expect((await s.byText('The user works at Acme.')).status).toBe('inactive');
    expect(await getJobView(database.db, s.auth.tenantId, jobId)).toMatchObject({ status: 'completed', attempts: 1 });
  });

  it('fails a job of a kind no function runs, without retrying', async () => {
    const s = await setup('I love reggae.');
    const r = await retrieve(s, 'reggae');
    const res = await feedback(s, { retrieval_id: r.retrieval_id, outcome: 'user_corrected', correction: 'I love ska.' });
    const jobId = res.body.data.correction_job_id as string;
    // a kind the column's type does not allow, as a newer version could have written
    await database.db.update(extractionJobs).set({ kind: sql`'mystery'` }).where(eq(extractionJobs.id, jobId));
    await drain();
    expect(await getJobView(database.db, s.auth.tenantId, jobId)).toMatchObject({ status: 'failed', attempts: 1 });
  });
});
