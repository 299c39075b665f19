/**
 * The universal store end to end at unit level, on an in-memory PGlite with the real migrations: credentials,
 * the grant rules of add, the job (runner and Inngest), category filtering, conflicts into passport questions,
 * and retrieval. The HTTP surface is covered by tests/integration/universal.test.ts (on both engines).
 */
import {
  forgetVerifiedAgentKeys,
  ApiError,
  BuiltinExtractor,
  type ExtractionProvider,
  type RetrievalDeps,
  addUniversalMemories,
  analyze,
  authenticateUniversalAgent,
  createRetrievalDeps,
  getUniversalJobView,
  listPassportQuestions,
  resolvePassportQuestion,
  retrieveUniversalMemories,
  toProblem,
  universalRetrieveRequest,
} from '@memory/core';
import { type Database, and, eq, globalAgents, grants, memories, passportUsers, sql, universalJobs, universalMemories, uuiTokens } from '@memory/db';
import { InngestTestEngine } from '@inngest/test';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createInngestClient, createUniversalExtractionFunction } from './inngest';
import { EmbeddedRunner } from './runner';
import { UNIVERSAL_JOBS } from './sources';
import { createPassportFixture, noQueue, openTestDatabase, testConfig } from './test-support';
import { UNIVERSAL_REQUESTED, runUniversalExtraction } from './universal';

let database: Database;
let retrieval: RetrievalDeps;
beforeAll(async () => {
  database = await openTestDatabase();
  retrieval = createRetrievalDeps(database.db);
}, 60_000);
afterAll(async () => {
  await retrieval.activity.flush();
  await database.close();
});

const opts = { pollMs: 20, leaseSeconds: 30, backoffBaseMs: 10 };
const runAll = () => new EmbeddedRunner({ db: database.db, extractor: new BuiltinExtractor() }, opts).drain();

type Fixture = Awaited<ReturnType<typeof createPassportFixture>>;
const authOf = (f: Fixture) => authenticateUniversalAgent(database.db, f.agentKey, f.uuiToken);

async function add(f: Fixture, content: string, extra: { idempotency_key?: string; metadata?: Record<string, unknown> } = {}) {
  return addUniversalMemories(
    { db: database.db, config: testConfig(), queue: noQueue },
    await authOf(f),
    { messages: [{ role: 'user', content }], ...extra },
    { requestId: crypto.randomUUID() },
  );
}

async function retrieve(f: Fixture, query: string) {
  return retrieveUniversalMemories(retrieval, await authOf(f), universalRetrieveRequest.parse({ query }), { requestId: crypto.randomUUID() });
}

async function rejection(p: Promise<unknown>): Promise<ApiError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(err)}`);
  return err;
}

const versionOf = async (passportUserId: string) =>
  (await database.db.select().from(passportUsers).where(eq(passportUsers.id, passportUserId)))[0].memoryVersion;

describe('universal credentials', () => {
  it('accepts the agent key with its own token and returns the active grant', async () => {
    const f = await createPassportFixture(database, { grant: { categories: ['fact'], accessType: 'read_only' } });
    const auth = await authOf(f);
    expect(auth).toMatchObject({ passportUserId: f.passportUserId, agent: { id: f.agentId, tenantId: f.tenantId } });
    expect(auth.grant).toEqual({ id: f.grantId, categories: ['fact'], accessType: 'read_only' });
    await database.db.update(grants).set({ status: 'revoked' }).where(eq(grants.id, f.grantId as string));
    expect((await authOf(f)).grant).toBeNull();
  });

  it('is 401 for unknown or revoked keys and unknown, expired or revoked tokens; 403 for another agent’s token', async () => {
    const f = await createPassportFixture(database);
    const other = await createPassportFixture(database, { passportUserId: f.passportUserId, tenantId: f.tenantId });
    expect((await rejection(authenticateUniversalAgent(database.db, 'mem_ak_nope', f.uuiToken))).status).toBe(401);
    expect((await rejection(authenticateUniversalAgent(database.db, f.agentKey, 'mem_uui_nope'))).status).toBe(401);
    const stolen = await rejection(authenticateUniversalAgent(database.db, other.agentKey, f.uuiToken));
    expect([stolen.status, stolen.code]).toEqual([403, 'uui_token_agent_mismatch']);

    await database.db.update(uuiTokens).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(uuiTokens.agentId, f.agentId));
    expect((await rejection(authOf(f))).status).toBe(401);
    await database.db.update(uuiTokens).set({ expiresAt: null, revokedAt: sql`now()` }).where(eq(uuiTokens.agentId, f.agentId));
    expect((await rejection(authOf(f))).status).toBe(401);
    await database.db.update(globalAgents).set({ revokedAt: sql`now()` }).where(eq(globalAgents.id, other.agentId));
    // verified agent keys are remembered for 10 s (docs/passport.md); a revocation is seen once that has passed
    forgetVerifiedAgentKeys();
    expect((await rejection(authOf(other))).status).toBe(401);
  });
});

describe('universal add', () => {
  it('refuses without a grant (UAT_001) and with a read-only grant (UAT_002, error write_not_permitted)', async () => {
    const none = await createPassportFixture(database);
    const noGrant = await rejection(add(none, 'I live in Lisbon.'));
    expect(toProblem(noGrant, 'r').problem.body).toMatchObject({ status: 403, code: 'UAT_001', error: 'no_grant_for_user' });

    const ro = await createPassportFixture(database, { grant: { categories: ['fact'], accessType: 'read_only' } });
    const readOnly = toProblem(await rejection(add(ro, 'I live in Lisbon.')), 'r').problem;
    expect(readOnly.status).toBe(403);
    expect(readOnly.headers['Content-Type']).toBe('application/problem+json');
    expect(readOnly.body).toMatchObject({ code: 'UAT_002', error: 'write_not_permitted', title: 'Write not permitted' });
    const jobs = await database.db.select().from(universalJobs).where(eq(universalJobs.passportUserId, ro.passportUserId));
    expect(jobs).toEqual([]);
  });

  it('queues a job with the grant’s categories and a redacted payload; replays the same idempotency key', async () => {
    const f = await createPassportFixture(database, { grant: { categories: ['goal', 'fact'], accessType: 'read_write' } });
    const first = await add(f, 'I live in Lisbon. My key is sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD', { idempotency_key: 'k1' });
    expect(first.replayed).toBe(false);
    expect(first.body).toMatchObject({ status: 'queued', categories: ['fact', 'goal'], blocked_reason: null });
    const [job] = await database.db.select().from(universalJobs).where(eq(universalJobs.id, first.body.job_id as string));
    expect(job).toMatchObject({ status: 'queued', agentId: f.agentId, categories: ['fact', 'goal'], idempotencyKey: 'k1' });
    expect(JSON.stringify(job.payload)).not.toContain('sk-proj-');

    const again = await add(f, 'I live in Lisbon. My key is sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD', { idempotency_key: 'k1' });
    expect(again).toEqual({ httpStatus: 200, body: first.body, replayed: true });
    const reused = await rejection(add(f, 'I live in Porto.', { idempotency_key: 'k1' }));
    expect([reused.status, reused.code]).toEqual([422, 'idempotency_key_reused']);
    expect(await database.db.select().from(universalJobs).where(eq(universalJobs.passportUserId, f.passportUserId))).toHaveLength(1);
    expect(await runAll()).toBe(1);
  });

  it('answers the gate’s status without a job for low-quality input', async () => {
    const f = await createPassportFixture(database, { grant: { categories: ['fact'], accessType: 'read_write' } });
    const res = await add(f, 'asdfghjkl qwertyuiop');
    expect(res.body).toMatchObject({ status: 'L2', blocked_reason: 'low_quality', job_id: null });
    expect(await database.db.select().from(universalJobs).where(eq(universalJobs.passportUserId, f.passportUserId))).toHaveLength(0);
  });
});

describe('universal extraction job', () => {
  it('stores only granted categories, counts the rest, bumps the version and never writes tenant memories', async () => {
    const f = await createPassportFixture(database, { grant: { categories: ['fact'], accessType: 'read_write' } });
    const tenantMemoriesBefore = (await database.db.select({ id: memories.id }).from(memories)).length;
    const before = await versionOf(f.passportUserId);
    const res = await add(f, 'I live in Lisbon. I love jazz. I want to run a marathon in April.');
    expect(await runAll()).toBe(1);
    const view = await getUniversalJobView(database.db, { passportUserId: f.passportUserId, agentId: f.agentId }, res.body.job_id as string);
    expect(view).toMatchObject({ status: 'completed', memories_created: 1, attempts: 1 });
    expect(view?.extraction_metadata).toMatchObject({ dropped_outside_grant: 2, categories_written: ['fact'], provider: 'builtin' });
    const stored = await database.db.select().from(universalMemories).where(eq(universalMemories.passportUserId, f.passportUserId));
    expect(stored.map((m) => [m.content, m.category, m.status, m.agentId])).toEqual([['The user lives in Lisbon.', 'fact', 'active', f.agentId]]);
    expect(await versionOf(f.passportUserId)).toBe(before + 1);
    expect((await database.db.select({ id: memories.id }).from(memories)).length).toBe(tenantMemoriesBefore);
    // another agent of another user cannot poll it
    const stranger = await createPassportFixture(database);
    expect(await getUniversalJobView(database.db, { passportUserId: stranger.passportUserId, agentId: stranger.agentId }, view!.job_id)).toBeNull();
  });

  it('reinforces the same fact from another agent instead of copying it', async () => {
    const a = await createPassportFixture(database, { grant: { categories: ['fact'], accessType: 'read_write' } });
    const b = await createPassportFixture(database, { passportUserId: a.passportUserId, tenantId: a.tenantId, grant: { categories: ['fact'], accessType: 'read_write' } });
    await add(a, "I'm a vegetarian.");
    await runAll();
    const [first] = await database.db.select().from(universalMemories).where(eq(universalMemories.passportUserId, a.passportUserId));
    await add(b, "I'm a vegetarian.");
    await runAll();
    const stored = await database.db.select().from(universalMemories).where(eq(universalMemories.passportUserId, a.passportUserId));
    expect(stored).toHaveLength(1);
    expect(stored[0].importance).toBeGreaterThan(first.importance);
    const [jobB] = await database.db.select().from(universalJobs).where(eq(universalJobs.agentId, b.agentId));
    expect(jobB).toMatchObject({ status: 'completed', memoriesCreated: 0 });
    expect(jobB.extractionMetadata).toMatchObject({ memories_reinforced: 1 });
  });

  it('writes each memory once when the same job runs twice (at-least-once delivery)', async () => {
    const f = await createPassportFixture(database, { grant: { categories: ['fact'], accessType: 'read_write' } });
    const res = await add(f, 'I am allergic to peanuts. I live in Quito.');
    const jobId = res.body.job_id as string;
    const deps = { db: database.db, extractor: new BuiltinExtractor() };
    const direct = { run: async <T>(_id: string, fn: () => Promise<T> | T) => fn() };
    const first = await runUniversalExtraction(jobId, direct, deps);
    await database.db.update(universalJobs).set({ status: 'running' }).where(eq(universalJobs.id, jobId));
    const second = await runUniversalExtraction(jobId, direct, deps);
    expect(first?.memories_created).toBe(2);
    expect(second?.memories_created).toBe(2);
    expect(await database.db.select().from(universalMemories).where(eq(universalMemories.jobId, jobId))).toHaveLength(2);
  });

  it('writes nothing when the grant was revoked before the job ran', async () => {
    const f = await createPassportFixture(database, { grant: { categories: ['fact'], accessType: 'read_write' } });
    const res = await add(f, 'I live in Madrid.');
    await database.db.update(grants).set({ status: 'revoked' }).where(eq(grants.id, f.grantId as string));
    await runAll();
    const [job] = await database.db.select().from(universalJobs).where(eq(universalJobs.id, res.body.job_id as string));
    expect(job.status).toBe('processed');
    expect(job.extractionMetadata).toMatchObject({ grant_active: false, dropped_outside_grant: 1 });
    expect(await database.db.select().from(universalMemories).where(eq(universalMemories.passportUserId, f.passportUserId))).toEqual([]);
  });

  it('retries a failing extraction with backoff and ends dead with an error summary', async () => {
    const f = await createPassportFixture(database, { grant: { categories: ['fact'], accessType: 'read_write' } });
    const res = await add(f, 'I live in Rome.');
    const broken: ExtractionProvider = { name: 'broken', extract: async () => Promise.reject(new Error('provider unavailable')) };
    const runner = new EmbeddedRunner({ db: database.db, extractor: broken }, { ...opts, backoffBaseMs: 60_000, sources: [UNIVERSAL_JOBS] });
    for (let i = 0; i < 3; i++) {
      await database.db.update(universalJobs).set({ runAfter: sql`now()` }).where(eq(universalJobs.id, res.body.job_id as string));
      expect(await runner.drain()).toBe(1);
    }
    const [job] = await database.db.select().from(universalJobs).where(eq(universalJobs.id, res.body.job_id as string));
    expect(job).toMatchObject({ status: 'dead', attempts: 3, error: 'Error: provider unavailable' });
    expect(job.errorSummary).toBe('gave up after 3 attempts; last error: Error: provider unavailable');
    expect(job.finishedAt).not.toBeNull();
  });

  it('runs as the Inngest function memory-universal-extraction with a per-passport-user concurrency key', async () => {
    const f = await createPassportFixture(database, { grant: { categories: ['fact', 'preference'], accessType: 'read_write' } });
    const res = await add(f, 'I live in Oslo. I love jazz.');
    const fn = createUniversalExtractionFunction(createInngestClient(), async () => ({ db: database.db, extractor: new BuiltinExtractor() }));
    const t = new InngestTestEngine({
      function: fn,
      events: [{ name: UNIVERSAL_REQUESTED, data: { job_id: res.body.job_id, passport_user_id: f.passportUserId } }],
    });
    const { result, error } = await t.execute();
    expect(error).toBeUndefined();
    expect(result).toEqual({ status: 'completed', memories_created: 2, memories_reinforced: 0 });
    const [job] = await database.db.select().from(universalJobs).where(eq(universalJobs.id, res.body.job_id as string));
    expect(job).toMatchObject({ status: 'completed', attempts: 1 });

    type Config = { id: string; concurrency?: unknown; triggers: unknown[] };
    const getConfig = (fn as unknown as { getConfig(o: { baseUrl: URL; appPrefix: string }): Config[] }).getConfig;
    const [main, failure] = getConfig.call(fn, { baseUrl: new URL('http://127.0.0.1/api/inngest'), appPrefix: 'memory-service' });
    expect(main.triggers).toEqual([{ event: UNIVERSAL_REQUESTED }]);
    expect(main.concurrency).toEqual([{ key: 'event.data.passport_user_id', limit: 1 }]);
    expect(failure.id).toBe('memory-service-memory-universal-extraction-failure');
  });
});

describe('universal retrieve', () => {
  it('ranks only the granted categories and hides who else wrote what', async () => {
    const writer = await createPassportFixture(database, { grant: { categories: ['fact', 'preference', 'goal'], accessType: 'read_write' } });
    await add(writer, 'I live in Lisbon. I love jazz. I want to run a marathon in April.');
    await runAll();
    const reader = await createPassportFixture(database, {
      passportUserId: writer.passportUserId,
      tenantId: writer.tenantId,
      grant: { categories: ['preference'], accessType: 'read_only' },
    });
    const r = await retrieve(reader, 'what music does the user like');
    expect(r.permission_error).toBeNull();
    expect(r.categories_available).toEqual(['preference']);
    expect(r.data.map((m) => [m.content, m.category])).toEqual([['The user loves jazz.', 'preference']]);
    expect(r.data[0].provenance).toEqual({ service: 'universal', observed_at: expect.any(String) });
    expect(r.system_prompt_addition).toContain('The user loves jazz.');
    expect(r.system_prompt_addition).not.toContain('Lisbon');
    expect(r).toMatchObject({ is_passthrough: false, quota_mode: 'FULL', retrieval_id: null, clarification_question: null });

    // the writer sees its own job in the provenance, and all three categories
    const own = await retrieve(writer, 'where does the user live, what does the user love and want');
    expect(own.data.map((m) => m.category).sort()).toEqual(['fact', 'goal', 'preference']);
    expect(own.data[0].provenance).toMatchObject({ service: 'universal', job_id: expect.any(String) });
    // access is recorded
    const [jazz] = await database.db
      .select()
      .from(universalMemories)
      .where(and(eq(universalMemories.passportUserId, writer.passportUserId), eq(universalMemories.content, 'The user loves jazz.')));
    expect(jazz.accessCount).toBeGreaterThanOrEqual(2);
    expect(jazz.lastAccessed).not.toBeNull();
  });

  it('stores each memory’s ranking inputs with it and ranks by them at load; a row written without them is analysed then', async () => {
    const f = await createPassportFixture(database, { grant: { categories: ['fact'], accessType: 'read_write' } });
    await add(f, 'I live in Porto.');
    await runAll();
    const mine = eq(universalMemories.passportUserId, f.passportUserId);
    const [row] = await database.db.select().from(universalMemories).where(mine);
    // the text's stems and the claim's slot words ("where is the user's home" finds "The user lives in Porto.")
    expect(row.terms?.split(' ')).toEqual([...analyze(row.content), ...analyze('home residence')]);
    expect(row).toMatchObject({ vector: expect.any(String), vectorModel: 'glove-sif-100' });
    const reload = () =>
      database.db
        .update(passportUsers)
        .set({ memoryVersion: sql`${passportUsers.memoryVersion} + 1` })
        .where(eq(passportUsers.id, f.passportUserId));
    const found = async (query: string) => (await retrieve(f, query)).data.map((m) => m.content);
    // a load parses what is stored: a stem only the stored terms hold finds the memory
    expect(await found('zeppelin')).toEqual([]);
    await database.db.update(universalMemories).set({ terms: `${row.terms} zeppelin` }).where(mine);
    await reload();
    expect(await found('zeppelin')).toEqual(['The user lives in Porto.']);
    // a row written before the columns existed is analysed from its text at load, with its slot words
    await database.db.update(universalMemories).set({ terms: null, vector: null, vectorModel: null }).where(mine);
    await reload();
    expect(await found('zeppelin')).toEqual([]);
    expect(await found('what is the residence')).toEqual(['The user lives in Porto.']);
    // and that load stores what it computed, off the request: the next load parses it
    await vi.waitFor(async () => expect((await database.db.select().from(universalMemories).where(mine))[0].terms).not.toBeNull());
    expect(await database.db.select().from(universalMemories).where(mine)).toMatchObject([{ terms: row.terms, vector: row.vector, vectorModel: 'glove-sif-100' }]);
  });

  it('answers an agent without a grant (or with a revoked one) with an empty result and no_grant_for_user', async () => {
    const writer = await createPassportFixture(database, { grant: { categories: ['fact'], accessType: 'read_write' } });
    await add(writer, 'I live in Berlin.');
    await runAll();
    expect((await retrieve(writer, 'where does the user live')).data).toHaveLength(1);
    await database.db.update(grants).set({ status: 'revoked' }).where(eq(grants.id, writer.grantId as string));
    const r = await retrieve(writer, 'where does the user live');
    expect(r).toMatchObject({
      data: [],
      system_prompt_addition: '',
      is_passthrough: false,
      permission_error: 'no_grant_for_user',
      categories_available: [],
      clarification_question: null,
    });
  });
});

describe('universal conflicts become pending questions', () => {
  it('takes both claims out of retrieval, asks the user, and applies the answer', async () => {
    const a = await createPassportFixture(database, { grant: { categories: ['fact'], accessType: 'read_write' } });
    const b = await createPassportFixture(database, { passportUserId: a.passportUserId, tenantId: a.tenantId, grant: { categories: ['fact'], accessType: 'read_write' } });
    await add(a, 'I live in Lisbon.');
    await runAll();
    await add(b, 'I live in Porto.');
    await runAll();

    const r = await retrieve(a, 'where does the user live');
    expect(r.data).toEqual([]);
    expect(r.clarification_question).toBe('Do you currently live in Lisbon or in Porto?');
    const questions = await listPassportQuestions(database.db, a.passportUserId);
    expect(questions).toHaveLength(1);
    expect(questions[0]).toMatchObject({ subject: 'residence', question: 'Do you currently live in Lisbon or in Porto?' });
    expect(questions[0].options.map((o) => o.content)).toEqual(['The user lives in Lisbon.', 'The user lives in Porto.']);
    // another agent whose grant does not cover the claims' category is not shown the question
    const outsider = await createPassportFixture(database, { passportUserId: a.passportUserId, tenantId: a.tenantId, grant: { categories: ['goal'], accessType: 'read_only' } });
    expect((await retrieve(outsider, 'where does the user live')).clarification_question).toBeNull();

    const porto = questions[0].options[1].memory_id;
    const stranger = await createPassportFixture(database);
    expect((await rejection(resolvePassportQuestion(database.db, stranger.passportUserId, questions[0].id, porto))).status).toBe(404);
    expect((await rejection(resolvePassportQuestion(database.db, a.passportUserId, questions[0].id, stranger.agentId))).status).toBe(422);
    const before = await versionOf(a.passportUserId);
    const resolved = await resolvePassportQuestion(database.db, a.passportUserId, questions[0].id, porto);
    expect(resolved).toMatchObject({ status: 'resolved', resolution_memory_id: porto, archived_memory_id: questions[0].options[0].memory_id });
    expect(await versionOf(a.passportUserId)).toBe(before + 1);
    const conflict = await rejection(resolvePassportQuestion(database.db, a.passportUserId, questions[0].id, porto));
    expect([conflict.status, conflict.code]).toEqual([409, 'conflict']);
    expect(await listPassportQuestions(database.db, a.passportUserId)).toEqual([]);

    const after = await retrieve(b, 'where does the user live');
    expect(after.data.map((m) => m.content)).toEqual(['The user lives in Porto.']);
    expect(after.clarification_question).toBeNull();
    const [lisbon] = await database.db.select().from(universalMemories).where(eq(universalMemories.id, resolved.archived_memory_id));
    expect(lisbon).toMatchObject({ status: 'archived', supersededBy: porto });
  });
});
