/** eraseUser beside this process's state: buffered retrieval records, the hot tier and the write-rate limiter. */
import { randomUUID } from 'node:crypto';
import { endUsers, eq, retrievals } from '@memory/db';
import { describe, expect, it } from 'vitest';
import { apiKeyActor } from '../principal';
import { userWriteKey } from '../quota/rate-limit';
import { ActivityRecorder } from '../retrieval/activity';
import { HotTier } from '../retrieval/hot-tier';
import { createTenant } from '../tenants/tenants';
import { useMemoryDatabase } from '../testing/memory-database';
import { eraseUser } from './erase';

const database = useMemoryDatabase();

async function tenantWithUsers(...externalIds: string[]) {
  const db = database().db;
  const tenant = await createTenant(db, `t-${randomUUID()}`);
  const ids = externalIds.map(() => randomUUID());
  await db.insert(endUsers).values(externalIds.map((externalUserId, i) => ({ id: ids[i], tenantId: tenant.tenant_id, externalUserId })));
  return { principal: { tenantId: tenant.tenant_id, actor: apiKeyActor(tenant.api_key_id) }, ids };
}

const retrieval = (tenantId: string, userId: string) => ({ retrievalId: randomUUID(), tenantId, userId, memoryIds: [], format: 'bullets', at: new Date() });

describe('eraseUser and the retrieval state of the process', () => {
  it('a buffered retrieval of an erased user is dropped without losing the batch it is in', async () => {
    const db = database().db;
    const { principal, ids } = await tenantWithUsers('gone', 'stays');
    const activity = new ActivityRecorder(db, { flushMs: 60_000 });
    const [gone, stays] = [retrieval(principal.tenantId, ids[0]), retrieval(principal.tenantId, ids[1])];
    activity.record(gone);
    activity.record(stays);
    // erased by a call that does not know this recorder (another process)
    await eraseUser({ db }, principal, 'gone');
    await activity.flush();
    const written = await db.select({ id: retrievals.id }).from(retrievals).where(eq(retrievals.tenantId, principal.tenantId));
    expect(written.map((r) => r.id)).toEqual([stays.retrievalId]);
  });

  it('flushes the recorder first (the record is counted and erased) and drops the hot tier set after', async () => {
    const db = database().db;
    const { principal, ids } = await tenantWithUsers('cached');
    const activity = new ActivityRecorder(db, { flushMs: 60_000 });
    const hotTier = new HotTier();
    hotTier.build(ids[0], 0, []);
    const buffered = retrieval(principal.tenantId, ids[0]);
    activity.record(buffered);
    const receipt = await eraseUser({ db, retrieval: { hotTier, activity } }, principal, 'cached');
    expect(receipt.erased?.retrievals).toEqual([buffered.retrievalId]);
    expect(hotTier.get(ids[0], 0)).toBeNull();
  });

  it("forgets the user's write-rate counter after the commit, and a limiter that fails does not undo the erasure", async () => {
    const db = database().db;
    const { principal } = await tenantWithUsers('counted', 'limited');
    const forgotten: string[][] = [];
    await eraseUser({ db, limiter: { forget: async (keys) => void forgotten.push(keys) } }, principal, 'counted');
    expect(forgotten).toEqual([[userWriteKey(principal.tenantId, 'counted')]]);
    const receipt = await eraseUser({ db, limiter: { forget: () => Promise.reject(new Error('redis down')) } }, principal, 'limited');
    expect(receipt.already_erased).toBe(false);
  });

  it('runs its transaction again when PostgreSQL ends it as a deadlock victim, and gives up on other errors', async () => {
    const db = database().db;
    const { principal } = await tenantWithUsers('contended', 'broken');
    // the first transaction fails as a deadlock victim would: rolled back, SQLSTATE 40P01
    const failingFirst = (code: string, times: number) => {
      let left = times;
      return new Proxy(db, {
        get: (target, prop, receiver) =>
          prop === 'transaction'
            ? (fn: Parameters<typeof db.transaction>[0]) => (left-- > 0 ? Promise.reject(Object.assign(new Error('deadlock detected'), { code })) : target.transaction(fn))
            : Reflect.get(target, prop, receiver),
      });
    };
    const receipt = await eraseUser({ db: failingFirst('40P01', 2) }, principal, 'contended');
    expect(receipt.already_erased).toBe(false);
    await expect(eraseUser({ db: failingFirst('23505', 1) }, principal, 'broken')).rejects.toThrow('deadlock detected');
    await expect(eraseUser({ db: failingFirst('40P01', 3) }, principal, 'broken')).rejects.toThrow('deadlock detected');
    expect((await eraseUser({ db }, principal, 'broken')).already_erased).toBe(false);
  });
});
