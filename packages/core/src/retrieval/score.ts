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
  /**
   * Column copies of what every query reads for every memory, so the scoring loop runs over typed arrays:
   * the offline sentence vectors one after another (`dims` floats each, zeros where a memory has none),
   * importance, creation time and the feedback term.
   */
  columns: {
    dims: number;
    vectors: Float32Array;
    hasVector: Uint8Array;
    importance: Float64Array;
    createdAt: Float64Array;
    feedback: Float64Array;
  };
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
  const n = indexed.length;
  const dims = vectors?.dimensions ?? 0;
  const columns = {
    dims,
    vectors: new Float32Array(n * dims),
    hasVector: new Uint8Array(n),
    importance: new Float64Array(n),
    createdAt: new Float64Array(n),
    feedback: new Float64Array(n),
  };
  indexed.forEach((m, i) => {
    if (m.vector && m.vector.length === dims) {
      columns.vectors.set(m.vector, i * dims);
      columns.hasVector[i] = 1;
    }
    columns.importance[i] = m.importance;
    columns.createdAt[i] = m.createdAt;
    columns.feedback[i] = RANKING.feedbackWeight * Math.tanh(m.feedbackScore ?? 0);
  });
  return { memories: indexed, postings, avgLength: n ? total / n : 0, vectors, columns };
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
  const { columns } = idx;
  const relevance = bm25Scores(idx, query);
  // lexical, mapped into [0, 1)
  for (let i = 0; i < n; i++) {
    const s = relevance[i];
    relevance[i] = s > 0 ? RANKING.lexicalWeight * (s / (s + RANKING.lexicalSaturation)) : 0;
  }
  // semantic: the configured model's vectors where both sides have one, else the offline vectors
  const queryVector = idx.vectors?.embed(query) ?? null;
  const dims = columns.dims;
  const useEmbedding = signals.embedding ?? null;
  for (let i = 0; i < n; i++) {
    const m = idx.memories[i];
    let semantic = 0;
    if (useEmbedding && m.embedding && m.embedding.length === useEmbedding.length) semantic = cosine(useEmbedding, m.embedding);
    else if (queryVector && columns.hasVector[i]) {
      const off = i * dims;
      for (let d = 0; d < dims; d++) semantic += queryVector[d] * columns.vectors[off + d];
    }
    if (semantic > 0) relevance[i] += RANKING.semanticWeight * semantic;
  }
  // entity matches: only the memories linked to an entity the query names
  const queryEntities = signals.entities?.length ? signals.entities : null;
  if (queryEntities) {
    for (let i = 0; i < n; i++) {
      const linked = idx.memories[i].entities;
      if (!linked?.length) continue;
      let hits = 0;
      for (const e of queryEntities) if (linked.includes(e)) hits++;
      if (hits) relevance[i] += (RANKING.entityWeight * hits) / queryEntities.length;
    }
  }
  const decay = Math.LN2 / (RANKING.recencyHalfLifeDays * 86_400_000);
  for (let i = 0; i < n; i++) {
    relevance[i] +=
      RANKING.importanceWeight * columns.importance[i] +
      RANKING.recencyWeight * Math.exp(-Math.max(0, now - columns.createdAt[i]) * decay) +
      columns.feedback[i];
  }
  const categories = filters.categories?.length ? new Set(filters.categories) : null;
  const filtered = categories !== null || Boolean(filters.agentId) || filters.createdAfter !== undefined;
  // the best `limit`, kept in a list sorted best first (limit is small: at most 2 × 50 + 5)
  const top: Ranked[] = [];
  for (let i = 0; i < n; i++) {
    const r = relevance[i];
    if (top.length === limit && !better(idx, r, i, top[limit - 1])) continue;
    if (filtered) {
      const m = idx.memories[i];
      if (categories && !categories.has(m.category)) continue;
      if (filters.agentId && m.agentId !== filters.agentId) continue;
      if (filters.createdAfter !== undefined && m.createdAt < filters.createdAfter) continue;
    }
    let pos = top.length;
    while (pos > 0 && better(idx, r, i, top[pos - 1])) pos--;
    top.splice(pos, 0, { index: i, relevance: r });
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
