/**
 * Ranking inputs computed once, when a memory or passage is written, and stored beside it (`terms`, `vector`,
 * `vector_model`): loading a user's set for retrieval then parses strings instead of analysing every text
 * again, which is what made the first retrieve of a user slow.
 *
 * - terms: the text's stems in order (text.ts `analyze`), space-separated.
 * - vector: a unit vector quantised to int8 with one float32 scale (4 + d bytes), base64-encoded — text,
 *   so both engines return it the same way; the error is below 1 % of a cosine.
 */
import { analyze } from './text';
import { type WordVectors, wordVectors } from './word-vectors';

/** The name stored with vectors made by the offline word vectors (word-vectors.ts). */
export const OFFLINE_VECTOR_MODEL = 'glove-sif-100';

export function serializeTerms(text: string): string {
  return analyze(text).join(' ');
}

/** Term frequencies and length from stored terms. */
export function parseTerms(stored: string): { terms: Map<string, number>; length: number } {
  const terms = new Map<string, number>();
  let length = 0;
  if (stored.length > 0) {
    for (const t of stored.split(' ')) {
      terms.set(t, (terms.get(t) ?? 0) + 1);
      length++;
    }
  }
  return { terms, length };
}

export function quantize(v: Float32Array): string {
  let max = 0;
  for (let i = 0; i < v.length; i++) max = Math.max(max, Math.abs(v[i]));
  const scale = max > 0 ? max / 127 : 1;
  const buf = Buffer.alloc(4 + v.length);
  buf.writeFloatLE(scale, 0);
  for (let i = 0; i < v.length; i++) buf.writeInt8(Math.round(v[i] / scale), 4 + i);
  return buf.toString('base64');
}

/** The stored vector back as a unit vector, or null when the string is not one. */
export function dequantize(stored: string): Float32Array | null {
  const buf = Buffer.from(stored, 'base64');
  if (buf.length < 5) return null;
  // the scale does not matter for a unit vector: only the int8 components are read
  const body = new Int8Array(buf.buffer, buf.byteOffset + 4, buf.length - 4);
  const v = new Float32Array(body.length);
  let norm = 0;
  for (let i = 0; i < v.length; i++) {
    v[i] = body[i];
    norm += v[i] * v[i];
  }
  norm = Math.sqrt(norm);
  if (!(norm > 0)) return null;
  for (let i = 0; i < v.length; i++) v[i] /= norm;
  return v;
}

export interface StoredAnalysis {
  terms: string;
  vector: string | null;
  vectorModel: string | null;
}

/** What a memory or passage stores at write time (the offline vector; a configured encoder replaces it later). */
export function analyseForIndex(text: string, vectors: WordVectors | null = wordVectors()): StoredAnalysis {
  const v = vectors?.embed(text) ?? null;
  return { terms: serializeTerms(text), vector: v ? quantize(v) : null, vectorModel: v ? OFFLINE_VECTOR_MODEL : null };
}
