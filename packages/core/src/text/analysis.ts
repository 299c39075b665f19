/**
 * Ranking inputs computed once, when a memory or passage is written, and stored beside it (`terms`, `vector`,
 * `vector_model`): loading a user's set for retrieval then parses strings instead of analysing every text
 * again, which is what made the first retrieve of a user slow.
 *
 * - terms: the text's stems in order (text.ts `analyze`), space-separated; score.ts builds its postings from them.
 * - vector: a unit vector quantised to int8 with one float32 scale (embeddings/quantize.ts), base64-encoded —
 *   text, so both engines return it the same way; the error is below 1 % of a cosine.
 */
import { dequantize, quantize } from '../embeddings/quantize';
import { analyze } from './terms';
import { type WordVectors, wordVectors } from './word-vectors';

/** The name stored with vectors made by the offline word vectors (word-vectors.ts). */
export const OFFLINE_VECTOR_MODEL = 'glove-sif-100';

export function serializeTerms(text: string): string {
  return analyze(text).join(' ');
}

/** A unit vector as stored: the int8 form of embeddings/quantize.ts, base64-encoded. */
export function encodeVector(v: Float32Array): string {
  return Buffer.from(quantize(v)).toString('base64');
}

/** The stored vector back as a unit vector, or null when the string is not one. */
export function decodeVector(stored: string): Float32Array | null {
  const bytes = Buffer.from(stored, 'base64');
  if (bytes.length < 5) return null;
  const v = dequantize(bytes);
  return v.some((x) => x !== 0) ? v : null;
}

export interface StoredAnalysis {
  terms: string;
  vector: string | null;
  vectorModel: string | null;
}

/**
 * What a memory or passage stores at write time (the offline vector; a configured encoder replaces it later).
 * `expansion` adds index words that the text implies but does not say — a claim's slot words (claims.ts
 * `slotWords`: "The user moved to Porto." is also found by "where does the user live") — to the terms only.
 */
export function analyseForIndex(text: string, vectors: WordVectors | null = wordVectors(), expansion = ''): StoredAnalysis {
  const v = vectors?.embed(text) ?? null;
  const terms = analyze(text);
  // only the words the text does not already have: the expansion names the slot, it does not repeat it
  const extra = expansion ? [...new Set(analyze(expansion))].filter((t) => !terms.includes(t)) : [];
  return { terms: [...terms, ...extra].join(' '), vector: v ? encodeVector(v) : null, vectorModel: v ? OFFLINE_VECTOR_MODEL : null };
}
