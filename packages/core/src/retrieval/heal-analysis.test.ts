/** Rows loaded without their stored analysis get the load's, on an in-memory PGlite. */
import { eq, memories, passages } from '@memory/db';
import { describe, expect, it } from 'vitest';
import { storePassages } from '../evidence/store';
import { analyseForIndex } from '../text/analysis';
import { useMemoryDatabase } from '../testing/memory-database';
import { seedMemories } from './seed-test-support';
import { healMissingAnalysis, missingAnalysis } from './heal-analysis';
import { HotTier } from './hot-tier';
import { loadUserSet } from './load-user-set';

const database = useMemoryDatabase();

const TEXTS = ['The user adopted a beagle puppy named Biscuit.', 'The user moved to Porto in May.', 'The user plays the cello on Sundays.'];

/** A user with three memories and a conversation's passages; the first two memories and every passage without analysis. */
async function setUp() {
  const db = database().db;
  // the first two memories without their analysis
  const { tenantId, userId, sourceEventId, observedAt, ids } = await seedMemories(db, TEXTS, (content, i) => (i === 2 ? analyseForIndex(content) : {}));
  const messages = [
    { role: 'user' as const, content: 'We finally adopted Biscuit, a beagle puppy, from the shelter on Saturday.' },
    { role: 'assistant' as const, content: 'Congratulations! Beagles love long walks.' },
  ];
  await storePassages(db, { tenantId, userId, sourceEventId, jobId: null, agentId: null, observedAt }, messages);
  await db.update(passages).set({ terms: null, vector: null, vectorModel: null }).where(eq(passages.userId, userId));
  const load = async () => (await new HotTier().getOrLoad(userId, 1, () => loadUserSet(db, tenantId, userId, false))).set;
  return { db, tenantId, userId, ids, load };
}

describe('healMissingAnalysis', () => {
  it('stores what the load computed for the rows that had no analysis, so the next load finds nothing missing', async () => {
    const { db, tenantId, userId, ids, load } = await setUp();
    const set = await load();
    const missing = missingAnalysis(set);
    expect(missing.memories.map((m) => m.id).sort()).toEqual(ids.slice(0, 2).sort());
    expect(missing.passages).toHaveLength(2);

    expect(await healMissingAnalysis(db, { tenantId, userId }, set)).toBe(4);
    const stored = await db.select().from(memories).where(eq(memories.userId, userId));
    for (const m of stored) {
      // what the write path stores for the same text (no claim here, so no slot words)
      const expected = analyseForIndex(m.content);
      expect(m.terms).toBe(expected.terms);
      expect(m.vectorModel).toBe(expected.vectorModel);
      expect(m.vector).toBe(expected.vector);
    }
    // the offline vectors are stored too (the word vectors load in the tests as in the server)
    expect(stored.every((m) => m.vector !== null)).toBe(true);
    const storedPassages = await db.select().from(passages).where(eq(passages.userId, userId));
    expect(storedPassages.every((p) => p.terms !== null && p.terms.length > 0)).toBe(true);

    const again = await load();
    expect(missingAnalysis(again)).toEqual({ memories: [], passages: [] });
    expect(healMissingAnalysis(db, { tenantId, userId }, again)).toBeNull();
    // the index built from the stored values is the one the analysing load built
    expect(again.index.memories.map((m) => m.terms)).toEqual(set.index.memories.map((m) => m.terms));
  });

  it('leaves a row whose text changed after it was loaded', async () => {
    const { db, tenantId, userId, ids, load } = await setUp();
    const set = await load();
    await db.update(memories).set({ content: 'The user moved to Lisbon in June.' }).where(eq(memories.id, ids[1]));
    expect(await healMissingAnalysis(db, { tenantId, userId }, set)).toBe(3);
    const [edited] = await db.select().from(memories).where(eq(memories.id, ids[1]));
    expect(edited.terms).toBeNull();
  });

  it('runs one heal per user at a time', async () => {
    const { db, tenantId, userId, load } = await setUp();
    const set = await load();
    const first = healMissingAnalysis(db, { tenantId, userId }, set);
    expect(healMissingAnalysis(db, { tenantId, userId }, set)).toBeNull();
    expect(await first).toBe(4);
  });
});
