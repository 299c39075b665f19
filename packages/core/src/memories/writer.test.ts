/** The one write path on an in-memory PGlite: what a commit writes for the changes recorded before it. */
import { claimRevisions, endUsers, eq, memories, webhookEndpoints, webhookEvents } from '@memory/db';
import { describe, expect, it } from 'vitest';
import { useMemoryDatabase } from '../testing/memory-database';
import { createTenant } from '../tenants/tenants';
import { ensureUser } from '../users';
import { ledgerRow } from './ledger';
import { MemoryWriter } from './writer';

const database = useMemoryDatabase();

async function setUp(withEndpoint: boolean) {
  const db = database().db;
  const tenant = await createTenant(db, `w-${Math.random()}`);
  const userId = await ensureUser(db, tenant.tenant_id, 'u1');
  if (withEndpoint) {
    await db.insert(webhookEndpoints).values({
      id: crypto.randomUUID(),
      tenantId: tenant.tenant_id,
      url: 'https://example.com/hook',
      eventTypes: ['memory.created', 'memory.updated', 'job.completed'],
      secretCiphertext: 'x.y.z',
      secretPrefix: 'whsec_abcd',
    });
  }
  const memory = {
    id: crypto.randomUUID(),
    tenantId: tenant.tenant_id,
    userId,
    content: 'The user lives in Porto.',
    category: 'fact',
    importance: 0.8,
    confidence: 0.9,
    fingerprint: `fp-${Math.random()}`,
    sourceEventId: null,
    jobId: null,
  };
  await db.insert(memories).values(memory);
  return { db, tenantId: tenant.tenant_id, userId, memory };
}

const version = async (db: ReturnType<typeof database>['db'], userId: string) =>
  (await db.select({ v: endUsers.memoryVersion }).from(endUsers).where(eq(endUsers.id, userId)))[0].v;

describe('MemoryWriter', () => {
  it('writes the ledger rows, one memory event per row plus the caller\'s, and one version bump per touched user', async () => {
    const { db, tenantId, userId, memory } = await setUp(true);
    const before = await version(db, userId);
    await db.transaction(async (tx) => {
      const writer = new MemoryWriter(tx as never, tenantId);
      writer.record(ledgerRow(memory, { action: 'created', from: null, to: 'active', reason: 'test', actor: 'test' }));
      writer.record(ledgerRow(memory, { action: 'reinforced', from: 'active', to: 'active', reason: 'again', actor: 'test' }));
      writer.touch(userId);
      await writer.commit((ids) => [{ type: 'job.completed', data: { external_user_id: ids.get(userId) ?? null } }], [userId]);
    });
    const ledger = await db.select().from(claimRevisions).where(eq(claimRevisions.memoryId, memory.id));
    expect(ledger.map((r) => r.action).sort()).toEqual(['created', 'reinforced']);
    const events = await db.select().from(webhookEvents).where(eq(webhookEvents.tenantId, tenantId));
    expect(events.map((e) => e.type).sort()).toEqual(['job.completed', 'memory.created', 'memory.updated']);
    expect(events.find((e) => e.type === 'job.completed')?.payload).toMatchObject({ data: { external_user_id: 'u1' } });
    expect(await version(db, userId)).toBe(before + 1);
  });

  it('only bumps the version for a change without a ledger entry, and writes nothing when nothing changed', async () => {
    const { db, tenantId, userId } = await setUp(false);
    const before = await version(db, userId);
    await db.transaction(async (tx) => {
      const writer = new MemoryWriter(tx as never, tenantId);
      writer.touch(userId);
      await writer.commit();
    });
    expect(await version(db, userId)).toBe(before + 1);
    await db.transaction(async (tx) => new MemoryWriter(tx as never, tenantId).commit());
    expect(await version(db, userId)).toBe(before + 1);
    expect(await db.select().from(webhookEvents).where(eq(webhookEvents.tenantId, tenantId))).toEqual([]);
  });

  it('keeps the rows of one transaction in the order they were recorded, as (created_at, id) sorts them (they share its now())', async () => {
    const { db, tenantId, memory } = await setUp(false);
    const actions = ['created', 'review_opened', 'superseded', 'restored', 'edited', 'reinforced', 'archived', 'deleted'];
    await db.transaction(async (tx) => {
      const writer = new MemoryWriter(tx as never, tenantId);
      for (const action of actions) writer.record(ledgerRow(memory, { action, from: 'active', to: 'active', reason: 'order', actor: 'test' }));
      await writer.commit();
    });
    const ledger = await db.select().from(claimRevisions).where(eq(claimRevisions.memoryId, memory.id)).orderBy(claimRevisions.createdAt, claimRevisions.id);
    expect(ledger.map((r) => r.action)).toEqual(actions);
  });
});
