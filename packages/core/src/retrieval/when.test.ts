import { describe, expect, it } from 'vitest';
import { buildIndex, rankLayers } from './score';
import { type DateWindow, calendarWindow, relativeWindow, tellsOfDayWithin, withoutPhrase } from './when';

// asked on Thursday 9 October 2025, in the afternoon
const ASKED = Date.parse('2025-10-09T15:30:00Z');
const DAY = 86_400_000;
/** Memories of equal importance, each said `daysAgo` days before ASKED. */
const saidIndex = (prefix: string, said: { text: string; daysAgo: number }[]) =>
  buildIndex(
    said.map((m, i) => ({ id: `${prefix}${i}`, category: 'fact', importance: 0.5, agentId: null, createdAt: ASKED - m.daysAgo * DAY })),
    said.map((m) => m.text),
    null,
  );
const days = (w: DateWindow | null) =>
  w === null ? null : { from: new Date(w.from).toISOString().slice(0, 10), last: new Date(w.to - 1).toISOString().slice(0, 10) };

describe('relativeWindow: the days a relative date in a question names', () => {
  it('counts days, weeks and months back from when the question is asked, with room that grows with the distance', () => {
    expect(days(relativeWindow('What did I bake 3 days ago?', ASKED))).toEqual({ from: '2025-10-05', last: '2025-10-07' });
    expect(days(relativeWindow('Which film did I see a couple of days ago?', ASKED))).toEqual({ from: '2025-10-06', last: '2025-10-08' });
    // 29 September, two days either way
    expect(days(relativeWindow('What game did I buy ten days ago?', ASKED))).toEqual({ from: '2025-09-27', last: '2025-10-01' });
    // 25 September, three days either way
    expect(days(relativeWindow('Where did I hike two weeks ago?', ASKED))).toEqual({ from: '2025-09-22', last: '2025-09-28' });
    expect(days(relativeWindow('I mentioned a recipe a week ago. What was in it?', ASKED))).toEqual({ from: '2025-10-01', last: '2025-10-03' });
    // 10 August, fifteen days either way
    expect(days(relativeWindow('Who did I meet two months ago?', ASKED))).toEqual({ from: '2025-07-26', last: '2025-08-25' });
  });

  it('reads "last <weekday>" as the most recent such day before today, "yesterday" as the day before', () => {
    expect(days(relativeWindow('Who came with me to the gig last Saturday?', ASKED))).toEqual({ from: '2025-10-03', last: '2025-10-05' });
    // asked on a Thursday, "last Thursday" is a week back
    expect(days(relativeWindow('What did I cook last Thursday?', ASKED))).toEqual({ from: '2025-10-01', last: '2025-10-03' });
    expect(days(relativeWindow('What did I say about the boiler yesterday?', ASKED))).toEqual({ from: '2025-10-07', last: '2025-10-09' });
    expect(days(relativeWindow('Where did we go last weekend?', ASKED))).toEqual({ from: '2025-10-03', last: '2025-10-06' });
  });

  it('names no window for spans that hold talk about earlier events, or without a relative date', () => {
    for (const q of ['What did I read last month?', 'How many trips did I take this year?', 'What did I buy recently?', 'Where do I work?'])
      expect(relativeWindow(q, ASKED), q).toBeNull();
    expect(relativeWindow('What did I bake 3 days ago?', Number.NaN)).toBeNull();
  });

  it('takes the phrase out of the words matched against what was said', () => {
    const w = relativeWindow('Who came with me to the gig last Saturday?', ASKED);
    expect(withoutPhrase('Who came with me to the gig last Saturday?', w)).toBe('Who came with me to the gig ?');
    expect(withoutPhrase('Where do I work?', null)).toBe('Where do I work?');
  });
});

describe('ranking with a relative date', () => {
  const memories = saidIndex('m', [
    { text: 'The user bought a stand mixer for the kitchen.', daysAgo: 10 },
    { text: 'The user bought a new toaster for the kitchen.', daysAgo: 40 },
    { text: 'The user walked the dog along the canal.', daysAgo: 40 },
  ]);
  const ranked = (query: string, askedAt?: number) =>
    rankLayers({ memories, passages: null }, query, {}, 10, ASKED, askedAt === undefined ? {} : { askedAt }).map((r) => r.index);

  it('puts what was said on the named days first, and never adds an item that does not match', () => {
    // without a date the later purchase comes first (recency)
    expect(ranked('What did I buy for the kitchen?')).toEqual([0, 1]);
    expect(ranked('What did I buy for the kitchen 40 days ago?')).toEqual([1, 0]);
  });

  it("counts from the question's reference_time when one is given", () => {
    // asked 30 days later, "70 days ago" is the toaster's day; counted from the request it would be no one's
    expect(ranked('What did I buy for the kitchen 70 days ago?', ASKED + 30 * DAY)).toEqual([1, 0]);
    expect(ranked('What did I buy for the kitchen 70 days ago?')).toEqual([0, 1]);
  });

  it('reads the phrase as words when nothing was said on the days it names', () => {
    const spoken = buildIndex(
      [0, 1].map((i) => ({ id: `s${i}`, category: 'fact', importance: 0.5, agentId: null, createdAt: ASKED - 400 * DAY })),
      ['Joanna wrote a poem yesterday that appeared on the big screen.', 'Joanna wrote a poem on the big screen.'],
      null,
    );
    // asked today about a conversation a year ago: "yesterday" names no day anything was said on, so it matches
    const order = rankLayers({ memories: spoken, passages: null }, 'What did Joanna write yesterday?', {}, 10, ASKED).map((r) => r.index);
    expect(order).toEqual([0, 1]);
  });
});

describe('tellsOfDayWithin: an item that tells of something on the named days', () => {
  // "two weeks ago": 22 to 28 September 2025
  const window = relativeWindow('Where did I hike two weeks ago?', ASKED) as DateWindow;
  const on = (iso: string) => Date.parse(`${iso}T12:00:00Z`);

  it('reads a day written into the text, whenever it was said', () => {
    expect(tellsOfDayWithin('user plant tomato seedl 25 septemb 2025', on('2025-10-08'), window)).toBe(true);
    expect(tellsOfDayWithin('user finish novel 28 septemb 2025', on('2025-09-28'), window)).toBe(true);
    expect(tellsOfDayWithin('user plant tomato seedl 12 septemb 2025', on('2025-09-25'), window)).toBe(false);
    expect(tellsOfDayWithin('user plant tomato seedl 25 septemb 2024', on('2025-09-25'), window)).toBe(false);
  });

  it('reads "today" and "tonight" as the day it was said, "yesterday" as the day before', () => {
    expect(tellsOfDayWithin('just plant tomato seedl today', on('2025-09-24'), window)).toBe(true);
    expect(tellsOfDayWithin('cook risotto tonight', on('2025-09-22'), window)).toBe(true);
    expect(tellsOfDayWithin('just plant tomato seedl today', on('2025-10-02'), window)).toBe(false);
    expect(tellsOfDayWithin('yesterday plant tomato seedl', on('2025-09-29'), window)).toBe(true);
    expect(tellsOfDayWithin('yesterday plant tomato seedl', on('2025-09-22'), window)).toBe(false);
  });

  it('does not count what was merely said on those days', () => {
    expect(tellsOfDayWithin('user like garden centr', on('2025-09-25'), window)).toBe(false);
    expect(tellsOfDayWithin('user like garden centr', on('2025-09-25') - DAY, window)).toBe(false);
  });
});

describe('ranking with a relative date: what happened on the named days', () => {
  const memories = saidIndex('g', [
    { text: 'The user likes browsing garden centres for new plants.', daysAgo: 60 },
    { text: 'The user planted twelve tomato seedlings on 25 September 2025.', daysAgo: 13 },
    { text: 'The user walked the dog along the canal.', daysAgo: 14 },
    { text: 'The user asked which trains run to the coast.', daysAgo: 14 },
  ]);
  const passages = buildIndex(
    [{ id: 'p0', category: 'conversation', importance: 0, agentId: null, createdAt: ASKED - 15 * DAY }],
    ['I just repotted the basil today, it had outgrown its pot.'],
    null,
  );
  const ranked = (query: string) =>
    rankLayers({ memories, passages }, query, {}, 10, ASKED, { askedAt: ASKED }).map((r) => `${r.layer}:${r.index}`);

  it('matches an event dated to those days, or told there with "today", whatever its words', () => {
    // without the date only the word match is found
    expect(ranked('What did I do in the garden?')).toEqual(['memory:0']);
    // with it, what happened then too; what was merely said then (the dog, the trains) still does not match
    const order = ranked('What did I do in the garden two weeks ago?');
    expect([...order].sort()).toEqual(['memory:0', 'memory:1', 'passage:0']);
    // and it gains more than being said then: the passage told "today" above the word match said long before
    expect(order.indexOf('passage:0')).toBeLessThan(order.indexOf('memory:0'));
  });

  it('leaves a calendar date to its words: the passage that says "today" is not matched', () => {
    expect(ranked('What did I do in the garden on 25 September, 2025?')).toEqual(['memory:1', 'memory:0']);
  });
});

describe('calendarWindow: the days a calendar date with its year names', () => {
  it('reads a day in either order, with a day of room either way, and a month', () => {
    expect(days(calendarWindow('What did Priya cook on 14 March, 2024?'))).toEqual({ from: '2024-03-13', last: '2024-03-15' });
    expect(days(calendarWindow('Where was Omar on July 4th, 2022?'))).toEqual({ from: '2022-07-03', last: '2022-07-05' });
    expect(days(calendarWindow('What was Lena working on as of 1 February 2025?'))).toEqual({ from: '2025-01-31', last: '2025-02-02' });
    expect(days(calendarWindow('Which course did Omar start in September 2023?'))).toEqual({ from: '2023-09-01', last: '2023-09-30' });
  });

  it('names nothing without a year, for a day that does not exist, or without a date', () => {
    for (const q of ['How many concerts did I go to in December?', 'What did I plant on 3 May?', 'What happened on 31 February 2023?', 'Where do I work?'])
      expect(calendarWindow(q), q).toBeNull();
  });

  it('keeps its words: a calendar date is written in memories too', () => {
    const q = 'What did Priya cook on 14 March, 2024?';
    expect(withoutPhrase(q, calendarWindow(q))).toBe(q);
  });
});

describe('ranking with a calendar date', () => {
  const MARCH_14 = Date.parse('2024-03-14T18:00:00Z');
  const said = [
    { text: 'Priya cooked a lentil curry for her neighbours.', at: MARCH_14 },
    { text: 'Priya cooked a mushroom risotto for her sister.', at: MARCH_14 + 20 * DAY },
  ];
  const memories = buildIndex(
    said.map((m, i) => ({ id: `c${i}`, category: 'event', importance: 0.5, agentId: null, createdAt: m.at })),
    said.map((m) => m.text),
    null,
  );
  const ranked = (query: string) => rankLayers({ memories, passages: null }, query, {}, 10, ASKED).map((r) => r.index);

  it('puts what was said on the named day first', () => {
    // without a date the later one comes first (recency)
    expect(ranked('What did Priya cook?')).toEqual([1, 0]);
    expect(ranked('What did Priya cook on 14 March, 2024?')).toEqual([0, 1]);
    expect(ranked('What did Priya cook in April 2024?')).toEqual([1, 0]);
  });
});
