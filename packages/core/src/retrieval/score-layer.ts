/**
 * Scoring one layer of a user's candidate set (score.ts ranks the two layers together): every item's hybrid
 * relevance (the weights in weights.ts, the terms explained in score.ts), the relevance floor, the filters,
 * and the best few kept in order.
 */
import type { MemoryCategory } from '../categories';
import { type WordVectors, cosine, dotAt } from '../text/word-vectors';
import { type CandidateIndex, type IndexedMemory, type Ranked, bm25Scores } from './candidate-index';
import { type LayerWeights, MEMORY_WEIGHTS, RANKING } from './weights';
import { tellsOfDayWithin } from './when';

const PREFERENCE: MemoryCategory = 'preference';

/**
 * The least semantic similarity that makes an item match a query it shares no stem or entity with: for the
 * offline word vectors (unrelated sentences reach ~0.45 there), for a configured embeddings model, and for the
 * offline sentence encoder (local-encoder.ts; unrelated memories reach ~0.22 there, related ones 0.28–0.5).
 */
export const RELEVANCE_FLOOR = { offline: 0.6, embedding: 0.45, local: 0.25 } as const;

export interface QuerySignals {
  /** The query's vector from the configured embeddings model (compared with memories' `embedding`). */
  embedding?: Float32Array | null;
  /** Lower-cased entity names found in the query. */
  entities?: string[];
  /** The relevance floor of `embedding`'s model (default RELEVANCE_FLOOR.embedding). */
  embeddingFloor?: number;
  /** When the question is asked (ms; default: the time of the request): a relative date in it is read from here. */
  askedAt?: number;
  /**
   * The days a relative or calendar date in the question names (when.ts): items said then gain
   * `RANKING.dateWindowWeight`; for a relative date, items that tell of something on those days match and gain
   * `RANKING.toldDayWeight` too. `keepWords`: a calendar date, whose words are matched.
   */
  window?: { from: number; to: number; keepWords?: boolean } | null;
}

export interface RankFilters {
  categories?: string[];
  agentId?: string | null;
  /** only memories created at or after this time (ms) */
  createdAfter?: number;
  /** only items whose source event is one of these (`metadata_filter`: the events whose metadata matched) */
  sourceEvents?: ReadonlySet<string>;
}

/** Whether item i passes the filters (every filter applies to every item returned; always true without one). */
export function filterOf(filters: RankFilters, items: readonly IndexedMemory[]): (i: number) => boolean {
  const categories = filters.categories?.length ? new Set(filters.categories) : null;
  const sources = filters.sourceEvents ?? null;
  if (categories === null && !filters.agentId && filters.createdAfter === undefined && sources === null) return () => true;
  return (i) => {
    const m = items[i];
    if (categories && !categories.has(m.category)) return false;
    if (filters.agentId && m.agentId !== filters.agentId) return false;
    if (filters.createdAfter !== undefined && m.createdAt < filters.createdAfter) return false;
    return !(sources && !(m.sourceEventId && sources.has(m.sourceEventId)));
  };
}

/** What scoring needs of the query besides its terms: whether it is general, and its offline vector. */
export interface PreparedQuery {
  general: boolean;
  /** The kind of value the question asks for ("how many" → a number), matched against each candidate's stems. */
  answer: RegExp | null;
  /** The question asks for advice ("Can you suggest a hotel …?"): the user's preferences gain `RANKING.adviceWeight`. */
  advice: boolean;
  /** The word vectors that made `vector`; an index built with others embeds the query itself. */
  vectors: WordVectors | null;
  vector: Float32Array | null;
  /**
   * The query's BM25 terms with their weights: its stems, a group word's members (group-words.ts) and an irregular
   * verb's other forms (verb-forms.ts). Made once per retrieve for both layers.
   */
  terms: ReadonlyMap<string, number>;
}

/**
 * The most an item's semantic term can add: `semanticWeight` × the greatest cosine of two unit vectors (1,
 * with room for float32 rounding). The configured model's vectors need not be unit length, so with them
 * nothing is bounded (every item's vector is compared).
 */
const UNIT_COSINE_MAX = 1 + 1e-6;
/** Room left for rounding when an item's bound is compared with the list's last relevance. */
const BOUND_SLACK = 1e-9;

/** Each index's fixed terms, for the weights and "now" they were computed with (`fixedTerms`). */
const fixedCache = new WeakMap<CandidateIndex, { w: LayerWeights; now: number; values: Float64Array }>();

/**
 * What does not depend on the query's wording, per item: bias, importance, recency and feedback. An index's
 * columns do not change once built and "now" is the user's newest statement (`timelineNow`), so a hot user's
 * terms are computed once (10,000 exponentials were a seventh of ranking a large user) and kept with the index.
 */
function fixedTerms(idx: CandidateIndex, w: LayerWeights, now: number): Float64Array {
  const kept = fixedCache.get(idx);
  if (kept && kept.w === w && kept.now === now) return kept.values;
  const { columns } = idx;
  const n = idx.memories.length;
  const decay = Math.LN2 / (RANKING.recencyHalfLifeDays * 86_400_000);
  const feedbackScale = w.feedbackWeight / MEMORY_WEIGHTS.feedbackWeight;
  const values = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    values[i] =
      w.bias +
      w.importanceWeight * columns.importance[i] +
      w.recencyWeight * Math.exp(-Math.max(0, now - columns.said[i]) * decay) +
      feedbackScale * columns.feedback[i];
  }
  fixedCache.set(idx, { w, now, values });
  return values;
}

/**
 * Every item is scored, but the vector comparison (100 multiplications an item, most of a large user's
 * ranking time) is made only for an item that could still make the list: one whose other terms plus the
 * most the semantic term and the answer bonus can add reach the list's last relevance. The list is first
 * filled with the items that match by their other terms and score best on them, so the bound prunes from
 * the start. An item left out this way would have ranked below the list whatever its vector, so the result
 * is the one comparing every vector gives.
 */
export function scoreCandidates(
  idx: CandidateIndex,
  w: LayerWeights,
  query: string,
  filters: RankFilters,
  limit: number,
  now: number,
  signals: QuerySignals,
  prepared: PreparedQuery,
): Ranked[] {
  const n = idx.memories.length;
  const { columns } = idx;
  // lexical, mapped into [0, 1); an item sharing a stem with the query matches it (the relevance floor)
  // a group word ("siblings", "pets") also matches its members' words ("sister", "dog"), "buy" also "bought"
  const lexical = bm25Scores(idx, query, prepared.terms);
  // which items match the query at all; a general query matches everything
  const matched = new Uint8Array(n).fill(prepared.general ? 1 : 0);
  for (let i = 0; i < n; i++) {
    const s = lexical[i];
    if (s > 0) matched[i] = 1;
    lexical[i] = s > 0 ? w.lexicalWeight * (s / (s + w.lexicalSaturation)) : 0;
  }
  const passes = filterOf(filters, idx.memories);
  if (w.conversationShare > 0) shareConversationBest(idx, lexical, matched, passes, w.conversationShare);
  // entity matches: only the items linked to an entity the query names
  const queryEntities = signals.entities?.length ? signals.entities : null;
  const entity = new Float64Array(n);
  if (queryEntities) {
    for (let i = 0; i < n; i++) {
      const { entities: linked, speaker } = idx.memories[i];
      if (!linked?.length && !speaker) continue;
      // a person the query names who said the item counts whole; one the item names while someone else speaks
      // counts half (what John said to Maria is about Maria less than what Maria said)
      let hits = 0;
      for (const e of queryEntities) {
        if (speaker === e) hits++;
        else if (linked?.includes(e)) hits += speaker ? RANKING.mentionedByOtherShare : 1;
      }
      if (hits) {
        matched[i] = 1;
        entity[i] = (w.entityWeight * hits) / queryEntities.length;
      }
    }
  }
  const fixed = fixedTerms(idx, w, now);
  // said on the days the question names ("… 10 days ago"): never makes an item match, only orders what does; an
  // item that tells of something that happened on those days (a memory "… on 21 April 2023", a passage said then
  // with "today") matches and gains more: it is what the question asks about (a calendar date's words match)
  const window = signals.window ?? null;
  // only when the question names days: other queries allocate nothing for it
  const dated = window ? new Float64Array(n) : null;
  if (dated && window) {
    for (let i = 0; i < n; i++) {
      if (columns.said[i] >= window.from && columns.said[i] < window.to) dated[i] = RANKING.dateWindowWeight;
      if (!window.keepWords && tellsOfDayWithin(idx.memories[i].terms, columns.said[i], window)) {
        dated[i] += RANKING.toldDayWeight;
        matched[i] = 1;
      }
    }
  }
  // a request for advice is answered by what the user said they like: a preference ranks above other matches
  const preferred = prepared.advice ? RANKING.adviceWeight : 0;
  // every term but the semantic one and the answer bonus: what the bound and the first fill read
  const base = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    base[i] = lexical[i] + entity[i] + fixed[i] + (dated ? dated[i] : 0) + (preferred && idx.memories[i].category === PREFERENCE ? preferred : 0);
  }
  // semantic: the configured model's vectors where both sides have one, else the offline vectors
  const queryVector = idx.vectors === prepared.vectors ? prepared.vector : (idx.vectors?.embed(query) ?? null);
  const offline = queryVector && queryVector.length === columns.dims ? queryVector : null;
  const useEmbedding = signals.embedding ?? null;
  const embeddingFloor = signals.embeddingFloor ?? RELEVANCE_FLOOR.embedding;
  const semanticMax = useEmbedding ? Number.POSITIVE_INFINITY : offline ? w.semanticWeight * UNIT_COSINE_MAX : 0;
  /** The item's full relevance (its semantic term computed now), and whether it matches the query. */
  const score = (i: number): number => {
    let semantic = offline && columns.hasVector[i] ? dotAt(offline, columns.vectors, i * columns.dims) : 0;
    let floor: number = RELEVANCE_FLOOR.offline;
    if (useEmbedding) {
      const embedding = idx.memories[i].embedding;
      if (embedding && embedding.length === useEmbedding.length) {
        semantic = cosine(useEmbedding, embedding);
        floor = embeddingFloor;
      }
    }
    if (semantic >= floor) matched[i] = 1;
    return base[i] + (semantic > 0 ? w.semanticWeight * semantic : 0);
  };
  const answer = prepared.answer;
  const answerBonus = answer ? RANKING.answerKindWeight : 0;
  // the best `limit`, kept in a list sorted best first (limit is small: at most 2 × 50 + 5)
  const top: Ranked[] = [];
  const consider = (i: number) => {
    if (top.length === limit && base[i] + semanticMax + answerBonus + BOUND_SLACK < top[limit - 1].relevance) return;
    // a filtered-out item is left before its vector is compared
    if (!passes(i)) return;
    let r = score(i);
    if (!matched[i]) return;
    if (top.length === limit && !better(idx, r + answerBonus, i, top[limit - 1])) return;
    // an item holding the kind of value asked for (read only for items that could make the list)
    if (answer && answer.test(idx.text.slice(idx.offsets[i], idx.offsets[i + 1] - 1))) r += answerBonus;
    if (top.length === limit && !better(idx, r, i, top[limit - 1])) return;
    let pos = top.length;
    while (pos > 0 && better(idx, r, i, top[pos - 1])) pos--;
    top.splice(pos, 0, { index: i, relevance: r });
    if (top.length > limit) top.pop();
  };
  // first the items that match by their wording or entities and score best without the semantic term (only
  // when the bound can prune: with a configured model's vectors it cannot)
  const seeds: number[] = [];
  if (Number.isFinite(semanticMax)) {
    for (let i = 0; i < n; i++) {
      if (!matched[i] || (seeds.length === limit && base[i] <= base[seeds[limit - 1]]) || !passes(i)) continue;
      let pos = seeds.length;
      while (pos > 0 && base[i] > base[seeds[pos - 1]]) pos--;
      seeds.splice(pos, 0, i);
      if (seeds.length > limit) seeds.pop();
    }
  }
  const seeded = new Uint8Array(n);
  for (const i of seeds) {
    seeded[i] = 1;
    consider(i);
  }
  for (let i = 0; i < n; i++) if (!seeded[i]) consider(i);
  return top;
}

/**
 * An item's lexical term moves toward the best one of its conversation (its source event): (1 − share) × its own
 * + share × the best, for an item that shares a word with the query; the best item keeps its own, so a layer's
 * top score does not grow. What one message says is often short of the question's words while its conversation
 * holds them: "What does Priya do with her bees?" is answered by "Priya also likes watching them at dusk", said
 * in the conversation where the bees are named, and a memory of another conversation that shares "Priya" and
 * one more word no longer goes first. Among the items that match the question, those of the conversation that
 * matches it best rise (cluster-based smoothing: a passage scored with its document). An item that matches on
 * no word of the query is not lifted: the conversation orders what matches, it makes nothing match. Within one
 * conversation the order by words is kept, with their differences 1 − share as large against the other terms.
 * The best is taken among the items the retrieve's filters let through: what a filter holds back (another agent's
 * memory, a category not granted) does not order what is returned.
 */
function shareConversationBest(
  idx: CandidateIndex,
  lexical: Float64Array,
  matched: Uint8Array,
  passes: (i: number) => boolean,
  share: number,
): void {
  const { conversation, conversations } = idx.columns;
  if (conversations === 0) return;
  const best = new Float64Array(conversations);
  const n = lexical.length;
  for (let i = 0; i < n; i++) {
    const c = conversation[i];
    if (c >= 0 && lexical[i] > best[c] && passes(i)) best[c] = lexical[i];
  }
  for (let i = 0; i < n; i++) {
    const c = conversation[i];
    if (c >= 0 && matched[i] && lexical[i] > 0) lexical[i] += share * (best[c] - lexical[i]);
  }
}

/**
 * Result order: relevance desc, then said later first, then newer first, then taken from an earlier message first
 * (two memories a job stored together from one conversation), then id. Random ids decide only between items of
 * the same message, so a ranking does not change from one run to the next on a tie.
 */
function better(idx: CandidateIndex, relevance: number, i: number, other: Ranked): boolean {
  if (relevance !== other.relevance) return relevance > other.relevance;
  const said = idx.columns.said;
  if (said[i] !== said[other.index]) return said[i] > said[other.index];
  const a = idx.memories[i];
  const b = idx.memories[other.index];
  if (a.createdAt !== b.createdAt) return a.createdAt > b.createdAt;
  const am = a.messages?.[0] ?? -1;
  const bm = b.messages?.[0] ?? -1;
  if (am !== bm) return am < bm;
  return a.id < b.id;
}
