import { describe, expect, it } from 'vitest';
import { type LayeredRanked, PASSAGE_CATEGORY, RANKING, answerPattern, buildIndex, orderUpdates, rankCandidates, rankLayers, timelineNow, valuesOf } from './score';
import { type WordVectors, wordVectors } from '../text/word-vectors';
import { analyze } from '../text/terms';

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

  it('returns nothing for a query nothing matches: importance never pads the result (the relevance floor)', () => {
    expect(rankCandidates(idx, 'xyzzy', {}, 10, NOW)).toEqual([]);
    expect(rankCandidates(idx, 'what is the capital of Peru', {}, 10, NOW)).toEqual([]);
  });

  it('treats a query for what is known in general as matching every memory, by importance', () => {
    for (const q of ['what do you know about the user?', 'Tell me everything you remember about me', '']) {
      expect(rankCandidates(idx, q, {}, 10, NOW).map((x) => x.index)).toEqual([0, 1, 2, 3]);
    }
    expect(rankCandidates(idx, 'what do you know about cooking?', {}, 10, NOW)).toEqual([]);
  });

  it('orders the matching memories by importance when they match equally, up to the limit', () => {
    const all = 'vegetarian lisbon marathon jazz';
    const r = index([
      { content: 'The user likes tea.', importance: 0.3 },
      { content: 'The user likes coffee.', importance: 0.9 },
      { content: 'The user likes cocoa.', importance: 0.6 },
    ]);
    expect(rankCandidates(r, 'what does the user like', {}, 10, NOW).map((x) => x.index)).toEqual([1, 2, 0]);
    expect(rankCandidates(r, 'what does the user like', {}, 2, NOW).map((x) => x.index)).toEqual([1, 2]);
    expect(rankCandidates(idx, all, {}, 10, NOW)).toHaveLength(4);
  });

  it('applies category, agent and time filters', () => {
    const all = 'vegetarian lisbon marathon jazz';
    expect(rankCandidates(idx, all, { categories: ['goal'] }, 10, NOW).map((x) => x.index)).toEqual([2]);
    expect(rankCandidates(idx, all, { agentId: 'music-bot' }, 10, NOW).map((x) => x.index)).toEqual([3]);
    const old = index([{ content: 'old tea', ageDays: 40 }, { content: 'new tea', ageDays: 1 }]);
    expect(rankCandidates(old, 'tea', { createdAfter: NOW - 30 * day }, 10, NOW).map((x) => x.index)).toEqual([1]);
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
    expect(rankCandidates(r, 'where does the user live, and Lisbon', {}, 10, NOW).map((x) => x.index)).toEqual([0, 2]);
  });

  it('never collapses near-duplicates whose values differ: the difference is the answer', () => {
    const texts = [
      'The user keeps 20 dozen fresh brown eggs in the big kitchen fridge at home.',
      'The user keeps 12 dozen fresh brown eggs in the big kitchen fridge at home.',
      'The user met Anna at the climbing gym downtown after work on a rainy Tuesday evening.',
      'The user met Maria at the climbing gym downtown after work on a rainy Tuesday evening.',
    ];
    const r = index(texts.map((content) => ({ content })));
    expect(rankCandidates(r, 'eggs fridge gym met', {}, 10, NOW, {}, texts)).toHaveLength(4);
    // without the texts the values are unknown and the pairs collapse (they are near-duplicates by stems)
    expect(rankCandidates(r, 'eggs fridge gym met', {}, 10, NOW)).toHaveLength(2);
    expect(valuesOf('The user met Anna in May 2023.')).toBe('2023 anna may');
    expect(valuesOf('Anna is here.')).toBe('');
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

describe('rankCandidates: ties', () => {
  it('keeps the memory of the earlier message first, whatever the ids', () => {
    const at = NOW - 86_400_000;
    const idx = buildIndex(
      [
        // same job, same moment, same score: the ids alone would put m-a (message 6) first
        { id: 'm-a', category: 'fact', importance: 0.5, agentId: null, createdAt: at, sourceEventId: 'e1', messages: [6] },
        { id: 'm-b', category: 'fact', importance: 0.5, agentId: null, createdAt: at, sourceEventId: 'e1', messages: [0] },
      ],
      ['The user is planning the trip with friends.', 'The user is planning a trip with friends.'],
      null,
    );
    // near-duplicates: the one kept is the earlier message's, in every run
    expect(rankCandidates(idx, 'planning a trip', {}, 10, NOW).map((r) => r.index)).toEqual([1]);
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
    // the puppy is close enough in meaning to pass the floor; the car is not
    expect(ranked.map((x) => x.index)).toEqual([0]);
  });

  it('has the offline word vectors built (npm run build / turbo run build)', () => {
    expect(vectors?.dimensions).toBe(100);
    expect(vectors?.size).toBeGreaterThan(100_000);

  });
});

describe('recency on the user timeline', () => {
  const said = (content: string, saidDaysAgo: number, createdDaysAgo = 0) => ({
    id: content,
    category: 'fact',
    importance: 0.5,
    agentId: null,
    createdAt: NOW - createdDaysAgo * day,
    observedAt: NOW - saidDaysAgo * day,
  });

  it('counts from when a thing was said, not when it was stored: an imported history keeps its order', () => {
    // both stored today (an import), said four months apart, two years ago; the same words match
    const idx = buildIndex(
      [said('The user keeps 30 hens in the garden.', 850), said('The user keeps 12 hens in the garden.', 730)],
      ['The user keeps 30 hens in the garden.', 'The user keeps 12 hens in the garden.'],
      null,
    );
    const ranked = rankCandidates(idx, 'how many hens do I keep?', {}, 10, NOW);
    expect(ranked.map((r) => r.index)).toEqual([1, 0]);
    // and by more than a tie: the newest thing the user said is "now", so the older one is 120 days old
    expect(ranked[0].relevance - ranked[1].relevance).toBeCloseTo(RANKING.recencyWeight * (1 - 2 ** (-120 / RANKING.recencyHalfLifeDays)), 9);
  });

  it('takes the clock when the user said nothing later, and the clock when a date lies in the future', () => {
    const idx = buildIndex([said('a', 10), said('b', 3)], ['a', 'b'], null);
    expect(timelineNow(NOW, idx)).toBe(NOW - 3 * day);
    expect(timelineNow(NOW, buildIndex([said('c', -5)], ['c'], null))).toBe(NOW);
    expect(timelineNow(NOW, buildIndex([], [], null), null)).toBe(NOW);
  });
});

describe('the kind of value a question asks for', () => {
  const has = (query: string, text: string) => answerPattern(query)?.test(analyze(text).join(' ')) ?? null;

  it('reads the kind from the question and finds it in an item', () => {
    expect(has('How many plants are on my balcony?', 'The user has eleven plants on the balcony.')).toBe(true);
    expect(has('How many plants are on my balcony?', 'The user has 11 plants.')).toBe(true);
    expect(has('How many plants are on my balcony?', 'The user waters the balcony plants.')).toBe(false);
    expect(has('how much did the sofa cost?', 'The sofa cost $1,200.')).toBe(true);
    expect(has('Which day is my choir rehearsal?', 'The user has choir rehearsal on Wednesdays.')).toBe(true);
    expect(has('What day of the week do I swim?', 'The user swims at the lido.')).toBe(false);
    expect(has('When did Priya start pottery?', 'Priya started pottery in March 2024.')).toBe(true);
    expect(has('When did Priya start pottery?', 'Priya started pottery.')).toBe(false);
    expect(has('What year did I graduate?', 'The user graduated in 2019.')).toBe(true);
    // a holiday is a point in time: "When …?" is answered by "on Thanksgiving" as by "in November"
    expect(has('When did I bake the pecan pie?', 'I baked a pecan pie for Thanksgiving with my uncle.')).toBe(true);
    expect(has('When did Sam propose?', "Sam proposed on Valentine's Day at the lake.")).toBe(true);
    expect(has('When did I get my sled?', 'My parents gave me the sled for Christmas.')).toBe(true);
    expect(has('When did I get my sled?', 'My parents gave me the sled.')).toBe(false);
    // other questions ask for no kind of value
    expect(answerPattern('Where does the user live?')).toBeNull();
    expect(answerPattern("What's the user's job?")).toBeNull();
  });

  it('ranks the item that states the value above one that only talks about the thing', () => {
    const idx = index([{ content: 'The user counts the birds in the park.' }, { content: 'The user has counted 32 birds in the park so far.' }]);
    // without the kind (a question that asks for none) the shorter item's words weigh more
    expect(rankCandidates(idx, 'birds counted in the park', {}, 10, NOW)[0].index).toBe(0);
    expect(rankCandidates(idx, 'How many birds have I counted in the park?', {}, 10, NOW)[0].index).toBe(1);
  });
});

describe('orderUpdates: for a question about the current state, the later of two statements first', () => {
  // said on four days, each in its own conversation unless `events` says otherwise
  const said = [NOW - 90 * day, NOW - 30 * day, NOW - 20 * day, NOW - 10 * day];
  function layers(contents: string[], events: string[] = contents.map((_, i) => `e${i}`)) {
    return {
      memories: buildIndex(
        contents.map((_, i) => ({ id: `m${i}`, category: 'fact', importance: 0.5, agentId: null, createdAt: NOW, observedAt: said[i], sourceEventId: events[i], messages: [0] })),
        contents,
        null,
      ),
      passages: null,
    };
  }
  const ranked = (...relevances: number[]): LayeredRanked[] => relevances.map((relevance, index) => ({ layer: 'memory', index, relevance }));
  const order = (r: LayeredRanked[]) => r.map((x) => x.index);

  const bikes = layers(['The user owns three bikes.', 'The user is reading a novel.', 'The user will have four bikes on this trip after buying a hybrid.']);

  it('moves a later statement sharing the question’s words above an earlier one a little more relevant', () => {
    const r = orderUpdates(ranked(0.83, 0.82, 0.78), bikes, 'How many bikes do I currently own?');
    expect(order(r)).toEqual([2, 0, 1]);
    // membership stays; the item moved up takes the score of the one it overtook, so the list stays ordered
    expect(r.map((x) => x.relevance)).toEqual([0.83, 0.83, 0.82]);
    for (const q of [
      'How many bikes do I own now?',
      'What is the latest number of bikes I own?',
      'Do I still own three bikes?',
      // a comparison with the past asks about the present too
      'Do I own more bikes than before?',
      'Do I own fewer bikes than I did previously?',
      'Do I own more bikes than I used to?',
    ]) {
      expect(order(orderUpdates(ranked(0.83, 0.82, 0.78), bikes, q))).toEqual([2, 0, 1]);
    }
  });

  it('keeps the order for a question that does not ask for the current state or the latest count', () => {
    for (const q of [
      'How many bikes do I own?',
      'How many bikes did I own before the trip?',
      'What bikes did I buy?',
      'Did I own more bikes than my brother?',
    ]) {
      expect(order(orderUpdates(ranked(0.83, 0.82, 0.78), bikes, q))).toEqual([0, 1, 2]);
    }
  });

  it('answers a count question with the latest running total: only a later item that restates one overtakes', () => {
    const poems = layers(['The user has drafted five poems for the chapbook so far.', 'x', 'The user has finished twelve poems for the chapbook in total.']);
    for (const q of ['How many poems have I written for the chapbook?', 'What is the total number of poems for my chapbook?']) {
      expect(order(orderUpdates(ranked(0.8, 0.77, 0.75), poems, q))).toEqual([2, 0, 1]);
    }
    // a later total overtakes an earlier item that states none; "since I started" makes a count a total too
    const moths = layers(['The user keeps a log of the moths that visit the user’s balcony light.', 'x', 'A tiger moth on the balcony brought the user’s moth tally to 41.']);
    expect(order(orderUpdates(ranked(0.8, 0.77, 0.75), moths, 'How many moths have I logged on my balcony?'))).toEqual([2, 0, 1]);
    const laps = layers(['The user swam 20 laps of the lake last summer.', 'x', 'The user has swum 64 laps of the lake since starting open-water training.']);
    expect(order(orderUpdates(ranked(0.8, 0.77, 0.75), laps, 'How many laps of the lake have I swum?'))).toEqual([2, 0, 1]);
    // "brings … to" with a count right after it is a total
    const sonnet = layers(['The user has drafted five poems for the chapbook so far.', 'x', 'Last night’s sonnet brings the chapbook poems to 14.']);
    expect(order(orderUpdates(ranked(0.8, 0.77, 0.75), sonnet, 'How many poems have I written for the chapbook?'))).toEqual([2, 0, 1]);
    // not a total: one more occurrence, no count, or only a date or a year
    for (const later of [
      'The user wrote two poems for the chapbook on the train.',
      'The user enjoys writing poems for the chapbook in the evening.',
      'On 12 March 2024 the user said: "the chapbook poems are coming along so far".',
      'The user started the chapbook poems in 2019 and has kept at it so far.',
      // "bring" with no count after it, and a count elsewhere
      'The user will bring the chapbook poems to the reading, and 3 friends are coming along.',
    ]) {
      const l = layers(['The user has drafted five poems for the chapbook so far.', 'x', later]);
      expect(order(orderUpdates(ranked(0.8, 0.77, 0.75), l, 'How many poems have I written for the chapbook?'))).toEqual([0, 1, 2]);
    }
    // one of the question's words in common is too little for a total: another tally of poems
    const other = layers(['The user writes poems in a notebook.', 'x', 'The user has read 30 poems by Mary Oliver so far.']);
    expect(order(orderUpdates(ranked(0.8, 0.77, 0.75), other, 'How many poems have I written?'))).toEqual([0, 1, 2]);
    // a count question that is not about the present, or counts time or times, keeps the order
    for (const q of [
      'How many poems had I written for the chapbook before the reading?',
      'How many poems did I write for the chapbook in 2023?',
      'How many months have passed since I wrote poems for the chapbook?',
      'How many times have I written poems for the chapbook?',
    ]) {
      expect(order(orderUpdates(ranked(0.8, 0.77, 0.75), poems, q))).toEqual([0, 1, 2]);
    }
  });

  it('answers a question about a change with the latest change said', () => {
    const marta = layers(['The user’s cousin Marta moved to a flat in Leeds.', 'x', 'Marta just moved again, to a cottage outside York with her partner.']);
    for (const q of ['Where did my cousin Marta move to?', 'Where has Marta moved?']) {
      expect(order(orderUpdates(ranked(0.8, 0.77, 0.75), marta, q))).toEqual([2, 0, 1]);
    }
    const laptop = layers(['The user upgraded the laptop to 16 GB of memory.', 'x', 'The user upgraded the laptop memory again, to 32 GB.']);
    expect(order(orderUpdates(ranked(0.8, 0.77, 0.75), laptop, 'What did I upgrade my laptop memory to?'))).toEqual([2, 0, 1]);
    // the later item tells no change, or the question asks where from, or for the first one
    const stays = layers(['The user’s cousin Marta moved to a flat in Leeds.', 'x', 'The user’s cousin Marta loves the flat in Leeds and its garden.']);
    expect(order(orderUpdates(ranked(0.8, 0.77, 0.75), stays, 'Where did my cousin Marta move to?'))).toEqual([0, 1, 2]);
    for (const q of ['Where did Marta move from?', 'Where did Marta move first?', 'Where did Marta move to two years ago?']) {
      expect(order(orderUpdates(ranked(0.8, 0.77, 0.75), marta, q))).toEqual([0, 1, 2]);
    }
  });

  it('keeps the order beyond the margin, within one conversation, and when the later item shares none of the question’s words', () => {
    const gap = RANKING.updateMargin + 0.01;
    expect(order(orderUpdates(ranked(0.9, 0.9 - gap / 2, 0.9 - gap), bikes, 'How many bikes do I currently own?'))).toEqual([0, 1, 2]);
    const sameEvent = layers(['The user owns three bikes.', 'x', 'The user owns four bikes.'], ['e1', 'e2', 'e1']);
    expect(order(orderUpdates(ranked(0.83, 0.82, 0.81), sameEvent, 'How many bikes do I currently own?'))).toEqual([0, 1, 2]);
    const otherTopic = layers(['The user owns three bikes.', 'x', 'The user bought a new helmet.']);
    expect(order(orderUpdates(ranked(0.83, 0.82, 0.81), otherTopic, 'How many bikes do I currently own?'))).toEqual([0, 1, 2]);
  });

  it('needs half of the question’s words the earlier item matches', () => {
    const record = layers(['The user has been doing well in the volleyball league.', 'x', 'The volleyball team has a 5-2 record.', 'The user joined a chess league.']);
    // volleyball + league matched by the earlier item; the later shares volleyball (one of two): enough
    expect(order(orderUpdates(ranked(0.8, 0.76, 0.72), record, 'What is my current record in the volleyball league?'))).toEqual([2, 0, 1]);
    const three = layers(['The user plays in the recreational volleyball league on Mondays.', 'x', 'The volleyball team won.']);
    // recreational + volleyball + league: one of three shared is not enough
    expect(order(orderUpdates(ranked(0.8, 0.76, 0.72), three, 'What is my current record in the recreational volleyball league?'))).toEqual([0, 1, 2]);
  });

  it('takes as the update, of the later items that qualify, the one that says most of what the earlier one says', () => {
    // the two later statements come from one conversation, so the first cannot be overtaken by the second
    const club = layers(
      ['The user says their chess club results are improving.', 'x', 'The user is bringing a friend to the chess club.', 'The user says their chess results are improving this season, six wins and one loss.'],
      ['e0', 'e1', 'e2', 'e2'],
    );
    expect(order(orderUpdates(ranked(0.8, 0.79, 0.78, 0.74), club, 'What are my current chess club results?'))).toEqual([3, 0, 1, 2]);
    // what counts is what they share outside the question: both later items share two stems with the earlier
    // one, but only the second shares one the question does not have ("well")
    const ladder = layers(
      ['The user is doing well in the tennis ladder.', 'x', 'The user wants to invite a coworker to the tennis ladder.', 'The user is doing well at tennis, ranked fourth.'],
      ['e0', 'e1', 'e2', 'e2'],
    );
    expect(order(orderUpdates(ranked(0.8, 0.79, 0.78, 0.74), ladder, 'What is my current rank in the tennis ladder?'))).toEqual([3, 0, 1, 2]);
    // on a tie in what they share, the better-ranked one
    const tie = layers(['The user has two cats.', 'x', 'The user has three cats.', 'The user has four cats.'], ['e0', 'e1', 'e2', 'e2']);
    expect(order(orderUpdates(ranked(0.8, 0.79, 0.78, 0.74), tie, 'How many cats do I have now?'))).toEqual([2, 0, 1, 3]);
  });

  it('puts the last of a chain of updates first; each item moves once', () => {
    const counts = layers([
      'The user owns three bikes.',
      'The user owns four bikes now that a hybrid bike was bought.',
      'The user owns five bikes after buying a gravel bike.',
      'The user owns six bikes.',
    ]);
    const r = orderUpdates(ranked(0.8, 0.79, 0.78, 0.77), counts, 'How many bikes do I currently own?');
    expect(order(r)).toEqual([3, 2, 1, 0]);
    // the chain stops at the margin, counted from the score an item took
    const far = RANKING.updateMargin * 0.6;
    expect(order(orderUpdates(ranked(0.8, 0.8 - far, 0.8 - 2 * far, 0.8 - 3 * far), counts, 'How many bikes do I currently own?'))).toEqual([1, 0, 3, 2]);
  });
});
