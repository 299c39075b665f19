import { describe, expect, it } from 'vitest';
import { analyze } from '../text/terms';
import { bm25Scores, buildIndex } from './candidate-index';
import { otherForms, withVerbForms } from './verb-forms';

const asked = (query: string) => new Map(analyze(query).map((s) => [s, 1]));
/** An index of `texts` with no vectors: what BM25 ranks them by. */
const indexOf = (texts: string[]) =>
  buildIndex(
    texts.map((_, i) => ({ id: String(i), category: 'conversation', importance: 0, agentId: null, createdAt: 0 })),
    texts,
    null,
  );

describe('otherForms', () => {
  it('joins the base form and the past forms of an irregular verb, both ways', () => {
    expect(otherForms(analyze('buy')[0])).toEqual(analyze('bought purchase'));
    expect(otherForms(analyze('bought')[0])).toEqual(analyze('buy purchase'));
    expect(otherForms(analyze('swim')[0])).toEqual(analyze('swam swum'));
    expect(otherForms(analyze('written')[0])).toEqual(analyze('write wrote'));
    // "selling" and "sells" are one stem with "sell" already
    expect(otherForms(analyze('selling')[0])).toEqual(analyze('sold'));
  });

  it('leaves light verbs, forms that are mostly other words, and regular verbs alone', () => {
    for (const w of ['get', 'got', 'went', 'take', 'made', 'thought', 'found', 'left', 'rose', 'shot', 'bit', 'paint', 'visited']) {
      expect(otherForms(analyze(w)[0] ?? w)).toEqual([]);
    }
  });
});

describe('withVerbForms', () => {
  it("adds the verb's other forms at the query term's weight, and keeps every term already there", () => {
    const terms = withVerbForms(new Map([...asked('Where did I meet Lena?'), ['lena', 0.5]]));
    expect(terms.get(analyze('met')[0])).toBe(1);
    expect(terms.get('lena')).toBe(0.5);
    const sold = withVerbForms(new Map([[analyze('sell')[0], 0.5], [analyze('sold')[0], 1]]));
    expect(sold.get(analyze('sold')[0])).toBe(1);
    expect(sold.get(analyze('sell')[0])).toBe(0.5);
    expect([...withVerbForms(asked('Which museum did I visit in Rome?')).keys()]).toEqual(analyze('Which museum did I visit in Rome?'));
  });

  it('lets a question about buying find "got", and not the other way', () => {
    const got = analyze('got')[0];
    expect(withVerbForms(asked('Which lamp did I purchase last month?')).get(got)).toBe(1);
    expect(withVerbForms(asked('What did I buy for the garden?')).has(got)).toBe(true);
    expect(withVerbForms(asked('What did I get for my birthday?')).has(analyze('bought')[0])).toBe(false);
    expect(withVerbForms(asked('Where did I go skiing?')).has(got)).toBe(false);
  });

  it('joins "purchase" and "buy" both ways: the same act in a formal word', () => {
    const purchased = withVerbForms(asked('How much feed did I purchase for the hens?'));
    expect(purchased.get(analyze('bought')[0])).toBe(1);
    expect(purchased.get(analyze('buy')[0])).toBe(1);
    expect(withVerbForms(asked('Where did I buy the bike?')).get(analyze('purchases')[0])).toBe(1);
    expect(withVerbForms(asked('Which headphones have I bought?')).has(analyze('purchased')[0])).toBe(true);
    const texts = ['I bought 20 pounds of scratch grains for the hens.', 'The hens love the grains from the market.'];
    const idx = indexOf(texts);
    const q = 'What grains did I purchase for the hens?';
    // both match "grains" and "hens" only; the purchase's longer line scores lower
    expect(bm25Scores(idx, q)[0]).toBeLessThan(bm25Scores(idx, q)[1]);
    const scores = bm25Scores(idx, q, withVerbForms(asked(q)));
    expect(scores[0]).toBeGreaterThan(scores[1]);
  });

  it('finds what was told in the past by the question asked with the base form', () => {
    const texts = ['I bought a cast-iron skillet at the flea market.', 'We met at a climbing gym in Leeds.', 'I walked to the flea market.'];
    const idx = indexOf(texts);
    const q1 = 'What did I buy at the flea market?';
    // both match "flea market" only; the skillet's longer line scores lower
    expect(bm25Scores(idx, q1)[0]).toBeLessThan(bm25Scores(idx, q1)[2]);
    const scores = bm25Scores(idx, q1, withVerbForms(asked(q1)));
    expect(scores[0]).toBeGreaterThan(scores[2]);
    const q2 = 'Where did they meet?';
    expect(bm25Scores(idx, q2)[1]).toBe(0);
    expect(bm25Scores(idx, q2, withVerbForms(asked(q2)))[1]).toBeGreaterThan(0);
  });
});
