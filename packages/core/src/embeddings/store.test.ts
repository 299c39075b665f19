/** Memory vectors on an in-memory PGlite: the heal of what a job could not embed, or another model embedded. */
import { endUsers, eq, memories } from '@memory/db';
import { describe, expect, it } from 'vitest';
import { useMemoryDatabase } from '../testing/memory-database';
import { createTenant } from '../tenants/tenants';
import { ensureUser } from '../users';
import { healMissingEmbeddings } from './store';
import type { EmbeddingsProvider } from './types';

const database = useMemoryDatabase();

/** A model whose answers the test decides: it fails while `down`, and counts the texts it embedded. */
function model(name = 'test-model') {
  const state = { down: false, embedded: 0 };
  const provider: EmbeddingsProvider = {
    name,
    dimensions: 2,
    embed: async (texts) => {
      if (state.down) throw new Error('model unavailable');
      state.embedded += texts.length;
      return texts.map((t) => new Float32Array([t.length, 1]));
    },
  } as EmbeddingsProvider;
  return { provider, state };
}

async function setUp(count: number) {
  const db = database().db;
  const tenant = await createTenant(db, `e-${Math.random()}`);
  const userId = await ensureUser(db, tenant.tenant_id, 'u1');
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = crypto.randomUUID();
    ids.push(id);
    await db.insert(memories).values({
      id,
      tenantId: tenant.tenant_id,
      userId,
      content: `The user has ${i + 1} cats.`,
      category: 'fact',
      importance: 0.5,
      confidence: 0.9,
      fingerprint: `fp-${Math.random()}`,
    });
  }
  return { db, tenantId: tenant.tenant_id, userId, ids };
}

const stored = async (db: ReturnType<typeof database>['db'], userId: string) =>
  db.select({ id: memories.id, content: memories.content, embedding: memories.embedding, model: memories.embeddingModel }).from(memories).where(eq(memories.userId, userId));
const version = async (db: ReturnType<typeof database>['db'], userId: string) =>
  (await db.select({ v: endUsers.memoryVersion }).from(endUsers).where(eq(endUsers.id, userId)))[0].v;

describe('healMissingEmbeddings', () => {
  it('embeds the loaded memories that lack a vector of the model, bumps the version once, and skips the rest', async () => {
    const { db, tenantId, userId, ids } = await setUp(3);
    const { provider, state } = model();
    // one memory already has this model's vector, one has another model's
    await db.update(memories).set({ embedding: [9, 9], embeddingModel: 'test-model' }).where(eq(memories.id, ids[0]));
    await db.update(memories).set({ embedding: [7, 7], embeddingModel: 'old-model' }).where(eq(memories.id, ids[1]));
    const before = await version(db, userId);
    const rows = (await stored(db, userId)).map((m) => ({ id: m.id, content: m.content, embedding: m.embedding, embedding_model: m.model }));
    expect(await healMissingEmbeddings(db, provider, { tenantId, userId }, rows)).toBe(2);
    expect(state.embedded).toBe(2);
    const after = await stored(db, userId);
    expect(after.find((m) => m.id === ids[0])?.embedding).toEqual([9, 9]);
    expect(after.filter((m) => m.id !== ids[0]).every((m) => m.model === 'test-model' && Array.isArray(m.embedding))).toBe(true);
    expect(await version(db, userId)).toBe(before + 1);
  });

  it('does nothing when every loaded memory has a vector of the model', async () => {
    const { db, tenantId, userId } = await setUp(1);
    const { provider } = model();
    const rows = (await stored(db, userId)).map((m) => ({ id: m.id, content: m.content, embedding: [1, 1], embedding_model: 'test-model' }));
    expect(healMissingEmbeddings(db, provider, { tenantId, userId }, rows)).toBeNull();
  });

  it('survives a failing model and heals on a later load', async () => {
    const { db, tenantId, userId } = await setUp(2);
    const { provider, state } = model();
    const rows = async () => (await stored(db, userId)).map((m) => ({ id: m.id, content: m.content, embedding: m.embedding, embedding_model: m.model }));
    state.down = true;
    expect(await healMissingEmbeddings(db, provider, { tenantId, userId }, await rows())).toBe(0);
    expect((await stored(db, userId)).every((m) => m.embedding === null)).toBe(true);
    state.down = false;
    expect(await healMissingEmbeddings(db, provider, { tenantId, userId }, await rows())).toBe(2);
    expect((await stored(db, userId)).every((m) => m.model === 'test-model')).toBe(true);
  });

  it('runs one heal per user at a time', async () => {
    const { db, tenantId, userId } = await setUp(1);
    const { provider } = model();
    const rows = (await stored(db, userId)).map((m) => ({ id: m.id, content: m.content, embedding: null, embedding_model: null }));
    const first = healMissingEmbeddings(db, provider, { tenantId, userId }, rows);
    expect(healMissingEmbeddings(db, provider, { tenantId, userId }, rows)).toBeNull();
    expect(await first).toBe(1);
  });
});
