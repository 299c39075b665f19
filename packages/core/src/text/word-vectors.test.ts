import { describe, expect, it } from 'vitest';
import { cosine, dotAt } from './word-vectors';

/** The plain one-total dot product the fast versions must agree with. */
function naiveDot(a: ArrayLike<number>, b: ArrayLike<number>, offset = 0): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[offset + i];
  return s;
}

/** Deterministic pseudo-random floats in [-1, 1). */
function floats(n: number, seed: number): Float32Array {
  const out = new Float32Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out[i] = x / 1073741824 - 1;
  }
  return out;
}

describe('cosine', () => {
  it('is the dot product for every length, including ones not divisible by four', () => {
    for (const n of [0, 1, 2, 3, 4, 5, 7, 100, 101, 512]) {
      const a = floats(n, n + 1);
      const b = floats(n, n + 7);
      expect(cosine(a, b)).toBeCloseTo(naiveDot(a, b), 5);
    }
  });

  it('is 1 for a unit vector with itself and -1 with its opposite', () => {
    const v = new Float32Array([0.6, 0, 0.8, 0, 0]);
    expect(cosine(v, v)).toBeCloseTo(1, 6);
    expect(cosine(v, v.map((x) => -x))).toBeCloseTo(-1, 6);
  });
});

describe('dotAt', () => {
  it('gives the query against each vector stored one after another (a length not a multiple of four)', () => {
    const dims = 101;
    const count = 6;
    const query = floats(dims, 3);
    const vectors = floats(dims * count, 11);
    for (let i = 0; i < count; i++) expect(dotAt(query, vectors, i * dims)).toBeCloseTo(naiveDot(query, vectors, i * dims), 5);
  });

  it('reads each vector at its own offset (the last vector is not the first)', () => {
    const query = new Float32Array([1, 0, 0, 0, 0]);
    const vectors = new Float32Array([0.1, 0, 0, 0, 0, 0.2, 0, 0, 0, 0, 0.3, 0, 0, 0, 0]);
    expect([0, 5, 10].map((at) => Math.round(dotAt(query, vectors, at) * 10) / 10)).toEqual([0.1, 0.2, 0.3]);
  });
});
