import { describe, expect, it } from 'vitest';
import { OFFLINE_VECTOR_MODEL, analyseForIndex, decodeVector, encodeVector, parseTerms, serializeTerms } from './analysis';
import { termFrequencies } from './text';
import { cosine, wordVectors } from './word-vectors';

describe('stored terms', () => {
  it('round-trip to the same term frequencies as analysing the text', () => {
    const text = 'The user runs marathons and runs every morning before work.';
    const parsed = parseTerms(serializeTerms(text));
    expect(parsed.terms).toEqual(termFrequencies(text));
    expect(parsed.length).toBe(6);
    expect(parseTerms('')).toEqual({ terms: new Map(), length: 0 });
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
});
