import { describe, expect, it } from 'vitest';
import { dequantize, quantize, quantizedBytes, quantizedCosine } from './quantize';

/** Deterministic unit vectors (mulberry32 + Box–Muller). */
function unitVectors(count: number, dims: number, seed = 7): Float32Array[] {
  let s = seed >>> 0;
  const rand = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return Array.from({ length: count }, () => {
    const v = new Float32Array(dims);
    let norm = 0;
    for (let i = 0; i < dims; i++) {
      v[i] = Math.sqrt(-2 * Math.log(rand() + 1e-12)) * Math.cos(2 * Math.PI * rand());
      norm += v[i] * v[i];
    }
    for (let i = 0; i < dims; i++) v[i] /= Math.sqrt(norm);
    return v;
  });
}

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);

describe('quantize', () => {
  it('stores a vector in 4 + d bytes: the scale, then one signed byte per dimension', () => {
    const v = Float32Array.from([0.6, -0.8, 0]);
    const q = quantize(v);
    expect(q.length).toBe(quantizedBytes(3));
    expect(new DataView(q.buffer).getFloat32(0, true)).toBeCloseTo(0.8 / 127, 7);
    expect([...new Int8Array(q.buffer, 4)]).toEqual([95, -127, 0]);
  });

  it('round-trips unit vectors to unit vectors within a small error', () => {
    for (const v of unitVectors(50, 512)) {
      const back = dequantize(quantize(v));
      expect(back.length).toBe(512);
      expect(dot(back, back)).toBeCloseTo(1, 5);
      expect(dot(v, back)).toBeGreaterThan(0.9995);
    }
  });

  it('keeps cosines between vectors within 0.002, dequantised or compared quantised', () => {
    const vs = unitVectors(40, 512, 11);
    // pairs with some real similarity as well as near-orthogonal ones
    vs.push(...vs.slice(0, 10).map((v, k) => {
      const w = v.map((x, i) => x + 0.7 * vs[k + 10][i]);
      const n = Math.sqrt(dot(w, w));
      return w.map((x) => x / n);
    }));
    const qs = vs.map(quantize);
    let worst = 0;
    for (let i = 0; i < vs.length; i++) {
      for (let j = i + 1; j < vs.length; j++) {
        const exact = dot(vs[i], vs[j]);
        worst = Math.max(worst, Math.abs(exact - dot(dequantize(qs[i]), dequantize(qs[j]))));
        worst = Math.max(worst, Math.abs(exact - quantizedCosine(qs[i], qs[j])));
      }
    }
    expect(worst).toBeLessThan(0.002);
  });

  it('leaves the scale in place when asked not to normalise', () => {
    const v = Float32Array.from([0.5, 0.25, -0.125]);
    const back = dequantize(quantize(v), false);
    back.forEach((x, i) => expect(x).toBeCloseTo(v[i], 2));
  });

  it('reads a vector from a Buffer view at an offset (as from the database)', () => {
    const v = unitVectors(1, 16, 3)[0];
    const q = quantize(v);
    const pool = Buffer.alloc(q.length + 7);
    pool.set(q, 7);
    const view = pool.subarray(7);
    expect([...dequantize(view)]).toEqual([...dequantize(q)]);
    expect(quantizedCosine(view, q)).toBeCloseTo(1, 6);
  });

  it('turns a zero vector into zeros and refuses NaN, short input and mismatched lengths', () => {
    expect([...dequantize(quantize(new Float32Array(4)))]).toEqual([0, 0, 0, 0]);
    expect(quantizedCosine(quantize(new Float32Array(4)), quantize(Float32Array.from([1, 0, 0, 0])))).toBe(0);
    expect(() => quantize(Float32Array.from([0, Number.NaN]))).toThrow(RangeError);
    expect(() => dequantize(new Uint8Array(3))).toThrow(RangeError);
    expect(() => quantizedCosine(new Uint8Array(8), new Uint8Array(9))).toThrow(RangeError);
  });
});
