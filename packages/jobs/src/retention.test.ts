/**
 * Payload retention on PGlite: the redaction itself, tenant settings, the Inngest cron function and the
 * embedded scheduler. (The PostgreSQL advisory-lock contention path is in tests/integration/retention.test.ts.)
 */
import {
  ApiError,
  BuiltinExtractor,
  getJobView,
  getTenantSettings,
  redactExpiredPayloads,
  updateTenantSettings,
  updateTenantSettingsRequest,
} from '@memory/core';
import { type Database, and, auditLog, claimRevisions, endUsers, eq, extractionJobs, memories, passages } from '@memory/db';
import { InngestTestEngine } from '@inngest/test';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createInngestClient } from './inngest';
import {
  EmbeddedScheduler,
  RETENTION_CRON,
  createRetentionFunction,
  runRetention,
} from './retention';
import { EmbeddedRunner } from './runner';
import { ageSourceEvent, openTestDatabase, queueConversation, sourceEventOf } from './test-support';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
}, 60_000);
afterAll(async () => database.close());

const runnerOpts = { pollMs: 20, leaseSeconds: 30, backoffBaseMs: 10 };
const drain = () => new EmbeddedRunner({ db: database.db, extractor: new BuiltinExtractor() }, runnerOpts).drain();

/** A conversation whose job has run to completion. */
async function completedConversation(content: string) {
  const q = await queueConversation(database, content);
  await drain();
  expect((await getJobView(database.db, q.auth.tenantId, q.jobId))?.status).toBe('completed');
  return q;
}

async function memoriesOf(jobId: string) {
  return database.db.select().from(memories).where(eq(memories.jobId, jobId)).orderBy(memories.id);
}

async function passagesOf(jobId: string) {
  return database.db.select().from(passages).where(eq(passages.jobId, jobId));
}

async function versionOf(userId: string) {
  const [u] = await database.db.select({ v: endUsers.memoryVersion }).from(endUsers).where(eq(endUsers.id, userId));
  return u.v;
}

async function ledgerOf(jobId: string) {
  return database.db.select().from(claimRevisions).where(eq(claimRevisions.jobId, jobId)).orderBy(claimRevisions.id);
}

describe('redactExpiredPayloads', () => {
  it('redacts payloads past the window and keeps recent ones, tenants without retention, hashes and memories', async () => {
    const old = await completedConversation('I live in Lisbon. I love jazz.');
    const recent = await completedConversation('I live in Porto. I love opera.');
    const forever = await completedConversation('I live in Faro. I love fado.');
    expect(await updateTenantSettings(database.db, forever.auth, { payload_retention_days: null })).toEqual({
      payload_retention_days: null,
      review_before_write: null,
    });
    await ageSourceEvent(database, old.jobId, 31); // default window: 30 days
    await ageSourceEvent(database, forever.jobId, 4000);

    const before = await sourceEventOf(database, old.jobId);
    const memoriesBefore = await memoriesOf(old.jobId);
    const ledgerBefore = await ledgerOf(old.jobId);
    const [jobBefore] = await database.db.select().from(extractionJobs).where(eq(extractionJobs.id, old.jobId));
    expect(before.payload).not.toBeNull();
    expect(memoriesBefore.length).toBe(2);
    expect(await passagesOf(old.jobId)).toHaveLength(1);
    const versionBefore = await versionOf(memoriesBefore[0].userId);

    const now = new Date();
    expect(await redactExpiredPayloads(database.db, now)).toEqual({ redacted: 1, busy: false });
    // what was said leaves the evidence layer with the payload; the users' hot-tier sets are invalidated
    expect(await passagesOf(old.jobId)).toEqual([]);
    expect(await passagesOf(recent.jobId)).toHaveLength(1);
    expect(await versionOf(memoriesBefore[0].userId)).toBe(versionBefore + 1);

    const after = await sourceEventOf(database, old.jobId);
    expect(after.payload).toBeNull();
    expect(after.payloadRedactedAt?.toISOString()).toBe(now.toISOString());
    // everything else about the event stays, the hash first of all
    expect({ ...after, payload: before.payload, payloadRedactedAt: null }).toEqual(before);
    expect(await memoriesOf(old.jobId)).toEqual(memoriesBefore);
    expect(await ledgerOf(old.jobId)).toEqual(ledgerBefore);
    const [jobAfter] = await database.db.select().from(extractionJobs).where(eq(extractionJobs.id, old.jobId));
    expect(jobAfter).toEqual(jobBefore);

    expect((await sourceEventOf(database, recent.jobId)).payload).not.toBeNull();
    expect((await sourceEventOf(database, forever.jobId)).payload).not.toBeNull();
    // a second run finds nothing new
    expect(await redactExpiredPayloads(database.db, new Date())).toEqual({ redacted: 0, busy: false });
  });

  it('keeps the payload of a job that is still queued or running until the job finishes', async () => {
    const q = await queueConversation(database, 'I work as a nurse. I have two kids.');
    await ageSourceEvent(database, q.jobId, 90);
    expect((await redactExpiredPayloads(database.db, new Date())).redacted).toBe(0);
    expect((await sourceEventOf(database, q.jobId)).payload).not.toBeNull();

    await database.db.update(extractionJobs).set({ status: 'running' }).where(eq(extractionJobs.id, q.jobId));
    expect((await redactExpiredPayloads(database.db, new Date())).redacted).toBe(0);
    await database.db.update(extractionJobs).set({ status: 'queued' }).where(eq(extractionJobs.id, q.jobId));

    // the job still has its conversation, so it succeeds; the next run redacts
    expect(await drain()).toBe(1);
    expect(await getJobView(database.db, q.auth.tenantId, q.jobId)).toMatchObject({ status: 'completed', memories_created: 2 });
    expect((await redactExpiredPayloads(database.db, new Date())).redacted).toBe(1);
    expect((await sourceEventOf(database, q.jobId)).payload).toBeNull();
    expect((await memoriesOf(q.jobId)).length).toBe(2);
  });

  it('works through the backlog in batches, and takes the advisory lock per batch when asked', async () => {
    const jobs: string[] = [];
    for (let i = 0; i < 5; i++) {
      const q = await queueConversation(database, `I live in city number ${i}.`);
      await updateTenantSettings(database.db, q.auth, { payload_retention_days: 1 });
      jobs.push(q.jobId);
    }
    await drain();
    for (const id of jobs) await ageSourceEvent(database, id, 2);
    // 5 rows, 2 per statement: three statements
    const execute = vi.spyOn(database.db, 'execute');
    try {
      expect(await redactExpiredPayloads(database.db, new Date(), { batchSize: 2 })).toEqual({ redacted: 5, busy: false });
      expect(execute).toHaveBeenCalledTimes(3);
    } finally {
      execute.mockRestore();
    }
    for (const id of jobs) expect((await sourceEventOf(database, id)).payload).toBeNull();

    const more = await queueConversation(database, 'I live in Graz.');
    await drain();
    await ageSourceEvent(database, more.jobId, 31);
    expect(await redactExpiredPayloads(database.db, new Date(), { batchSize: 2, lockKey: 42 })).toEqual({ redacted: 1, busy: false });
    expect((await sourceEventOf(database, more.jobId)).payload).toBeNull();
  });
});

describe('tenant settings', () => {
  it('reads the default, updates within bounds and rejects values outside them', async () => {
    const { auth } = await queueConversation(database, 'I like tea.');
    expect(await getTenantSettings(database.db, auth.tenantId)).toEqual({ payload_retention_days: 30, review_before_write: null });
    expect(await updateTenantSettings(database.db, auth, { payload_retention_days: 7 })).toEqual({ payload_retention_days: 7, review_before_write: null });
    expect(await updateTenantSettings(database.db, auth, {})).toEqual({ payload_retention_days: 7, review_before_write: null });
    for (const bad of [0, 3651, 1.5, -1]) {
      const err = await updateTenantSettings(database.db, auth, { payload_retention_days: bad }).catch((e) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect(err.status).toBe(422);
    }
    expect(await updateTenantSettings(database.db, auth, { payload_retention_days: 3650 })).toEqual({ payload_retention_days: 3650, review_before_write: null });
    expect(await updateTenantSettings(database.db, auth, { payload_retention_days: null })).toEqual({ payload_retention_days: null, review_before_write: null });
    expect(await getTenantSettings(database.db, auth.tenantId)).toEqual({ payload_retention_days: null, review_before_write: null });
    const missing = await getTenantSettings(database.db, '00000000-0000-4000-8000-000000000000').catch((e) => e);
    expect(missing.status).toBe(404);
  });

  it('audits each change with the principal and the values before and after, and only a change', async () => {
    const { auth } = await queueConversation(database, 'I like coffee.');
    await updateTenantSettings(database.db, auth, { payload_retention_days: 90 });
    await updateTenantSettings(database.db, auth, { payload_retention_days: 90 });
    await updateTenantSettings(database.db, auth, {});
    await updateTenantSettings(database.db, auth, { payload_retention_days: null });
    await updateTenantSettings(database.db, auth, { payload_retention_days: 0 }).catch(() => null);
    const entries = await database.db
      .select({ actor: auditLog.actor, targetId: auditLog.targetId, details: auditLog.details })
      .from(auditLog)
      .where(and(eq(auditLog.tenantId, auth.tenantId), eq(auditLog.action, 'tenant_settings.changed')))
      .orderBy(auditLog.createdAt);
    expect(entries).toEqual([
      { actor: auth.actor, targetId: auth.tenantId, details: { payload_retention_days_from: 30, payload_retention_days_to: 90 } },
      { actor: auth.actor, targetId: auth.tenantId, details: { payload_retention_days_from: 90, payload_retention_days_to: null } },
    ]);
  });

  it('validates the PATCH body', () => {
    expect(updateTenantSettingsRequest.safeParse({ payload_retention_days: 1 }).success).toBe(true);
    expect(updateTenantSettingsRequest.safeParse({ payload_retention_days: null }).success).toBe(true);
    for (const bad of [{}, { payload_retention_days: 0 }, { payload_retention_days: 3651 }, { payload_retention_days: '30' }, { retention: 3 }]) {
      expect(updateTenantSettingsRequest.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});

describe('retention as an Inngest cron function', () => {
  it('runs the redact step', async () => {
    const q = await completedConversation('I speak French. I live in Nice.');
    await ageSourceEvent(database, q.jobId, 31);
    const fn = createRetentionFunction(createInngestClient(), async () => ({ db: database.db }));
    const t = new InngestTestEngine({
      function: fn,
      events: [{ name: 'inngest/scheduled.timer', data: { cron: RETENTION_CRON } }],
    });
    const { result, error } = await t.execute();
    expect(error).toBeUndefined();
    expect(result).toEqual({ redacted: 1, busy: false, ran_at: expect.any(String) });
    expect((await sourceEventOf(database, q.jobId)).payload).toBeNull();
  });

  it('registers an hourly cron trigger and two retries', () => {
    const fn = createRetentionFunction(createInngestClient(), async () => {
      throw new Error('unused');
    });
    type Config = { id: string; triggers: unknown[]; steps: { step: { retries: unknown } } };
    const getConfig = (fn as unknown as { getConfig(o: { baseUrl: URL; appPrefix: string }): Config[] }).getConfig;
    const configs = getConfig.call(fn, { baseUrl: new URL('http://127.0.0.1/api/inngest'), appPrefix: 'memory-service' });
    expect(configs.length).toBe(1);
    expect(configs[0].id).toBe('memory-service-payload-retention');
    expect(configs[0].triggers).toEqual([{ cron: 'TZ=UTC 0 * * * *' }]);
    expect(configs[0].steps.step.retries).toEqual({ attempts: 2 });
  });
});

describe('embedded scheduler', () => {
  const log = () => ({ info: vi.fn(), error: vi.fn(), warn: vi.fn() }) as never;

  it('runs the same body once on demand and logs counts only', async () => {
    const q = await completedConversation('I am allergic to peanuts. I live in Bern.');
    await ageSourceEvent(database, q.jobId, 31);
    const logger = log() as { info: ReturnType<typeof vi.fn> };
    const scheduler = new EmbeddedScheduler({ db: database.db }, { intervalMinutes: 60 }, logger as never);
    const [a, b] = await Promise.all([scheduler.runOnce(), scheduler.runOnce()]);
    expect(a).toEqual({ redacted: 1, busy: false, ran_at: expect.any(String) });
    expect(b).toBe(a); // the second call joined the first run
    expect(logger.info).toHaveBeenCalledWith({ redacted: 1, busy: false, ms: expect.any(Number) }, 'payload retention run');
    expect((await sourceEventOf(database, q.jobId)).payload).toBeNull();
  });

  it('runs shortly after start and stops cleanly', async () => {
    const q = await completedConversation('I drive a red car. I live in Linz.');
    await ageSourceEvent(database, q.jobId, 31);
    const scheduler = new EmbeddedScheduler({ db: database.db }, { intervalMinutes: 60, initialDelayMs: 0 }, log());
    scheduler.start();
    await vi.waitFor(async () => expect((await sourceEventOf(database, q.jobId)).payload).toBeNull(), { timeout: 10_000 });
    await scheduler.stop();
    await scheduler.stop(); // idempotent
  });

  it('logs a failed run and keeps going', async () => {
    const logger = log() as { error: ReturnType<typeof vi.fn> };
    const broken = { transaction: async () => Promise.reject(new Error('database down')) };
    const scheduler = new EmbeddedScheduler({ db: broken as never }, { intervalMinutes: 1 }, logger as never);
    expect(await scheduler.runOnce()).toBeNull();
    expect(logger.error).toHaveBeenCalledWith(expect.objectContaining({ err: expect.stringContaining('database down') }), 'payload retention run failed');
  });

  it('is the same function body as the cron function', async () => {
    const steps: string[] = [];
    const summary = await runRetention({ run: async (id, fn) => (steps.push(id), fn()) }, { db: database.db }, new Date());
    expect(steps).toEqual(['redact-expired-payloads']);
    expect(summary.busy).toBe(false);
  });
});
