import { describe, expect, it } from 'vitest';
import { OFFLINE_VECTOR_MODEL, analyseForIndex, decodeVector, encodeVector, serializeTerms } from '../text/analysis';
import { bm25Scores, buildIndex, postingsOf } from './score';
import { cosine, wordVectors } from '../text/word-vectors';

describe('stored terms', () => {
  it('rank exactly as analysing the text does: the same BM25 with term frequencies from repeated stems', () => {
    const texts = [
      'The user runs marathons and runs every morning before work.',
      'The user runs a bakery.',
      'The user adopted a puppy and walks the puppy every morning.',
      '',
    ];
    const meta = texts.map((_, i) => ({ id: String(i), category: 'fact', importance: 0.5, agentId: null, createdAt: 0 }));
    const fromText = buildIndex(meta, texts, null);
    const fromStored = buildIndex(meta, texts.map(() => 'ignored: stored terms win'), null, texts.map((t) => ({ terms: serializeTerms(t) })));
    for (const query of ['runs every morning', 'puppy', 'bakery runs', 'nothing here']) {
      expect([...bm25Scores(fromStored, query)]).toEqual([...bm25Scores(fromText, query)]);
    }
    expect(fromStored.memories[0]).toMatchObject({ terms: 'run marathon run everi morn work', length: 6 });
    expect(fromStored.memories[3]).toMatchObject({ terms: '', length: 0 });
    // "runs" twice in the first text: listed twice in a row (term frequency 2), once for the second
    expect(postingsOf(fromStored, 'run')).toEqual([0, 0, 1]);
    expect(postingsOf(fromStored, 'puppi')).toEqual([2, 2]);
    // whole stems only: "run" is not found inside "rerun" or "runner"
    expect(postingsOf(buildIndex(meta.slice(0, 2), ['', ''], null, [{ terms: 'rerun runner' }, { terms: 'run' }]), 'run')).toEqual([1]);
  });
});

describe('int8 vectors', () => {
  it('keep cosines within 1 %', () => {
    const a = Float32Array.from({ length: 100 }, (_, i) => Math.sin(i));
    const b = Float32Array.from({ length: 100 }, (_, i) => Math.cos(i * 0.7));
    const unit = (v: Float32Array) => {
      const n = Math.hypot(...v);
      return v.map((x) => x / n);
    };
    const [ua, ub] = [unit(a), unit(b)];
    const qa = decodeVector(encodeVector(ua));
    const qb = decodeVector(encodeVector(ub));
    expect(qa).not.toBeNull();
    expect(Math.abs(cosine(qa!, qb!) - cosine(ua, ub))).toBeLessThan(0.01);
    expect(cosine(qa!, qa!)).toBeCloseTo(1, 5);
    expect(decodeVector('')).toBeNull();
  });

  it('are made by the offline word vectors at write time, named so a different model is never compared', () => {
    const a = analyseForIndex('The user adopted a puppy.', wordVectors());
    expect(a.vectorModel).toBe(OFFLINE_VECTOR_MODEL);
    expect(a.terms).toBe('adopt puppi');
    expect(analyseForIndex('xqzt', wordVectors())).toEqual({ terms: 'xqzt', vector: null, vectorModel: null });
  });

  it("add a claim's slot words to the terms only, without repeating the text's own words", () => {
    const plain = analyseForIndex('The user moved to Porto.', wordVectors());
    const expanded = analyseForIndex('The user moved to Porto.', wordVectors(), 'lives live home residence porto');
    expect(expanded.terms).toBe('move porto live home resid');
    expect(expanded.vector).toBe(plain.vector);
  });

  it('are decoded into the index as stored; a malformed or foreign one is made again from the text', () => {
    const vectors = wordVectors();
    const texts = ['The user adopted a puppy.', 'The user plays the cello.', 'The user runs marathons.'];
    const stored = texts.map((t) => analyseForIndex(t, vectors));
    const meta = texts.map((_, i) => ({ id: String(i), category: 'fact', importance: 0.5, agentId: null, createdAt: 0 }));
    const idx = buildIndex(meta, texts, vectors, [
      { terms: stored[0].terms, storedVector: stored[0].vector },
      { terms: stored[1].terms, storedVector: 'not base64 of a vector' },
      { terms: stored[2].terms, storedVector: stored[0].vector!.slice(0, 20) },
    ]);
    const expected = decodeVector(stored[0].vector!)!;
    expect(idx.columns.hasVector[0]).toBe(1);
    for (let d = 0; d < vectors!.dimensions; d++) expect(idx.memories[0].vector![d]).toBeCloseTo(expected[d], 6);
    expect(cosine(idx.memories[1].vector!, vectors!.embed(texts[1])!)).toBeCloseTo(1, 5);
    expect(cosine(idx.memories[2].vector!, vectors!.embed(texts[2])!)).toBeCloseTo(1, 5);
  });
});
