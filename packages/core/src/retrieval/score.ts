/**
 * Exact hybrid ranking over one user's candidate set (no approximate index: every memory is scored).
 *
 *   relevance = 0.5 × lexical + 0.25 × semantic + 0.1 × importance + 0.05 × recency + 0.05 × entity
 *               + feedback
 *
 * lexical: BM25 over the user's memories (Snowball stems), mapped into [0, 1) by s / (s + 2);
 * semantic: cosine (clamped at 0) between sentence vectors: the configured embeddings model's when the
 *   memory and the query both have one, else the offline word vectors (word-vectors.ts);
 * importance: the memory's current importance (lifecycle-adjusted, docs/lifecycle.md);
 * recency: halves every 90 days; entity: the share of the entities named in the query that the memory is
 *   linked to (compositional pass); feedback: 0.05 × tanh(feedback_score), from retrieval feedback.
 */
import { termFrequencies } from './text';
import { type WordVectors, cosine, wordVectors } from './word-vectors';

export const RANKING = {
  lexicalWeight: 0.5,
  semanticWeight: 0.25,
  importanceWeight: 0.1,
  recencyWeight: 0.05,
  entityWeight: 0.05,
  feedbackWeight: 0.05,
  /** BM25 parameters. */
  k1: 1.2,
  b: 0.75,
  /** s / (s + saturation) maps an unbounded BM25 score into [0, 1). */
  lexicalSaturation: 2,
  recencyHalfLifeDays: 90,
} as const;

export interface IndexedMemory {
  id: string;
  category: string;
  importance: number;
  agentId: string | null;
  createdAt: number;
  /** Net retrieval feedback (memories.feedback_score). */
  feedbackScore?: number;
  /** Lower-cased names of the entities the memory is linked to. */
  entities?: string[];
  /** The configured embeddings model's vector, when there is one. */
  embedding?: Float32Array | null;
  /** Offline sentence vector (word vectors), computed when the index is built. */
  vector: Float32Array | null;
  /** term -> frequency */
  terms: Map<string, number>;
  length: number;
}

export interface CandidateIndex {
  memories: IndexedMemory[];
  /** term -> indices of memories containing it */
  postings: Map<string, number[]>;
  avgLength: number;
  vectors: WordVectors | null;
}

export function buildIndex(
  memories: Omit<IndexedMemory, 'terms' | 'length' | 'vector'>[],
  contents: string[],
  vectors: WordVectors | null = wordVectors(),
): CandidateIndex {
  const indexed: IndexedMemory[] = [];
  const postings = new Map<string, number[]>();
  let total = 0;
  memories.forEach((m, i) => {
    const terms = termFrequencies(contents[i]);
    let length = 0;
    for (const [t, n] of terms) {
      length += n;
      const list = postings.get(t);
      if (list) list.push(i);
      else postings.set(t, [i]);
    }
    total += length;
    indexed.push({ ...m, vector: vectors?.embed(contents[i]) ?? null, terms, length });
  });
  return { memories: indexed, postings, avgLength: indexed.length ? total / indexed.length : 0, vectors };
}

export interface QuerySignals {
  /** The query's vector from the configured embeddings model (compared with memories' `embedding`). */
  embedding?: Float32Array | null;
  /** Lower-cased entity names found in the query. */
  entities?: string[];
}

export interface RankFilters {
  categories?: string[];
  agentId?: string | null;
  /** only memories created at or after this time (ms) */
  createdAfter?: number;
}

export interface Ranked {
  index: number;
  relevance: number;
}

/** Exact BM25 of the query against every memory of the index (0 for memories without a query term). */
export function bm25Scores(idx: CandidateIndex, query: string): Float64Array {
  const n = idx.memories.length;
  const lexical = new Float64Array(n);
  const queryTerms = [...new Set(termFrequencies(query).keys())];
  for (const term of queryTerms) {
    const list = idx.postings.get(term);
    if (!list) continue;
    const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
    for (const i of list) {
      const m = idx.memories[i];
      const tf = m.terms.get(term) ?? 0;
      const norm = tf + RANKING.k1 * (1 - RANKING.b + (RANKING.b * m.length) / (idx.avgLength || 1));
      lexical[i] += (idf * tf * (RANKING.k1 + 1)) / norm;
    }
  }
  return lexical;
}

/** The k best documents by BM25 alone, best first (ties: lower index first). The benchmarks' reference. */
export function bm25Top(idx: CandidateIndex, query: string, k: number): Ranked[] {
  const scores = bm25Scores(idx, query);
  return [...scores.keys()]
    .filter((i) => scores[i] > 0)
    .sort((a, b) => scores[b] - scores[a] || a - b)
    .slice(0, k)
    .map((i) => ({ index: i, relevance: scores[i] }));
}

/**
 * Two memories say nearly the same thing: their stem sets overlap by Jaccard ≥ 0.8, or by ≥ 0.5 with
 * sentence vectors at cosine ≥ 0.95. The lower-ranked one is left out of the results (it stays stored).
 */
export const NEAR_DUPLICATE = { jaccard: 0.8, jaccardWithVectors: 0.5, cosine: 0.95 } as const;

export function nearDuplicate(a: IndexedMemory, b: IndexedMemory): boolean {
  let shared = 0;
  for (const t of a.terms.keys()) if (b.terms.has(t)) shared++;
  const union = a.terms.size + b.terms.size - shared;
  const jaccard = union === 0 ? 1 : shared / union;
  if (jaccard >= NEAR_DUPLICATE.jaccard) return true;
  return jaccard >= NEAR_DUPLICATE.jaccardWithVectors && a.vector !== null && b.vector !== null && cosine(a.vector, b.vector) >= NEAR_DUPLICATE.cosine;
}

/** The best `limit` memories, near-duplicates of better-ranked ones collapsed. */
export function rankCandidates(
  idx: CandidateIndex,
  query: string,
  filters: RankFilters,
  limit: number,
  now: number,
  signals: QuerySignals = {},
): Ranked[] {
  const pool = scoreCandidates(idx, query, filters, limit * 2 + 5, now, signals);
  const out: Ranked[] = [];
  for (const r of pool) {
    if (out.length === limit) break;
    const m = idx.memories[r.index];
    if (out.some((o) => nearDuplicate(idx.memories[o.index], m))) continue;
    out.push(r);
  }
  return out;
}

function scoreCandidates(
  idx: CandidateIndex,
  query: string,
  filters: RankFilters,
  limit: number,
  now: number,
  signals: QuerySignals,
): Ranked[] {
  const n = idx.memories.length;
  const lexical = bm25Scores(idx, query);
  const queryVector = idx.vectors?.embed(query) ?? null;
  const queryEntities = signals.entities?.length ? signals.entities : null;
  const categories = filters.categories?.length ? new Set(filters.categories) : null;
  const decay = Math.LN2 / (RANKING.recencyHalfLifeDays * 86_400_000);
  const top: Ranked[] = [];
  for (let i = 0; i < n; i++) {
    const m = idx.memories[i];
    if (categories && !categories.has(m.category)) continue;
    if (filters.agentId && m.agentId !== filters.agentId) continue;
    if (filters.createdAfter !== undefined && m.createdAt < filters.createdAfter) continue;
    const s = lexical[i];
    let semantic = 0;
    if (signals.embedding && m.embedding && m.embedding.length === signals.embedding.length) semantic = cosine(signals.embedding, m.embedding);
    else if (queryVector && m.vector) semantic = cosine(queryVector, m.vector);
    let entity = 0;
    if (queryEntities && m.entities?.length) {
      for (const e of queryEntities) if (m.entities.includes(e)) entity++;
      entity /= queryEntities.length;
    }
    const relevance =
      RANKING.lexicalWeight * (s / (s + RANKING.lexicalSaturation)) +
      RANKING.semanticWeight * Math.max(0, semantic) +
      RANKING.importanceWeight * m.importance +
      RANKING.recencyWeight * Math.exp(-Math.max(0, now - m.createdAt) * decay) +
      RANKING.entityWeight * entity +
      RANKING.feedbackWeight * Math.tanh(m.feedbackScore ?? 0);
    if (top.length === limit && !better(idx, relevance, i, top[limit - 1])) continue;
    let pos = top.length;
    while (pos > 0 && better(idx, relevance, i, top[pos - 1])) pos--;
    top.splice(pos, 0, { index: i, relevance });
    if (top.length > limit) top.pop();
  }
  return top;
}

/** Result order: relevance desc, then newer first, then id. */
function better(idx: CandidateIndex, relevance: number, i: number, other: Ranked): boolean {
  if (relevance !== other.relevance) return relevance > other.relevance;
  const a = idx.memories[i];
  const b = idx.memories[other.index];
  if (a.createdAt !== b.createdAt) return a.createdAt > b.createdAt;
  return a.id < b.id;
}
