import { describe, expect, it } from 'vitest';
import { buildIndex } from './candidate-index';
import { rankLayers } from './score';
import type { RankFilters } from './score-layer';
import { MEMORY_WEIGHTS, PASSAGE_WEIGHTS } from './weights';

const NOW = Date.UTC(2026, 5, 1);

/** Memories of conversations (source events), each [event, content, category]. */
function index(items: Array<[event: string, content: string, category?: string]>) {
  return buildIndex(
    items.map(([event, , category], i) => ({
      id: `m${i}`,
      category: category ?? 'fact',
      importance: 0.5,
      agentId: null,
      createdAt: NOW - i * 60_000,
      sourceEventId: event,
      messages: [i],
    })),
    items.map(([, content]) => content),
  );
}

const rank = (idx: ReturnType<typeof index>, query: string, filters: RankFilters = {}) =>
  rankLayers({ memories: idx, passages: null }, query, filters, 10, NOW).map((r) => idx.memories[r.index].id);

describe('a memory takes a share of its conversation’s best match (score-layer.ts)', () => {
  const idx = index([
    ['bees', 'Priya keeps bees in her garden.'],
    ['bees', 'Priya also likes watching them at dusk.'],
    ['bees', 'The weather was lovely that week.'],
    ['other', 'Priya sings.'],
    ['other', 'Priya met Marco for lunch.'],
  ]);

  it('ranks what was said in the conversation that names the bees above a shorter mention of Priya elsewhere', () => {
    const ranked = rank(idx, 'What does Priya do with her bees?');
    // the conversation's best keeps its place, and its other match comes next
    expect(ranked.slice(0, 2)).toEqual(['m0', 'm1']);
    expect(ranked.indexOf('m1')).toBeLessThan(ranked.indexOf('m3'));
  });

  it('takes the best among the memories the filters let through: what they hold back orders nothing', () => {
    const held = index([
      ['bees', 'Priya keeps bees in her garden.', 'preference'],
      ['bees', 'Priya also likes watching them at dusk.'],
      ['other', 'Priya sings.'],
    ]);
    expect(rank(held, 'What does Priya do with her bees?')).toEqual(['m0', 'm1', 'm2']);
    expect(rank(held, 'What does Priya do with her bees?', { categories: ['fact'] })).toEqual(['m2', 'm1']);
  });

  it('lifts nothing that shares no word with the question', () => {
    expect(rank(idx, 'What does Priya do with her bees?')).not.toContain('m2');
  });

  it('is a share of the memory layer only: passages are mostly replies on their conversation’s topic', () => {
    expect(MEMORY_WEIGHTS.conversationShare).toBeGreaterThan(0);
    expect(PASSAGE_WEIGHTS.conversationShare).toBe(0);
  });

  it('keeps one conversation’s order by words', () => {
    const one = index([
      ['c', 'Priya sings in a choir.'],
      ['c', 'Priya keeps bees.'],
      ['c', 'Priya keeps bees and sells their honey.'],
    ]);
    expect(rank(one, 'bees honey')).toEqual(['m2', 'm1']);
  });
});
