import { describe, expect, it } from 'vitest';
import { wordVectors } from '../text/word-vectors';
import { buildIndex } from './candidate-index';
import { withGroupMembers } from './group-words';
import { asksForAdvice } from './scaffolding';
import { answerPattern } from './score';
import { type PreparedQuery, type RankFilters, scoreCandidates } from './score-layer';
import { MEMORY_WEIGHTS, PASSAGE_WEIGHTS } from './weights';

const NOW = Date.parse('2026-06-01T00:00:00Z');
const day = 86_400_000;
const vectors = wordVectors();

/** A small seeded generator (mulberry32), so a failing case can be replayed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  'dog cat puppy kitten guitar piano violin jazz opera concert marathon running cycling swimming Lisbon Porto Berlin ' +
  'Tokyo sushi ramen coffee tea wine doctor nurse teacher engineer sister brother mother daughter garden tomatoes ' +
  'roses bike car train flight hotel beach mountain hiking camping book novel poetry painting pottery yoga chess'
).split(' ');

function sentence(r: () => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(WORDS[Math.floor(r() * WORDS.length)]);
  if (r() < 0.3) out.push(String(Math.floor(r() * 40)));
  return `The user mentioned ${out.join(' and ')}.`;
}

function randomIndex(r: () => number, n: number) {
  const contents = Array.from({ length: n }, () => sentence(r, 1 + Math.floor(r() * 4)));
  const items = contents.map((_, i) => ({
    id: `m${i}`,
    category: r() < 0.5 ? 'fact' : 'preference',
    importance: Math.round(r() * 100) / 100,
    agentId: r() < 0.2 ? 'bot' : null,
    createdAt: NOW - Math.floor(r() * 400) * day,
    feedbackScore: r() < 0.1 ? Math.floor(r() * 5) - 2 : 0,
    entities: r() < 0.3 ? [WORDS[Math.floor(r() * WORDS.length)].toLowerCase()] : [],
  }));
  return buildIndex(items, contents, vectors);
}

function prepared(query: string): PreparedQuery {
  return {
    general: false,
    answer: answerPattern(query),
    advice: asksForAdvice(query),
    vectors,
    vector: vectors?.embed(query) ?? null,
    terms: withGroupMembers(query),
  };
}

describe('scoreCandidates: a short list is the head of the whole ranking', () => {
  it('has the offline word vectors to compare (turbo run build)', () => {
    expect(vectors).not.toBeNull();
  });

  // The vector comparison is skipped for an item whose bound cannot reach the list's last entry; asking for
  // every item never skips one, so the two must agree on the head whatever the query, filters and weights.
  it('gives the same best items, in the same order with the same relevance, as ranking every item', () => {
    const r = random(7);
    let compared = 0;
    for (let round = 0; round < 40; round++) {
      const idx = randomIndex(r, 150 + Math.floor(r() * 250));
      const n = idx.memories.length;
      for (let q = 0; q < 6; q++) {
        // a count question, a request for advice (preferences gain), a statement
        const query =
          q % 3 === 0 ? `How many ${WORDS[Math.floor(r() * WORDS.length)]}?` : `${q % 3 === 1 ? 'Any tips? ' : ''}${sentence(r, 1 + Math.floor(r() * 2))}`;
        const filters: RankFilters = r() < 0.3 ? { categories: ['fact'] } : r() < 0.2 ? { agentId: 'bot' } : {};
        const signals = r() < 0.3 ? { entities: [WORDS[Math.floor(r() * WORDS.length)].toLowerCase()] } : {};
        const weights = r() < 0.5 ? MEMORY_WEIGHTS : PASSAGE_WEIGHTS;
        const limit = 1 + Math.floor(r() * 25);
        const short = scoreCandidates(idx, weights, query, filters, limit, NOW, signals, prepared(query));
        const all = scoreCandidates(idx, weights, query, filters, n, NOW, signals, prepared(query));
        expect(short).toEqual(all.slice(0, limit));
        compared += short.length;
      }
    }
    expect(compared).toBeGreaterThan(1000);
  });

  it('still finds an item that only its vector matches, below many that share a word with the query', () => {
    // sixty memories share words with the question; the answer shares none, only its sense
    const contents = [
      ...Array.from({ length: 60 }, (_, i) => `The user keeps a home office on street ${i}.`),
      'The user has a dog and two cats.',
    ];
    const idx = buildIndex(
      contents.map((_, i) => ({ id: `m${i}`, category: 'fact', importance: i === 60 ? 0.9 : 0.1, agentId: null, createdAt: NOW })),
      contents,
      vectors,
    );
    const query = 'Which pets does the user keep at home?';
    const top = scoreCandidates(idx, MEMORY_WEIGHTS, query, {}, 3, NOW, {}, prepared(query));
    expect(top[0].index).toBe(60);
  });

  it('counts recency from the "now" it is given each time, also for an index ranked before', () => {
    const contents = ['The user plays jazz piano.', 'The user plays jazz guitar.'];
    const idx = buildIndex(
      [
        { id: 'a', category: 'fact', importance: 0.5, agentId: null, createdAt: NOW - 100 * day },
        { id: 'b', category: 'fact', importance: 0.5, agentId: null, createdAt: NOW - 10 * day },
      ],
      contents,
      vectors,
    );
    const query = 'jazz';
    const [first] = scoreCandidates(idx, MEMORY_WEIGHTS, query, {}, 2, NOW, {}, prepared(query));
    const [later] = scoreCandidates(idx, MEMORY_WEIGHTS, query, {}, 2, NOW + 365 * day, {}, prepared(query));
    expect(first.index).toBe(1);
    expect(later.relevance).toBeLessThan(first.relevance);
  });
});
