import { describe, expect, it } from 'vitest';
import type { LayeredRanked } from './candidate-index';
import { asksAcrossEvents, spreadHead } from './spread';
import { RANKING } from './weights';

// items named by their source event and place: "a1" is the first item of conversation a
type Item = LayeredRanked & { name: string };
const list = (...entries: [string, number][]): Item[] =>
  entries.map(([name, relevance], index) => ({ layer: 'memory', index, relevance, name }));
const eventOf = (item: Item) => (item.name.startsWith('-') ? null : item.name[0]);
const names = (items: Item[]) => items.map((i) => i.name);

describe('asksAcrossEvents', () => {
  it('reads counts, orders, intervals, comparisons and the current state as questions about several events', () => {
    for (const q of [
      'How many concerts did I go to this spring?',
      'How much have I spent on bike parts in total?',
      'Which did I start first, the pottery class or the choir?',
      'How many days passed between my two dentist visits?',
      'Did I get the same kind of tent as my brother?',
      'Where do I live now?',
      'What is my most recent running time?',
      'Am I still learning Portuguese?',
    ])
      expect(asksAcrossEvents(q), q).toBe(true);
  });

  it('leaves a question about one thing as it is', () => {
    for (const q of ['Where did I buy my hiking boots?', "What is my sister's name?", 'What did you tell me about pruning roses?'])
      expect(asksAcrossEvents(q), q).toBe(false);
  });
});

describe('spreadHead', () => {
  it('brings up a nearly as relevant item of another conversation among the first places', () => {
    const items = list(['a1', 0.8], ['a2', 0.79], ['a3', 0.785], ['b1', 0.782], ['a4', 0.7]);
    const spread = spreadHead(items, 'How many concerts did I go to?', eventOf);
    expect(names(spread)).toEqual(['a1', 'b1', 'a2', 'a3', 'a4']);
    // every place keeps its score: the list stays ordered by relevance
    expect(spread.map((i) => i.relevance)).toEqual([0.8, 0.79, 0.785, 0.782, 0.7]);
  });

  it('never brings up a much less relevant item', () => {
    const items = list(['a1', 0.8], ['a2', 0.79], ['a3', 0.785], ['a4', 0.78], ['a5', 0.775], ['b1', 0.6]);
    expect(names(spreadHead(items, 'How many concerts did I go to?', eventOf))).toEqual(['a1', 'a2', 'a3', 'a4', 'a5', 'b1']);
  });

  it('lowers an item once for each item of its conversation already placed', () => {
    // b1 is 0.015 below a2: one placed item of a (0.01) is not enough, two (0.02) are
    const items = list(['a1', 0.8], ['a2', 0.79], ['a3', 0.789], ['b1', 0.775], ['c1', 0.5]);
    expect(names(spreadHead(items, 'How many concerts did I go to?', eventOf))).toEqual(['a1', 'a2', 'b1', 'a3', 'c1']);
  });

  it(`spreads only the first ${RANKING.spreadHead} places; the rest keep their order`, () => {
    const items = list(['a1', 0.9], ['a2', 0.9], ['a3', 0.9], ['a4', 0.9], ['a5', 0.9], ['a6', 0.9], ['b1', 0.895], ['c1', 0.894]);
    const spread = spreadHead(items, 'What is my most recent running time?', eventOf);
    expect(names(spread)).toEqual(['a1', 'b1', 'c1', 'a2', 'a3', 'a4', 'a5', 'a6']);
  });

  it('never lowers an item without a source event, and keeps order on a tie', () => {
    const items = list(['-1', 0.8], ['-2', 0.8], ['-3', 0.79], ['a1', 0.79]);
    expect(names(spreadHead(items, 'How many concerts did I go to?', eventOf))).toEqual(['-1', '-2', '-3', 'a1']);
  });

  it('leaves the list of a question about one thing as ranked', () => {
    const items = list(['a1', 0.8], ['a2', 0.79], ['b1', 0.789]);
    expect(names(spreadHead(items, 'Where did I buy my hiking boots?', eventOf))).toEqual(['a1', 'a2', 'b1']);
  });
});
