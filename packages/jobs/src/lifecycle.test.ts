/**
 * The memory lifecycle pass on PGlite with an injected clock: decay, the access boost, archiving (never
 * deleting) with a ledger entry, leaving retrieval (hot tier included), and the job wrappers around it.
 */
import {
  LIFECYCLE,
  addMemories,
  type RetrievalDeps,
  type TenantAuth,
  createRetrievalDeps,
  decayedImportance,
  retrieveMemories,
  retrieveRequest,
  runLifecyclePass,
} from '@memory/core';
import { type Database, and, claimRevisions, endUsers, eq, memories, sql } from '@memory/db';
import { InngestTestEngine } from '@inngest/test';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createInngestClient } from './inngest';
import { LIFECYCLE_CRON, LifecycleScheduler, createLifecycleFunction, runLifecycle } from './lifecycle';
import { openTestDatabase, memoryVersionOf, queueConversation, runQueuedJobs, testAddDeps } from './test-support';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
}, 60_000);
afterAll(async () => database.close());

const DAY = 86_400_000;
const later = (from: Date, days: number) => new Date(from.getTime() + days * DAY);

async function userWithMemories(content: string) {
  const q = await queueConversation(database, content);
  await runQueuedJobs(database);
  const rows = await database.db.select().from(memories).where(eq(memories.tenantId, q.auth.tenantId));
  const byText = (text: string) => {
    const m = rows.find((r) => r.content === text);
    if (!m) throw new Error(`no memory "${text}" in ${rows.map((r) => r.content)}`);
    return m;
  };
  return { ...q, rows, byText };
}

const memoryRow = async (id: string) => (await database.db.select().from(memories).where(eq(memories.id, id)))[0];

async function retrieve(deps: RetrievalDeps, auth: TenantAuth, query: string, now?: Date) {
  const res = await retrieveMemories(deps, auth, retrieveRequest.parse({ external_user_id: 'u1', query }), { requestId: crypto.randomUUID(), now });
  await deps.activity.flush();
  return res;
}

describe('runLifecyclePass', () => {
  it('archives a memory unused for long enough, keeps the used one and the durable fact, and never deletes', async () => {
    const u = await userWithMemories('I love jazz. I love opera. I live in Lisbon.');
    const jazz = u.byText('The user loves jazz.');
    const opera = u.byText('The user loves opera.');
    const lisbon = u.byText('The user lives in Lisbon.');
    const deps = createRetrievalDeps(database.db);
    const before = await retrieve(deps, u.auth, 'music jazz opera Lisbon');
    expect(before.data.map((m) => m.id).sort()).toEqual([jazz.id, opera.id, lisbon.id].sort());
    const versionBefore = await memoryVersionOf(database, u.auth.tenantId);

    // 200 days on; the opera memory was retrieved the day before.
    const now = later(new Date(), 200);
    await database.db.update(memories).set({ lastAccessed: later(now, -1) }).where(eq(memories.id, opera.id));
    const result = await runLifecyclePass(database.db, now, { tenantId: u.auth.tenantId });
    expect(result).toEqual({ stepped: 3, archived: 1, users_changed: 1, busy: false });

    const jazzAfter = await memoryRow(jazz.id);
    expect(jazzAfter.status).toBe('archived');
    expect(jazzAfter.importance).toBeLessThan(LIFECYCLE.archiveThreshold);
    expect(jazzAfter.lifecycleAt?.toISOString()).toBe(now.toISOString());
    const operaAfter = await memoryRow(opera.id);
    expect(operaAfter.status).toBe('active');
    expect(operaAfter.importance).toBeGreaterThan(0.55); // the access boost outweighs one day of decay
    const lisbonAfter = await memoryRow(lisbon.id);
    expect(lisbonAfter.status).toBe('active');
    // retrieved once (the first retrieve above), so boosted once, then 200 days of decay towards the fact floor
    expect(lisbonAfter.importance).toBeCloseTo(decayedImportance(0.8 + LIFECYCLE.accessBoost, LIFECYCLE.floors.fact, 200 * DAY), 3);

    const ledger = await database.db
      .select()
      .from(claimRevisions)
      .where(and(eq(claimRevisions.memoryId, jazz.id), eq(claimRevisions.action, 'archived')));
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ actor: 'lifecycle', fromStatus: 'active', toStatus: 'archived', content: 'The user loves jazz.' });
    expect(ledger[0].reason).toMatch(/below the archive threshold 0\.1, after 200 days without use/);
    expect(await memoryVersionOf(database, u.auth.tenantId)).toBe(versionBefore + 1);

    // the hot tier notices through memory_version: the archived memory leaves retrieval at once
    const after = await retrieve(deps, u.auth, 'music jazz opera Lisbon', now);
    expect(after.data.map((m) => m.id).sort()).toEqual([opera.id, lisbon.id].sort());
    const returnedLisbon = after.data.find((m) => m.id === lisbon.id);
    expect(returnedLisbon?.importance_score).toBe(lisbonAfter.importance);

    // nothing is due again the same day
    expect(await runLifecyclePass(database.db, now, { tenantId: u.auth.tenantId })).toEqual({
      stepped: 0,
      archived: 0,
      users_changed: 0,
      busy: false,
    });
  });

  it('steps each memory at most once a day, and repeated steps compound like one long one', async () => {
    const u = await userWithMemories('I love fado.');
    const fado = u.byText('The user loves fado.');
    const start = new Date();
    expect((await runLifecyclePass(database.db, later(start, 30), { tenantId: u.auth.tenantId })).stepped).toBe(1);
    expect((await runLifecyclePass(database.db, later(start, 30.5), { tenantId: u.auth.tenantId })).stepped).toBe(0);
    expect((await runLifecyclePass(database.db, later(start, 61), { tenantId: u.auth.tenantId })).stepped).toBe(1);
    const created = (await memoryRow(fado.id)).createdAt;
    const idle = later(start, 61).getTime() - created.getTime();
    expect((await memoryRow(fado.id)).importance).toBeCloseTo(decayedImportance(0.55, 0, idle), 4);
  });

  it('leaves fresh memories, other tenants and inactive memories alone, and works in batches', async () => {
    const a = await userWithMemories('I love tango. I love salsa. I love swing.');
    const b = await userWithMemories('I love polka.');
    const now = later(new Date(), 400);
    await database.db.update(memories).set({ status: 'inactive' }).where(eq(memories.id, a.byText('The user loves swing.').id));
    expect(await runLifecyclePass(database.db, new Date(), { tenantId: a.auth.tenantId })).toMatchObject({ stepped: 0 });
    expect(await runLifecyclePass(database.db, now, { tenantId: a.auth.tenantId, batchSize: 1 })).toEqual({
      stepped: 2,
      archived: 2,
      users_changed: 2, // an archival bumps its user in its own batch
      busy: false,
    });
    expect((await memoryRow(a.byText('The user loves swing.').id)).status).toBe('inactive');
    expect((await memoryRow(b.byText('The user loves polka.').id))).toMatchObject({ status: 'active', lifecycleAt: null });
    // archived, never deleted
    expect(await database.db.select().from(memories).where(eq(memories.tenantId, a.auth.tenantId))).toHaveLength(3);
  });

  it('bumps each user once per pass, in the batch that steps its last due memory, however many batches it spans', async () => {
    const u = await userWithMemories('I love tango. I love salsa. I love swing.');
    const other = await addMemories(
      testAddDeps(database.db),
      u.auth,
      { external_user_id: 'u2', messages: [{ role: 'user', content: 'I love polka. I love waltz.' }] },
      { requestId: crypto.randomUUID() },
    );
    expect(other.body.job_id).toBeTruthy();
    await runQueuedJobs(database);
    const versions = async () =>
      Object.fromEntries(
        (await database.db.select().from(endUsers).where(eq(endUsers.tenantId, u.auth.tenantId))).map((e) => [e.externalUserId, e.memoryVersion]),
      );
    const before = await versions();
    // Batches of 2 over users of 3 and 2 memories (in either order, one user's memories span two batches),
    // 30 days on (decay, nothing archived): each user is bumped once, by the batch with its last due memory.
    const result = await runLifecyclePass(database.db, later(new Date(), 30), { tenantId: u.auth.tenantId, batchSize: 2 });
    expect(result).toEqual({ stepped: 5, archived: 0, users_changed: 2, busy: false });
    expect(await versions()).toEqual({ u1: before.u1 + 1, u2: before.u2 + 1 });
  });

  it('bumps a user whose memories an earlier pass stepped only in part, however little the rest changes', async () => {
    const u = await userWithMemories('I love tango. I love salsa. I love swing.');
    const start = new Date();
    // a pass that stopped after stepping one of the three memories (its batch committed without the bump)
    await database.db.update(memories).set({ lifecycleAt: later(start, 30) }).where(eq(memories.id, u.byText('The user loves tango.').id));
    // the other two are durable facts at their floor, so this step changes nothing in them
    await database.db
      .update(memories)
      .set({ category: 'fact', importance: LIFECYCLE.floors.fact })
      .where(and(eq(memories.tenantId, u.auth.tenantId), sql`${memories.content} <> 'The user loves tango.'`));
    const version = await memoryVersionOf(database, u.auth.tenantId);
    expect(await runLifecyclePass(database.db, later(start, 30.5), { tenantId: u.auth.tenantId })).toEqual({ stepped: 2, archived: 0, users_changed: 1, busy: false });
    expect(await memoryVersionOf(database, u.auth.tenantId)).toBe(version + 1);
  });
});

describe('lifecycle as a job', () => {
  async function agedUser(content: string) {
    const u = await userWithMemories(content);
    await database.db.execute(sql`UPDATE memories SET created_at = now() - interval '300 days' WHERE tenant_id = ${u.auth.tenantId}`);
    return u;
  }

  it('runs the pass as an Inngest cron function', async () => {
    const u = await agedUser('I love ska.');
    const fn = createLifecycleFunction(createInngestClient(), async () => ({ db: database.db }));
    const t = new InngestTestEngine({ function: fn, events: [{ name: 'inngest/scheduled.timer', data: { cron: LIFECYCLE_CRON } }] });
    const { result, error } = await t.execute();
    expect(error).toBeUndefined();
    expect(result).toMatchObject({ stepped: expect.any(Number), archived: expect.any(Number), busy: false, ran_at: expect.any(String) });
    expect((result as { archived: number }).archived).toBeGreaterThanOrEqual(1);
    expect((await memoryRow(u.byText('The user loves ska.').id)).status).toBe('archived');
  });

  it('registers an hourly cron at half past and two retries', () => {
    const fn = createLifecycleFunction(createInngestClient(), async () => {
      throw new Error('unused');
    });
    type Config = { id: string; triggers: unknown[]; steps: { step: { retries: unknown } } };
    const getConfig = (fn as unknown as { getConfig(o: { baseUrl: URL; appPrefix: string }): Config[] }).getConfig;
    const [config] = getConfig.call(fn, { baseUrl: new URL('http://127.0.0.1/api/inngest'), appPrefix: 'memory-service' });
    expect(config.id).toBe('memory-service-memory-lifecycle');
    expect(config.triggers).toEqual([{ cron: 'TZ=UTC 30 * * * *' }]);
    expect(config.steps.step.retries).toEqual({ attempts: 2 });
  });

  it('runs in the embedded scheduler with the same body and logs counts only', async () => {
    const u = await agedUser('I love grunge.');
    const logger = { info: vi.fn(), error: vi.fn(), warn: vi.fn() };
    const scheduler = new LifecycleScheduler({ db: database.db }, { intervalMinutes: 60 }, logger as never);
    const summary = await scheduler.runOnce();
    expect(summary?.archived).toBeGreaterThanOrEqual(1);
    expect(logger.info).toHaveBeenCalledWith(
      { stepped: expect.any(Number), archived: expect.any(Number), users_changed: expect.any(Number), busy: false, ms: expect.any(Number) },
      'memory lifecycle run',
    );
    expect((await memoryRow(u.byText('The user loves grunge.').id)).status).toBe('archived');

    const steps: string[] = [];
    await runLifecycle({ run: async (id, fn) => (steps.push(id), fn()) }, { db: database.db }, new Date());
    expect(steps).toEqual(['apply-memory-lifecycle']);
  });

  it('logs a failed run and keeps going', async () => {
    const logger = { info: vi.fn(), error: vi.fn(), warn: vi.fn() };
    const broken = { transaction: async () => Promise.reject(new Error('database down')) };
    const scheduler = new LifecycleScheduler({ db: broken as never }, { intervalMinutes: 1 }, logger as never);
    expect(await scheduler.runOnce()).toBeNull();
    expect(logger.error).toHaveBeenCalledWith(expect.objectContaining({ err: expect.stringContaining('database down') }), 'memory lifecycle run failed');
  });
});
