import { describe, expect, it } from 'vitest';
import { type LayeredRanked, PASSAGE_CATEGORY, RANKING, buildIndex, rankLayers } from './score';
import { holdsStem } from './candidate-index';

// rankLayers: the two layers merged into one list (docs/evidence-layer.md); score.test.ts covers scoring itself
const NOW = Date.parse('2026-06-01T00:00:00Z');

describe('rankLayers: memories and passages together', () => {
  const memories = buildIndex(
    [
      { id: 'm0', category: 'fact', importance: 0.8, agentId: null, createdAt: NOW, sourceEventId: 'e1', messages: [0] },
      { id: 'm1', category: 'preference', importance: 0.6, agentId: null, createdAt: NOW, sourceEventId: 'e1', messages: [2] },
    ],
    ['The user lives in Lisbon.', 'The user loves jazz.'],
    null,
  );
  const passages = buildIndex(
    [
      { id: 'p0', category: PASSAGE_CATEGORY, importance: 0, agentId: null, createdAt: NOW, sourceEventId: 'e1', messages: [0] },
      { id: 'p1', category: PASSAGE_CATEGORY, importance: 0, agentId: null, createdAt: NOW, sourceEventId: 'e1', messages: [1] },
      { id: 'p2', category: PASSAGE_CATEGORY, importance: 0, agentId: null, createdAt: NOW, sourceEventId: 'e1', messages: [1] },
      { id: 'p3', category: PASSAGE_CATEGORY, importance: 0, agentId: null, createdAt: NOW, sourceEventId: 'e1', messages: [2] },
    ],
    [
      'I live in Lisbon, near the river.',
      'To dilute tea tree oil, mix a few drops with a carrier oil such as coconut oil.',
      'Tea tree oil should never be swallowed.',
      'I love jazz and go to concerts in Lisbon.',
    ],
    null,
  );

  it('returns a passage no memory covers, with what the assistant said', () => {
    const r = rankLayers({ memories, passages }, 'how do I dilute tea tree oil', {}, 10, NOW);
    expect(r[0]).toMatchObject({ layer: 'passage', index: 1 });
    // one passage per message: the other part holds none of the query's words the first does not
    expect(r.filter((x) => x.layer === 'passage' && (x.index === 1 || x.index === 2))).toHaveLength(1);
  });

  it('leaves out a passage whose message a returned memory cites; keeps one no ranked memory covers', () => {
    const r = rankLayers({ memories, passages }, 'where does the user live in Lisbon', {}, 10, NOW);
    expect(r.map((x) => [x.layer, x.index])).toEqual([
      ['memory', 0],
      ['passage', 3],
    ]);
  });

  it('lets a ranked memory from the same message stand in for its passage', () => {
    const r = rankLayers({ memories, passages }, 'jazz', {}, 10, NOW);
    expect(r.map((x) => [x.layer, x.index])).toEqual([['memory', 1]]);
  });

  it('returns the passage in place of the memory when it matched the query on a word the memory does not say', () => {
    // "concerts" is in the message, not in "The user loves jazz."
    expect(rankLayers({ memories, passages }, 'jazz concerts', {}, 10, NOW).map((x) => [x.layer, x.index])).toEqual([['passage', 3]]);
  });

  it('keeps the memories when between them they hold every word the passage matched on', () => {
    const two = buildIndex(
      [
        { id: 'lives', category: 'fact', importance: 0.8, agentId: null, createdAt: NOW, sourceEventId: 'e7', messages: [0] },
        { id: 'loves', category: 'preference', importance: 0.6, agentId: null, createdAt: NOW, sourceEventId: 'e7', messages: [0] },
      ],
      ['The user lives in Porto.', 'The user loves fado.'],
      null,
    );
    const message = buildIndex([{ id: 'p', category: PASSAGE_CATEGORY, importance: 0, agentId: null, createdAt: NOW, sourceEventId: 'e7', messages: [0] }], ['I live in Porto. I love fado.'], null);
    const r = rankLayers({ memories: two, passages: message }, 'fado music in Porto', {}, 10, NOW);
    expect(r.map((x) => x.layer)).toEqual(['memory', 'memory']);
  });

  it('puts such a passage where the memory it replaces was returned, at the memory\'s score', () => {
    const one = (content: string, category: string) =>
      buildIndex([{ id: content, category, importance: category === PASSAGE_CATEGORY ? 0 : 0.9, agentId: null, createdAt: NOW, sourceEventId: 'e9', messages: [0] }], [content], null);
    const memory = one('The user loves jazz.', 'preference');
    // a long message: its score is below the memory's, so the memory is returned first
    const message = one(
      'I love jazz, and last spring a friend from work took me along to a small club downtown where a trio played standards all night long; since then I try to catch concerts whenever my shifts allow it.',
      PASSAGE_CATEGORY,
    );
    const alone = rankLayers({ memories: memory, passages: message }, 'jazz', {}, 10, NOW);
    expect(alone.map((x) => x.layer)).toEqual(['memory']);
    const r = rankLayers({ memories: memory, passages: message }, 'loves jazz concerts', {}, 10, NOW);
    expect(r.map((x) => [x.layer, x.index])).toEqual([['passage', 0]]);
    const memoryOnly = rankLayers({ memories: memory, passages: null }, 'loves jazz concerts', {}, 10, NOW);
    expect(r[0].relevance).toBe(memoryOnly[0].relevance);
  });

  it("keeps passages out when the categories filter does not name 'conversation', and alone when it does", () => {
    expect(rankLayers({ memories, passages }, 'tea tree oil', { categories: ['fact'] }, 10, NOW)).toEqual([]);
    const only = rankLayers({ memories, passages }, 'tea tree oil Lisbon', { categories: [PASSAGE_CATEGORY] }, 10, NOW);
    expect(only.length).toBeGreaterThan(0);
    expect(only.every((x) => x.layer === 'passage')).toBe(true);
  });

  it('treats limit as a maximum and returns nothing for an unrelated query', () => {
    expect(rankLayers({ memories, passages }, 'lisbon jazz tea oil', {}, 2, NOW)).toHaveLength(2);
    expect(rankLayers({ memories, passages }, 'quantum chromodynamics', {}, 10, NOW)).toEqual([]);
  });
});

describe('rankLayers: a reply that quotes its prompt', () => {
  const memories = buildIndex([], [], null);
  const passages = buildIndex(
    [
      { id: 'q', category: PASSAGE_CATEGORY, importance: 0, agentId: null, createdAt: NOW, sourceEventId: 'e1', messages: [0] },
      // the reply quotes message 0 whole, so it stands for both messages
      { id: 'a', category: PASSAGE_CATEGORY, importance: 0, agentId: null, createdAt: NOW, sourceEventId: 'e1', messages: [0, 1] },
      // a later message that matches less ("ordered" is not a form of "buy", verb-forms.ts)
      { id: 'later', category: PASSAGE_CATEGORY, importance: 0, agentId: null, createdAt: NOW, sourceEventId: 'e1', messages: [2] },
    ],
    ['Which sushi knife should I buy?', 'For sushi, buy a yanagiba knife: its long single-bevel blade slices fish cleanly.', 'I ordered the sushi knife.'],
    null,
  );

  it('leaves out the prompt once the reply quoting it is returned', () => {
    const r = rankLayers({ memories, passages }, 'which yanagiba sushi knife blade', {}, 10, NOW);
    expect(r.map((x) => x.index)).toEqual([1, 2]);
  });

  it('puts the reply in the place of a prompt returned before it: the reply holds both', () => {
    const r = rankLayers({ memories, passages }, 'which sushi knife should I buy', {}, 10, NOW);
    expect(r.map((x) => x.index)).toEqual([1, 2]);
    // the place and score the prompt earned
    const promptOnly = rankLayers({ memories, passages }, 'which sushi knife should I buy', {}, 1, NOW);
    expect(r[0].relevance).toBeGreaterThanOrEqual(promptOnly[0].relevance);
  });
});

describe('rankLayers: one item per message, whichever ranks first', () => {
  const memories = buildIndex(
    [{ id: 'm', category: 'fact', importance: 0.9, agentId: null, createdAt: NOW, sourceEventId: 'e1', messages: [0] }],
    ['The user keeps bees.'],
    null,
  );
  // the assistant's reply to message 0, quoting it whole
  const passages = buildIndex(
    [{ id: 'r', category: PASSAGE_CATEGORY, importance: 0, agentId: null, createdAt: NOW, sourceEventId: 'e1', messages: [0, 1] }],
    ['Italian bees are gentle; three hives on a roof need a water source nearby, and honey is harvested in late summer.'],
    null,
  );

  it('leaves out a memory whose messages were already returned word for word (quoted by a reply)', () => {
    const r = rankLayers({ memories, passages }, 'italian bees hives honey roof', {}, 10, NOW);
    expect(r.map((x) => [x.layer, x.index])).toEqual([['passage', 0]]);
  });

  it('keeps both when the memory ranks first: the reply says what the memory does not', () => {
    const r = rankLayers({ memories, passages }, 'who keeps bees', {}, 10, NOW);
    expect(r.map((x) => [x.layer, x.index])).toEqual([
      ['memory', 0],
      ['passage', 0],
    ]);
  });
});

describe('rankLayers: a reply whose prompt a better-ranked memory states', () => {
  const memories = buildIndex(
    [{ id: 'm', category: 'fact', importance: 0.9, agentId: null, createdAt: NOW, sourceEventId: 'e1', messages: [0] }],
    ['The user keeps bees on the roof.'],
    null,
  );
  const none = buildIndex([], [], null);
  const passages = buildIndex(
    [
      // the assistant's reply to message 0, quoting it whole
      { id: 'reply', category: PASSAGE_CATEGORY, importance: 0, agentId: null, createdAt: NOW, sourceEventId: 'e1', messages: [0, 1] },
      // another conversation, matching the query a little less than the reply does
      { id: 'other', category: PASSAGE_CATEGORY, importance: 0, agentId: null, createdAt: NOW, sourceEventId: 'e2', messages: [0] },
    ],
    [
      'I keep bees on my roof. Bees on a roof need shade and water.',
      'My neighbour asked whether the bees could sting her kids when they play in the garden below our roof.',
    ],
    null,
  );
  const query = 'bees on the roof';

  it('waits the repeat penalty lower, so evidence from another message goes first', () => {
    const alone = rankLayers({ memories: none, passages }, query, {}, 10, NOW);
    expect(alone.map((x) => x.index)).toEqual([0, 1]);
    const r = rankLayers({ memories, passages }, query, {}, 10, NOW);
    expect(r.map((x) => [x.layer, x.index])).toEqual([
      ['memory', 0],
      ['passage', 1],
      ['passage', 0],
    ]);
    expect(r[2].relevance).toBeCloseTo(alone[0].relevance - RANKING.repeatPenalty, 10);
  });

  it('gives that evidence the last place when the limit is reached; is not lowered when no memory states its prompt', () => {
    expect(rankLayers({ memories, passages }, query, {}, 2, NOW).map((x) => [x.layer, x.index])).toEqual([
      ['memory', 0],
      ['passage', 1],
    ]);
    const unrelated = buildIndex(
      [{ id: 'm2', category: 'fact', importance: 0.9, agentId: null, createdAt: NOW, sourceEventId: 'e3', messages: [0] }],
      ['The user keeps bees on the roof of the school.'],
      null,
    );
    const r = rankLayers({ memories: unrelated, passages }, query, {}, 10, NOW);
    expect(r.filter((x) => x.layer === 'passage').map((x) => x.index)).toEqual([0, 1]);
  });
});

describe('rankLayers: evidence from other messages before a second memory of the same message', () => {
  // a and b come from one message (e1#0) unless b is given one of its own; c is from another conversation;
  // d cites e1#0 and a message nothing else cites
  const memories = (bMessages: number[]) =>
    buildIndex(
      [
        { id: 'a', category: 'fact', importance: 0.5, agentId: null, createdAt: NOW, sourceEventId: 'e1', messages: [0] },
        { id: 'b', category: 'fact', importance: 0.5, agentId: null, createdAt: NOW, sourceEventId: 'e1', messages: bMessages },
        { id: 'c', category: 'fact', importance: 0.5, agentId: null, createdAt: NOW, sourceEventId: 'e2', messages: [3] },
        { id: 'd', category: 'fact', importance: 0.5, agentId: null, createdAt: NOW, sourceEventId: 'e1', messages: [0, 4] },
      ],
      [
        'The user went hiking in the Alps.',
        'The user loved the Alps hiking trip with her sister.',
        'The user is planning hiking in the Alps next year with a club of hikers from work and family.',
        'The user bought boots for hiking in the Alps.',
      ],
      null,
    );
  const ranked = (bMessages: number[], limit = 10) => {
    const idx = memories(bMessages);
    return rankLayers({ memories: idx, passages: null }, 'alps hiking', {}, limit, NOW).map((x) => ({ id: idx.memories[x.index].id, relevance: x.relevance }));
  };

  it('lowers a memory whose every message a better item already cites, so nearly as relevant new evidence goes first', () => {
    const own = ranked([7]);
    expect(own.map((x) => x.id)).toEqual(['a', 'd', 'b', 'c']);
    const shared = ranked([0]);
    expect(shared.map((x) => x.id)).toEqual(['a', 'd', 'c', 'b']);
    const score = (list: typeof own, id: string) => list.find((x) => x.id === id)!.relevance;
    expect(score(shared, 'b')).toBeCloseTo(score(own, 'b') - RANKING.repeatPenalty, 6);
    // data stays ordered by score
    for (let i = 1; i < shared.length; i++) expect(shared[i].relevance).toBeLessThanOrEqual(shared[i - 1].relevance);
  });

  it('keeps the limit: the lowered memory gives its place to the other conversation', () => {
    expect(ranked([7], 3).map((x) => x.id)).toEqual(['a', 'd', 'b']);
    expect(ranked([0], 3).map((x) => x.id)).toEqual(['a', 'd', 'c']);
  });
});

describe("rankLayers: a long message's other parts", () => {
  const memories = buildIndex([], [], null);
  const part = (id: string, event: string, message: number) => ({ id, category: PASSAGE_CATEGORY, importance: 0, agentId: null, createdAt: NOW, sourceEventId: event, messages: [message] });
  // one assistant reply cut into three passages, and a message of another conversation
  const texts = [
    'There are lovely walks around the reservoir: the shoreline loop is flat and takes an hour on foot.',
    'For a harder day the Ridgeback trail climbs above the reservoir for six kilometres.',
    'Whichever you pick, pack water, sunscreen and a light jacket.',
    'I walked around the reservoir with my sister on Sunday.',
  ];
  const passages = buildIndex([part('first', 'e1', 1), part('second', 'e1', 1), part('third', 'e1', 1), part('other', 'e2', 0)], texts, null);
  const ids = (r: LayeredRanked[]) => r.map((x) => passages.memories[x.index].id);

  it('returns a further part that holds a word of the query the returned part does not, lowered', () => {
    const r = rankLayers({ memories, passages }, 'which trail around the reservoir did you suggest for walks?', {}, 10, NOW);
    expect(ids(r)).toContain('second');
    expect(ids(r).indexOf('second')).toBeGreaterThan(ids(r).indexOf('first'));
    // the third part says nothing the query asks that the first does not
    expect(ids(r)).not.toContain('third');
    for (let i = 1; i < r.length; i++) expect(r[i].relevance).toBeLessThanOrEqual(r[i - 1].relevance);
  });

  it('ranks it by its own score less the repeat penalty', () => {
    const query = 'which trail around the reservoir did you suggest for walks?';
    const r = rankLayers({ memories, passages }, query, {}, 10, NOW);
    // the same texts, with the second part said in a message of its own: its own score, nothing lowered
    const apart = buildIndex(
      [part('first', 'e1', 1), part('second', 'e3', 0), part('third', 'e1', 1), part('other', 'e2', 0)],
      texts,
      null,
    );
    const own = rankLayers({ memories, passages: apart }, query, {}, 10, NOW).find((x) => apart.memories[x.index].id === 'second')!.relevance;
    expect(r.find((x) => passages.memories[x.index].id === 'second')!.relevance).toBeCloseTo(own - RANKING.repeatPenalty, 9);
  });

  it('keeps the limit: the lowered part is the one left out', () => {
    expect(ids(rankLayers({ memories, passages }, 'which trail around the reservoir did you suggest for walks?', {}, 2, NOW))).toEqual(['other', 'first']);
  });
});

describe('holdsStem', () => {
  it('finds a whole stem only', () => {
    expect(holdsStem('user keep old sneaker', 'keep')).toBe(true);
    expect(holdsStem('user keep old sneaker', 'sneaker')).toBe(true);
    expect(holdsStem('user keeper old sneakers', 'keep')).toBe(false);
    expect(holdsStem('user keeper old sneakers', 'sneaker')).toBe(false);
    expect(holdsStem('', 'keep')).toBe(false);
  });
});
