import { describe, expect, it } from 'vitest';
import { analyze } from '../text/terms';
import { type CurrentClaim, type LayeredRanked, PASSAGE_CATEGORY, buildIndex, currentFirst, orderUpdates, rankLayers } from './score';

// currentFirst (updates.ts): a passage of history never ranks above the memory that now holds its claim
const DAY = 86_400_000;
const NOW = Date.parse('2026-06-01T00:00:00Z');
const passage = (id: string, event: string, message: number, said: number, current?: CurrentClaim[]) => ({
  id,
  category: PASSAGE_CATEGORY,
  importance: current ? -1 : 0,
  agentId: null,
  createdAt: said,
  observedAt: said,
  sourceEventId: event,
  messages: [message],
  ...(current ? { current } : {}),
});

describe('currentFirst: what is current above its history', () => {
  // "I live in Bruges …" was superseded by "we moved to Ghent"; the Bruges memory is inactive, so not loaded
  const memories = buildIndex(
    [
      { id: 'ghent', category: 'event', importance: 0.6, agentId: null, createdAt: NOW - DAY, observedAt: NOW - DAY, sourceEventId: 'e2', messages: [0] },
      { id: 'cello', category: 'fact', importance: 0.8, agentId: 'tutor', createdAt: NOW - 90 * DAY, observedAt: NOW - 90 * DAY, sourceEventId: 'e1', messages: [0] },
    ],
    ['The user relocated to Ghent in May 2026.', 'The user plays the cello.'],
    null,
  );
  const passages = buildIndex(
    [
      passage('p-bruges', 'e1', 0, NOW - 90 * DAY, [{ id: 'ghent', replaced: analyze('The user resides in Bruges.').join(' ') }]),
      passage('p-ghent', 'e2', 0, NOW - DAY),
      passage('p-canal', 'e3', 0, NOW - 30 * DAY),
    ],
    ['I reside in Bruges and I play the cello.', 'We relocated to Ghent last month.', 'Where I reside the canal boats are lovely.'],
    null,
  );
  const layers = { memories, passages, memoryTexts: ['The user relocated to Ghent in May 2026.', 'The user plays the cello.'] };
  const ids = (r: ReturnType<typeof rankLayers>) => r.map((x) => (x.layer === 'memory' ? memories : passages).memories[x.index].id);

  it('puts the memory that superseded the claim right above the passage, though no word of the question matches it', () => {
    const r = rankLayers(layers, 'where do I reside?', {}, 10, NOW);
    expect(ids(r).indexOf('ghent')).toBe(ids(r).indexOf('p-bruges') - 1);
    // it takes the passage's score, so the list stays ordered by score
    for (let i = 1; i < r.length; i++) expect(r[i].relevance).toBeLessThanOrEqual(r[i - 1].relevance);
  });

  it('keeps the limit: the current memory enters and the last item leaves', () => {
    const all = rankLayers(layers, 'where do I reside?', {}, 10, NOW);
    const two = rankLayers(layers, 'where do I reside?', {}, 2, NOW);
    expect(two).toHaveLength(2);
    expect(ids(two)).toEqual(ids(all).slice(0, 2));
    expect(ids(two)).toContain('ghent');
  });

  it('never brings in a memory the filters exclude', () => {
    const r = rankLayers(layers, 'where do I reside?', { categories: [PASSAGE_CATEGORY, 'fact'] }, 10, NOW);
    expect(ids(r)).not.toContain('ghent');
    expect(ids(r)).toContain('p-bruges');
    expect(ids(rankLayers(layers, 'where do I reside?', { agentId: 'tutor' }, 10, NOW))).not.toContain('ghent');
  });

  it('moves the passage that shows the current claim word for word when its memory is not returned', () => {
    // as rankLayers leaves it when the Ghent message was returned as a passage: its memory is not listed again
    const out = [
      { layer: 'passage' as const, index: 0, relevance: 0.5 },
      { layer: 'passage' as const, index: 2, relevance: 0.4 },
      { layer: 'passage' as const, index: 1, relevance: 0.3 },
    ];
    expect(currentFirst(out, layers, 'where do I reside?', {}, 10)).toEqual([
      { layer: 'passage', index: 1, relevance: 0.5 },
      { layer: 'passage', index: 0, relevance: 0.5 },
      { layer: 'passage', index: 2, relevance: 0.4 },
    ]);
  });

  it('keeps the order as scored for a question anchored in the past', () => {
    const r = rankLayers(layers, 'where did I reside before?', {}, 10, NOW);
    expect(ids(r)).toContain('p-bruges');
    expect(ids(r)).not.toContain('ghent');
  });
});

describe('currentFirst: of several claims a message made, the ones the question is about', () => {
  // "I reside in Bruges and I teach at the conservatory." — both claims were replaced since: a move, a new job
  const replaced = (text: string) => analyze(text).join(' ');
  const memories = buildIndex(
    [
      { id: 'ghent', category: 'event', importance: 0.6, agentId: null, createdAt: NOW - DAY, observedAt: NOW - DAY, sourceEventId: 'e2', messages: [0] },
      { id: 'school', category: 'fact', importance: 0.6, agentId: null, createdAt: NOW - 2 * DAY, observedAt: NOW - 2 * DAY, sourceEventId: 'e3', messages: [0] },
    ],
    ['The user relocated to Ghent in May 2026.', 'The user is employed by a primary school.'],
    null,
  );
  const passages = buildIndex(
    [
      passage('p-old', 'e1', 0, NOW - 90 * DAY, [
        { id: 'ghent', replaced: replaced('The user resides in Bruges.') },
        { id: 'school', replaced: replaced('The user teaches at the conservatory.') },
      ]),
    ],
    ['I reside in Bruges and I teach at the conservatory.'],
    null,
  );
  const layers = { memories, passages, memoryTexts: ['The user relocated to Ghent in May 2026.', 'The user is employed by a primary school.'] };
  const history = [{ layer: 'passage' as const, index: 0, relevance: 0.5 }];
  const ids = (r: { layer: string; index: number }[]) => r.map((x) => (x.layer === 'memory' ? memories : passages).memories[x.index].id);

  it('brings the claim whose replaced words the question shares, not the other', () => {
    expect(ids(currentFirst(history, layers, 'where do I reside?', {}, 10))).toEqual(['ghent', 'p-old']);
    expect(ids(currentFirst(history, layers, 'where do I teach?', {}, 10))).toEqual(['school', 'p-old']);
  });

  it('brings all of them when the question shares no word with any', () => {
    expect(ids(currentFirst(history, layers, 'what has changed for me?', {}, 10))).toEqual(['ghent', 'school', 'p-old']);
  });
});

describe('orderUpdates: a reply is read with the prompt it quotes', () => {
  // February: a running total; May: the user's new total, in the prompt of a reply that was ranked by its own words
  const memories = buildIndex(
    [{ id: 'feb', category: 'fact', importance: 0.5, agentId: null, createdAt: NOW, observedAt: NOW - 100 * DAY, sourceEventId: 'e1', messages: [0] }],
    ['The user has spotted 27 kinds of dragonfly at the pond so far.'],
    null,
  );
  const passages = buildIndex(
    [passage('prompt', 'e2', 0, NOW - 10 * DAY), { ...passage('reply', 'e2', 1, NOW - 10 * DAY), messages: [0, 1] }],
    ['A banded demoiselle at the pond today brings my dragonfly total to 31!', 'Lovely find: dragonfly watchers at a pond often see demoiselles in late spring.'],
    null,
  );
  const out = (): LayeredRanked[] => [
    { layer: 'memory', index: 0, relevance: 0.8 },
    { layer: 'passage', index: 1, relevance: 0.75 },
  ];

  it('lets the reply overtake an older total when the prompt it shows restates a newer one', () => {
    const r = orderUpdates(out(), { memories, passages }, 'How many kinds of dragonfly have I spotted at the pond?');
    expect(r.map((x) => x.layer)).toEqual(['passage', 'memory']);
  });

  it('reads a reply alone when its prompt is not quoted whole', () => {
    const alone = buildIndex([passages.memories[0], { ...passages.memories[1], messages: [1] }].map((m) => ({ ...m })), ['A banded demoiselle at the pond today brings my dragonfly total to 31!', 'Lovely find: dragonfly watchers at a pond often see demoiselles in late spring.'], null);
    const r = orderUpdates(out(), { memories, passages: alone }, 'How many kinds of dragonfly have I spotted at the pond?');
    expect(r.map((x) => x.layer)).toEqual(['memory', 'passage']);
  });
});
