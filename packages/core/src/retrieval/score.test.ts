import { describe, expect, it } from 'vitest';
import { buildIndex, rankCandidates } from './score';
import { type WordVectors, wordVectors } from './word-vectors';
import { analyze } from './text';

const NOW = Date.parse('2026-06-01T00:00:00Z');
const day = 86_400_000;

function index(
  items: { content: string; category?: string; importance?: number; agentId?: string | null; ageDays?: number; feedback?: number; entities?: string[] }[],
  vectors: WordVectors | null = null,
) {
  return buildIndex(
    items.map((m, i) => ({
      id: `m${i}`,
      category: m.category ?? 'fact',
      importance: m.importance ?? 0.5,
      agentId: m.agentId ?? null,
      createdAt: NOW - (m.ageDays ?? 0) * day,
      feedbackScore: m.feedback ?? 0,
      entities: m.entities ?? [],
    })),
    items.map((m) => m.content),
    vectors,
  );
}

describe('analyze', () => {
  it('stems like PostgreSQL english and drops stop words and "user"', () => {
    expect(analyze('The user is training for marathons')).toEqual(['train', 'marathon']);
    expect(analyze("The user's sister lives in Porto.")).toEqual(['sister', 'live', 'porto']);
    expect(analyze('I ran 42 km')).toEqual(['ran', '42', 'km']);
  });
});

describe('rankCandidates', () => {
  const idx = index([
    { content: 'The user is a vegetarian.', importance: 0.85 },
    { content: 'The user lives in Lisbon.', importance: 0.8 },
    { content: 'The user is training for a marathon in April.', category: 'goal', importance: 0.7 },
    { content: 'The user loves jazz.', category: 'preference', importance: 0.55, agentId: 'music-bot' },
  ]);

  it('puts the lexical match first, by stem', () => {
    expect(rankCandidates(idx, 'marathons', {}, 10, NOW)[0].index).toBe(2);
    expect(rankCandidates(idx, 'where does the user live?', {}, 10, NOW)[0].index).toBe(1);
  });

  it('orders by importance when nothing matches, and returns every candidate up to the limit', () => {
    const r = rankCandidates(idx, 'xyzzy', {}, 10, NOW);
    expect(r.map((x) => x.index)).toEqual([0, 1, 2, 3]);
    expect(rankCandidates(idx, 'xyzzy', {}, 2, NOW).map((x) => x.index)).toEqual([0, 1]);
  });

  it('applies category, agent and time filters', () => {
    expect(rankCandidates(idx, 'x', { categories: ['goal'] }, 10, NOW).map((x) => x.index)).toEqual([2]);
    expect(rankCandidates(idx, 'x', { agentId: 'music-bot' }, 10, NOW).map((x) => x.index)).toEqual([3]);
    const old = index([{ content: 'old', ageDays: 40 }, { content: 'new', ageDays: 1 }]);
    expect(rankCandidates(old, 'x', { createdAfter: NOW - 30 * day }, 10, NOW).map((x) => x.index)).toEqual([1]);
  });

  it('prefers recent memories when everything else is equal', () => {
    const r = index([{ content: 'a fact about tea', ageDays: 400 }, { content: 'a fact about coffee', ageDays: 2 }]);
    expect(rankCandidates(r, 'fact', {}, 10, NOW).map((x) => x.index)).toEqual([1, 0]);
  });

  it('collapses near-duplicates into the better-ranked one', () => {
    const r = index([
      { content: 'The user lives in Lisbon.', importance: 0.8 },
      { content: 'The user lives in Lisbon now.', importance: 0.5 },
      { content: 'The user likes Lisbon.', importance: 0.5 },
    ]);
    expect(rankCandidates(r, 'where does the user live', {}, 10, NOW).map((x) => x.index)).toEqual([0, 2]);
  });

  it('lets feedback and entity matches move a memory up', () => {
    const items = [{ content: 'Anna plays the cello.' }, { content: 'Anna plays the violin.' }];
    expect(rankCandidates(index(items), 'what does Anna play', {}, 10, NOW)[0].index).toBe(0);
    expect(rankCandidates(index([items[0], { ...items[1], feedback: 3 }]), 'what does Anna play', {}, 10, NOW)[0].index).toBe(1);
    const linked = index([items[0], { ...items[1], entities: ['anna'] }]);
    expect(rankCandidates(linked, 'what does Anna play', {}, 10, NOW, { entities: ['anna'] })[0].index).toBe(1);
  });
  it('keeps relevance in [0, 1]', () => {
    for (const x of rankCandidates(idx, 'vegetarian lisbon marathon jazz', {}, 10, NOW)) {
      expect(x.relevance).toBeGreaterThan(0);
      expect(x.relevance).toBeLessThan(1);
    }
  });
});

describe('rankCandidates: semantic signal', () => {
  it("uses the configured model's vectors when the memory and the query both have one", () => {
    const idx = buildIndex(
      [
        { id: 'a', category: 'fact', importance: 0.5, agentId: null, createdAt: NOW, embedding: Float32Array.from([1, 0]) },
        { id: 'b', category: 'fact', importance: 0.5, agentId: null, createdAt: NOW, embedding: Float32Array.from([0, 1]) },
      ],
      ['The user plays chess.', 'The user plays go.'],
      null,
    );
    expect(rankCandidates(idx, 'board games', {}, 10, NOW, { embedding: Float32Array.from([0.1, 0.99]) })[0].index).toBe(1);
    expect(rankCandidates(idx, 'board games', {}, 10, NOW, { embedding: Float32Array.from([0.99, 0.1]) })[0].index).toBe(0);
  });

  const vectors = wordVectors();

  it('finds a memory that shares no word with the query', () => {
    const r = index([{ content: 'The user adopted a puppy.' }, { content: 'The user bought a car.' }], vectors);
    const ranked = rankCandidates(r, 'does the user have a dog?', {}, 10, NOW);
    expect(ranked[0].index).toBe(0);
    expect(ranked[0].relevance).toBeGreaterThan(ranked[1].relevance);
  });

  it('has the offline word vectors built (npm run build / turbo run build)', () => {
    expect(vectors?.dimensions).toBe(100);
    expect(vectors?.size).toBeGreaterThan(100_000);

  });
});
