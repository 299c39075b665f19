/**
 * Period usage and mode transitions on an in-memory PGlite with the real migrations: counters, the audited
 * transitions (each once), a new period, and a plan change that restores the mode at once.
 */
import { auditLog, eq, rows, sql, tenants } from '@memory/db';
import { describe, expect, it, vi } from 'vitest';
import { createTenant } from '../tenants/tenants';
import { useMemoryDatabase } from '../testing/memory-database';
import { ensureUser } from '../users';
import { announceModeChange, consumeBudget, flushUsage, getUsageReport, readQuotaState, readQuotaStateAndUser, setTenantPlan } from './usage';

const testDatabase = useMemoryDatabase();

const transitions = async (tenantId: string) =>
  (await testDatabase().db.select().from(auditLog).where(eq(auditLog.tenantId, tenantId)))
    .filter((a) => a.action === 'quota.mode_changed')
    .map((a) => a.details as { from: string; to: string; budget_remaining_pct: number | null });

describe('tenant usage', () => {
  it('counts in the process first and writes one upsert per tenant, exact before and after the flush', async () => {
    const db = testDatabase().db;
    const t = await createTenant(db, 'buffered');
    const now = new Date();
    // concurrent calls of one process: every one is counted
    await Promise.all(Array.from({ length: 7 }, async () => consumeBudget(db, await readQuotaState(db, t.tenant_id, now), 'add_calls', now)));
    await consumeBudget(db, await readQuotaState(db, t.tenant_id, now), 'retrieve_calls', now);
    const stored = () => rows<{ add_calls: number; retrieve_calls: number }>(db, sql`SELECT add_calls, retrieve_calls FROM tenant_usage WHERE tenant_id = ${t.tenant_id}`);
    const before = await stored();
    expect(before.reduce((n, r) => n + Number(r.add_calls), 0)).toBeLessThanOrEqual(7);
    expect((await readQuotaState(db, t.tenant_id, now)).usage).toEqual({ add_calls: 7, retrieve_calls: 1 });
    expect((await getUsageReport(db, t.tenant_id, now)).daily).toEqual([{ day: now.toISOString().slice(0, 10), add_calls: 7, retrieve_calls: 1 }]);
    await flushUsage(db);
    expect((await stored()).map((r) => [Number(r.add_calls), Number(r.retrieve_calls)])).toEqual([[7, 1]]);
    expect((await readQuotaState(db, t.tenant_id, now)).usage).toEqual({ add_calls: 7, retrieve_calls: 1 });
    expect((await getUsageReport(db, t.tenant_id, now)).usage).toEqual({ add_calls: 7, retrieve_calls: 1 });
  });

  it("reads the end user with the quota state in one query: the tenant's own user, null for an unknown one", async () => {
    const db = testDatabase().db;
    const a = await createTenant(db, 'reader-a');
    const b = await createTenant(db, 'reader-b');
    await db.update(tenants).set({ domainSchema: 'health' }).where(eq(tenants.id, a.tenant_id));
    const now = new Date();
    const userId = await ensureUser(db, a.tenant_id, 'ana');
    await ensureUser(db, b.tenant_id, 'bo');
    await db.execute(sql`UPDATE end_users SET memory_version = 41 WHERE id = ${userId}`);
    await consumeBudget(db, await readQuotaState(db, a.tenant_id, now), 'retrieve_calls', now);
    const read = await readQuotaStateAndUser(db, a.tenant_id, 'ana', now);
    expect(read.user).toEqual({ id: userId, memoryVersion: 41, domainSchema: 'health' });
    expect(read.state).toEqual(await readQuotaState(db, a.tenant_id, now));
    expect(read.state.usage).toEqual({ add_calls: 0, retrieve_calls: 1 });
    // another tenant's end user is not this tenant's, and an unknown one is null; the state is still read
    expect(await readQuotaStateAndUser(db, a.tenant_id, 'bo', now)).toMatchObject({ user: null, state: { tenantId: a.tenant_id } });
    expect((await readQuotaStateAndUser(db, b.tenant_id, 'ana', now)).user).toBeNull();
    await expect(readQuotaStateAndUser(db, '00000000-0000-4000-8000-000000000000', 'ana', now)).rejects.toMatchObject({ status: 404 });
  });

  it('reads the row again only after a write on the embedded engine: a repeated read makes no statement, a change is seen at once', async () => {
    const db = testDatabase().db;
    const t = await createTenant(db, 'kept');
    const userId = await ensureUser(db, t.tenant_id, 'cy');
    const now = new Date();
    await flushUsage(db);
    const first = await readQuotaStateAndUser(db, t.tenant_id, 'cy', now);
    const client = (db as unknown as { $client: { query: (...a: unknown[]) => unknown } }).$client;
    const query = vi.spyOn(client, 'query');
    try {
      expect(await readQuotaStateAndUser(db, t.tenant_id, 'cy', now)).toEqual(first);
      expect(query).not.toHaveBeenCalled();
    } finally {
      query.mockRestore();
    }
    await db.execute(sql`UPDATE end_users SET memory_version = memory_version + 1 WHERE id = ${userId}`);
    expect((await readQuotaStateAndUser(db, t.tenant_id, 'cy', now)).user?.memoryVersion).toBe((first.user?.memoryVersion ?? 0) + 1);
    await setTenantPlan(db, t.tenant_id, { plan: 'free', overrides: { budgets: { retrieve_calls: 10 } } }, { actor: 'operator', now });
    expect((await readQuotaStateAndUser(db, t.tenant_id, 'cy', now)).state).toMatchObject({ plan: { id: 'free' }, remainingPct: 100 });
    // counted, then written by the flush: the same usage before and after
    await consumeBudget(db, (await readQuotaStateAndUser(db, t.tenant_id, 'cy', now)).state, 'retrieve_calls', now);
    expect((await readQuotaStateAndUser(db, t.tenant_id, 'cy', now)).state.usage).toEqual({ add_calls: 0, retrieve_calls: 1 });
    await flushUsage(db);
    expect((await readQuotaStateAndUser(db, t.tenant_id, 'cy', now)).state).toMatchObject({ usage: { add_calls: 0, retrieve_calls: 1 }, remainingPct: 90 });
    // an end user created (and one erased) after the first read
    await ensureUser(db, t.tenant_id, 'dee');
    expect((await readQuotaStateAndUser(db, t.tenant_id, 'dee', now)).user).not.toBeNull();
    await db.execute(sql`DELETE FROM end_users WHERE id = ${userId}`);
    expect((await readQuotaStateAndUser(db, t.tenant_id, 'cy', now)).user).toBeNull();
  });

  it('starts tenants on the unlimited plan: FULL, no budget, usage still counted', async () => {
    const db = testDatabase().db;
    const t = await createTenant(db, 'u');
    const now = new Date();
    const after = await consumeBudget(db, await readQuotaState(db, t.tenant_id, now), 'retrieve_calls', now);
    expect(after).toMatchObject({ mode: 'FULL', remainingPct: null, usage: { add_calls: 0, retrieve_calls: 1 } });
    const free = await createTenant(db, 'f', { plan: 'free' });
    expect(await readQuotaState(db, free.tenant_id, now)).toMatchObject({ plan: { id: 'free' }, mode: 'FULL', remainingPct: 100 });
  });

  it('moves through the modes as the budget is used, announcing each transition once', async () => {
    const db = testDatabase().db;
    const t = await createTenant(db, 'walk');
    const now = new Date('2026-11-22T12:00:00Z');
    await setTenantPlan(db, t.tenant_id, { plan: 'free', overrides: { budgets: { add_calls: 20 } } }, { actor: 'operator', now });
    const modes: string[] = [];
    for (let i = 0; i < 20; i++) {
      const s = await consumeBudget(db, await readQuotaState(db, t.tenant_id, now), 'add_calls', now);
      modes.push(`${s.mode}:${s.remainingPct}`);
    }
    expect(modes.slice(14)).toEqual([
      'FULL:25',
      'DEGRADED_RETRIEVE:20',
      'DEGRADED_RETRIEVE:15',
      'DEGRADED_RETRIEVE:10',
      'PASSTHROUGH:5',
      'BLOCKED:0',
    ]);
    // reading the same state again announces nothing new
    await announceModeChange(db, await readQuotaState(db, t.tenant_id, now));
    expect(await transitions(t.tenant_id)).toEqual([
      { from: 'FULL', to: 'DEGRADED_RETRIEVE', budget_remaining_pct: 20 },
      { from: 'DEGRADED_RETRIEVE', to: 'PASSTHROUGH', budget_remaining_pct: 5 },
      { from: 'PASSTHROUGH', to: 'BLOCKED', budget_remaining_pct: 0 },
    ]);
    const [row] = await db.select({ quotaMode: tenants.quotaMode }).from(tenants).where(eq(tenants.id, t.tenant_id));
    expect(row.quotaMode).toBe('BLOCKED');

    // a new period (the anchor a month back) has a whole budget again
    const nextMonth = new Date('2026-12-22T12:00:00Z');
    const next = await readQuotaState(db, t.tenant_id, nextMonth);
    expect(next).toMatchObject({ mode: 'FULL', remainingPct: 100, usage: { add_calls: 0, retrieve_calls: 0 } });
    expect(next.period.start.toISOString()).toBe('2026-12-22T12:00:00.000Z');
    // …while the last period's count is unchanged
    expect((await readQuotaState(db, t.tenant_id, now)).usage.add_calls).toBe(20);
    await announceModeChange(db, next);
    expect((await transitions(t.tenant_id)).at(-1)).toEqual({ from: 'BLOCKED', to: 'FULL', budget_remaining_pct: 100 });
  });

  it('restores the mode at once when the plan changes, and reports the day by day usage of the period', async () => {
    const db = testDatabase().db;
    const t = await createTenant(db, 'change');
    const day1 = new Date('2026-11-22T12:00:00Z');
    await setTenantPlan(db, t.tenant_id, { plan: 'free', overrides: { budgets: { add_calls: 1 } } }, { actor: 'operator', now: day1 });
    await consumeBudget(db, await readQuotaState(db, t.tenant_id, day1), 'add_calls', day1);
    const day2 = new Date('2026-11-23T08:00:00Z');
    await consumeBudget(db, await readQuotaState(db, t.tenant_id, day2), 'retrieve_calls', day2);
    const report = await getUsageReport(db, t.tenant_id, day2);
    expect(report).toMatchObject({ quota_mode: 'BLOCKED', budget_remaining_pct: 0, usage: { add_calls: 1, retrieve_calls: 1 } });
    expect(report.daily).toEqual([
      { day: '2026-11-22', add_calls: 1, retrieve_calls: 0 },
      { day: '2026-11-23', add_calls: 0, retrieve_calls: 1 },
    ]);

    const changed = await setTenantPlan(db, t.tenant_id, { plan: 'pro' }, { actor: 'operator', now: day2 });
    expect(changed).toMatchObject({ plan: { id: 'pro', overrides: {} }, quota_mode: 'FULL', budget_remaining_pct: 100, usage: { add_calls: 0 } });
    expect(changed.period.start).toBe(day2.toISOString());
    expect((await transitions(t.tenant_id)).map((x) => `${x.from}>${x.to}`)).toEqual(['FULL>BLOCKED', 'BLOCKED>FULL']);
    await expect(setTenantPlan(db, crypto.randomUUID(), { plan: 'pro' }, { actor: 'operator' })).rejects.toMatchObject({ status: 404 });
    // a period's rows belong to their tenant only
    const other = await createTenant(db, 'other');
    expect((await getUsageReport(db, other.tenant_id, day2)).daily).toEqual([]);
  });
});
