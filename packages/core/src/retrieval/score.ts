/**
 * Exact hybrid ranking over one user's candidate set (no approximate index: every item is scored), in two
 * layers (docs/evidence-layer.md): the extracted memories and the passages of what was said.
 *
 *   memory  = 0.5 × lexical + 0.25 × semantic + 0.1 × importance + 0.05 × recency + 0.05 × entity + feedback
 *   passage = 0.5 × lexical + 0.25 × semantic + 0.05 × recency + 0.05 × entity + 0.1 (passage bias)
 *
 * lexical: BM25 within the item's own layer (Snowball stems), mapped into [0, 1) by s / (s + saturation);
 * semantic: cosine (clamped at 0) between sentence vectors: the configured embeddings model's when the
 *   item and the query both have one, else the offline vectors stored with the item;
 * importance: the memory's current importance (lifecycle-adjusted, docs/lifecycle.md); passages have none
 *   (0; -1 × 0.05 when a newer claim superseded one taken from the message, so what is current ranks first),
 *   and the bias puts a passage that matches as well as a memory level with a memory of middling importance;
 * recency: halves every 90 days, counted on the user's own timeline: from when the item was said (its source
 *   event's observed_at) to the newest thing the user said, so a history imported today keeps its order and a
 *   user silent for a year keeps recency's weight; entity: the share of the entities named in the query that the memory is
 *   linked to (compositional pass); feedback: 0.05 × tanh(feedback_score), from retrieval feedback;
 *   answer kind (both layers): + 0.03 when the question asks for a number, a weekday or a point in time
 *   (`answerPattern`) and the item holds one.
 * The query is scored without the wording of a request for advice ("any suggestions?", "can you recommend …";
 * scaffolding.ts); the current-state reordering (updates.ts) reads it whole.
 *
 * Relevance floor: an item is a candidate only when it shares a stem with the query, is linked to an entity
 * the query names, or its semantic similarity reaches RELEVANCE_FLOOR. Importance and recency order what
 * matches; they never make an unrelated item match, so an unrelated query returns nothing. A general query
 * ("what do you know about the user?") matches every memory (isGeneralQuery).
 */
import { analyze, contentWords } from '../text/terms';
import { type WordVectors, cosine, dotEach } from '../text/word-vectors';
import { type CandidateIndex, type IndexedMemory, type LayeredRanked, type Ranked, bm25Scores } from './candidate-index';
import { nearDuplicate } from './near-duplicates';
import { withoutRequestWording } from './scaffolding';
import { orderUpdates } from './updates';
import { MEMORY_WEIGHTS, PASSAGE_WEIGHTS, RANKING, type LayerWeights } from './weights';

export { type LayerWeights, MEMORY_WEIGHTS, PASSAGE_WEIGHTS, RANKING } from './weights';
export {
  type CandidateIndex,
  type IndexedMemory,
  type LayeredRanked,
  type PrecomputedAnalysis,
  type Ranked,
  bm25Scores,
  bm25Top,
  buildIndex,
  postingsOf,
} from './candidate-index';
export { NEAR_DUPLICATE, nearDuplicate, valuesOf } from './near-duplicates';
export { orderUpdates } from './updates';

const stemsOf = (words: string) => [...new Set(analyze(words))].join('|');
const NUMBER_STEMS = stemsOf('one two three four five six seven eight nine ten eleven twelve fifteen twenty thirty forty fifty hundred thousand million dozen half');
const WEEKDAY_STEMS = stemsOf('monday tuesday wednesday thursday friday saturday sunday mondays tuesdays wednesdays thursdays fridays saturdays sundays weekend');
const MONTH_STEMS = stemsOf('january february march april may june july august september october november december yesterday ago');
/** Stems that hold a value of each kind: a number, a day of the week, a point in time. */
const ANSWER_KINDS = {
  number: new RegExp(`(?:^| )(?:\\d|(?:${NUMBER_STEMS})(?: |$))`),
  weekday: new RegExp(`(?:^| )(?:${WEEKDAY_STEMS})(?: |$)`),
  time: new RegExp(`(?:^| )(?:(?:19|20)\\d\\d|(?:${MONTH_STEMS}|${WEEKDAY_STEMS})(?: |$))`),
} as const;

/**
 * The kind of value a question asks for, as a pattern over an item's stems: "how many / how much …" a
 * number, "what day (of the week) …" a day, "when … / what date / what year / how long ago …" a point in
 * time. Of two items about the same thing, the one that states the value ranks first ("The user has
 * seen 32 species" before "The user keeps track of the species"); other questions get null.
 */
export function answerPattern(query: string): RegExp | null {
  const q = query.toLowerCase();
  if (/\bhow (?:many|much)\b/.test(q)) return ANSWER_KINDS.number;
  if (/\b(?:what|which) days?\b/.test(q)) return ANSWER_KINDS.weekday;
  if (/^\W*when\b|\b(?:what|which) (?:date|year|month)\b|\bhow long ago\b/.test(q)) return ANSWER_KINDS.time;
  return null;
}

/**
 * The least semantic similarity that makes an item match a query it shares no stem or entity with: for the
 * offline word vectors (unrelated sentences reach ~0.45 there), for a configured embeddings model, and for the
 * offline sentence encoder (local-encoder.ts; unrelated memories reach ~0.22 there, related ones 0.28–0.5).
 */
export const RELEVANCE_FLOOR = { offline: 0.6, embedding: 0.45, local: 0.25 } as const;

/**
 * Words that ask for what is known in general rather than about something ("what do you know about me?",
 * "tell me everything you remember about the user", or an empty query): such a query matches every memory,
 * ordered by importance, and no passage.
 */
const GENERAL_WORDS = new Set(
  'know knows known tell anything everything something info information details detail profile remember remembered summary summarize summarise background context facts fact memory memories please'.split(' '),
);

function isGeneralQuery(query: string): boolean {
  return contentWords(query).every((w) => GENERAL_WORDS.has(w));
}

export interface QuerySignals {
  /** The query's vector from the configured embeddings model (compared with memories' `embedding`). */
  embedding?: Float32Array | null;
  /** Lower-cased entity names found in the query. */
  entities?: string[];
  /** The relevance floor of `embedding`'s model (default RELEVANCE_FLOOR.embedding). */
  embeddingFloor?: number;
}

export interface RankFilters {
  categories?: string[];
  agentId?: string | null;
  /** only memories created at or after this time (ms) */
  createdAfter?: number;
  /** only items whose source event is one of these (`metadata_filter`: the events whose metadata matched) */
  sourceEvents?: ReadonlySet<string>;
}

/** The best `limit` memories, near-duplicates of better-ranked ones collapsed (one layer). */
export function rankCandidates(
  idx: CandidateIndex,
  query: string,
  filters: RankFilters,
  limit: number,
  now: number,
  signals: QuerySignals = {},
  texts?: readonly string[],
): Ranked[] {
  const pool = scoreCandidates(idx, MEMORY_WEIGHTS, query, filters, limit * 2 + 5, timelineNow(now, idx), signals, prepareQuery(idx, query));
  const out: Ranked[] = [];
  for (const r of pool) {
    if (out.length === limit) break;
    const m = idx.memories[r.index];
    if (out.some((o) => nearDuplicate(idx.memories[o.index], m, texts?.[o.index], texts?.[r.index]))) continue;
    out.push(r);
  }
  return out;
}

/** The category a passage has in filters and results. */
export const PASSAGE_CATEGORY = 'conversation';

/**
 * Both layers ranked together, best first, at most `limit` items: each layer scored with its own BM25 and
 * weights, then merged by relevance. Near-duplicate memories collapse as in `rankCandidates`. A passage is
 * left out when a returned memory already cites its message; when a memory from the passage's message is
 * among the ranked candidates, that memory takes the passage's place (the fact, stated about the user, is
 * what the agent needs; the passage is the evidence). One passage per message. A reply that quotes its
 * prompt whole (its `messages` are [prompt, reply]) covers the prompt's message too: the prompt's passage is
 * not returned after it, and one returned before it gives the reply its place. A memory all of whose messages
 * were already returned word for word is left out (one item per message, whichever ranks first); one all of whose
 * messages a better-ranked item already cites waits `RANKING.repeatPenalty` lower, so nearly as relevant
 * evidence from other messages goes first.
 */
export function rankLayers(
  layers: { memories: CandidateIndex; memoryTexts?: readonly string[]; passages: CandidateIndex | null },
  query: string,
  filters: RankFilters,
  limit: number,
  now: number,
  signals: QuerySignals = {},
): LayeredRanked[] {
  const pool = limit * 2 + 5;
  now = timelineNow(now, layers.memories, layers.passages);
  // scored without the wording of a request for advice (scaffolding.ts)
  const scored = withoutRequestWording(query);
  // the query is analysed once for both layers (they share the offline word vectors)
  const prepared = prepareQuery(layers.memories, scored);
  const mem = scoreCandidates(layers.memories, MEMORY_WEIGHTS, scored, filters, pool, now, signals, prepared);
  const wantPassages =
    layers.passages && !prepared.general && (!filters.categories?.length || filters.categories.includes(PASSAGE_CATEGORY));
  const pas =
    wantPassages && layers.passages
      ? scoreCandidates(layers.passages, PASSAGE_WEIGHTS, scored, { ...filters, categories: undefined }, pool, now, signals, prepared)
      : [];
  const memIdx = layers.memories;
  const texts = layers.memoryTexts;
  const key = (event: string | null | undefined, message: number) => `${event ?? ''}#${message}`;
  // the best-ranked memory candidate of each cited message, to stand in for that message's passage
  const memoryOfMessage = new Map<string, Ranked>();
  for (const r of mem) {
    const m = memIdx.memories[r.index];
    for (const i of m.messages ?? []) {
      const k = key(m.sourceEventId, i);
      if (!memoryOfMessage.has(k)) memoryOfMessage.set(k, r);
    }
  }
  const out: LayeredRanked[] = [];
  const pickedMemories = new Set<number>();
  const coveredMessages = new Set<string>();
  // where in `out` the passage of each message is
  const passageAt = new Map<string, number>();
  // the messages returned word for word (by a passage, or quoted whole by a reply)
  const shownMessages = new Set<string>();
  // memories whose every message a better item already cites, waiting at their lowered score (best first)
  const repeats: Ranked[] = [];
  // whether every message a memory was taken from is in `messages`
  const allIn = (m: IndexedMemory, messages: Set<string>) => {
    const own = m.messages ?? [];
    return own.length > 0 && own.every((i) => messages.has(key(m.sourceEventId, i)));
  };
  const pickMemory = (r: Ranked, relevance: number, repeat = false): boolean => {
    if (pickedMemories.has(r.index)) return false;
    const m = memIdx.memories[r.index];
    // every message it was taken from is already returned word for word: the passage holds it
    if (allIn(m, shownMessages)) return false;
    for (const o of pickedMemories) if (nearDuplicate(memIdx.memories[o], m, texts?.[o], texts?.[r.index])) return false;
    if (!repeat && allIn(m, coveredMessages)) {
      const lowered = { index: r.index, relevance: relevance - RANKING.repeatPenalty };
      let at = repeats.length;
      while (at > 0 && repeats[at - 1].relevance < lowered.relevance) at--;
      repeats.splice(at, 0, lowered);
      return true;
    }
    pickedMemories.add(r.index);
    for (const i of m.messages ?? []) coveredMessages.add(key(m.sourceEventId, i));
    out.push({ layer: 'memory', index: r.index, relevance });
    return true;
  };
  let a = 0;
  let b = 0;
  while (out.length < limit && (a < mem.length || b < pas.length || repeats.length > 0)) {
    const next = Math.max(a < mem.length ? mem[a].relevance : -Infinity, b < pas.length ? pas[b].relevance : -Infinity);
    if (repeats.length > 0 && repeats[0].relevance > next) {
      const r = repeats.shift()!;
      pickMemory(r, r.relevance, true);
      continue;
    }
    const takeMemory = b >= pas.length || (a < mem.length && mem[a].relevance >= pas[b].relevance);
    if (takeMemory) {
      pickMemory(mem[a], mem[a].relevance);
      a++;
      continue;
    }
    const r = pas[b++];
    const p = layers.passages!.memories[r.index];
    // a passage's own message is its last (a reply lists the prompt it quotes first)
    const messages = p.messages ?? [];
    const k = key(p.sourceEventId, messages.at(-1) ?? -1);
    if (coveredMessages.has(k)) continue;
    const standIn = memoryOfMessage.get(k);
    if (standIn && pickMemory(standIn, Math.max(standIn.relevance, r.relevance))) continue;
    for (const i of messages) coveredMessages.add(key(p.sourceEventId, i));
    // a reply quoting a prompt whose own passage was returned takes that passage's place (it says all it says)
    const promptAt = messages.length > 1 ? passageAt.get(key(p.sourceEventId, messages[0])) : undefined;
    if (promptAt !== undefined) {
      out[promptAt] = { layer: 'passage', index: r.index, relevance: Math.max(out[promptAt].relevance, r.relevance) };
      passageAt.set(k, promptAt);
      for (const i of messages) shownMessages.add(key(p.sourceEventId, i));
      continue;
    }
    passageAt.set(k, out.length);
    for (const i of messages) shownMessages.add(key(p.sourceEventId, i));
    out.push({ layer: 'passage', index: r.index, relevance: r.relevance });
  }
  return orderUpdates(out, layers, query);
}

/** What scoring needs of the query besides its terms: whether it is general, and its offline vector. */
interface PreparedQuery {
  general: boolean;
  /** The kind of value the question asks for ("how many" → a number), matched against each candidate's stems. */
  answer: RegExp | null;
  /** The word vectors that made `vector`; an index built with others embeds the query itself. */
  vectors: WordVectors | null;
  vector: Float32Array | null;
}

function prepareQuery(idx: CandidateIndex, query: string): PreparedQuery {
  return { general: isGeneralQuery(query), answer: answerPattern(query), vectors: idx.vectors, vector: idx.vectors?.embed(query) ?? null };
}

function scoreCandidates(
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
  const relevance = bm25Scores(idx, query);
  // which items match the query at all (the relevance floor); a general query matches everything
  const matched = new Uint8Array(n).fill(prepared.general ? 1 : 0);
  // lexical, mapped into [0, 1)
  for (let i = 0; i < n; i++) {
    const s = relevance[i];
    if (s > 0) matched[i] = 1;
    relevance[i] = s > 0 ? w.lexicalWeight * (s / (s + w.lexicalSaturation)) : 0;
  }
  // semantic: the configured model's vectors where both sides have one, else the offline vectors
  const queryVector = idx.vectors === prepared.vectors ? prepared.vector : (idx.vectors?.embed(query) ?? null);
  const useEmbedding = signals.embedding ?? null;
  const offline = queryVector && queryVector.length === columns.dims ? dotEach(queryVector, columns.vectors, columns.hasVector, n) : null;
  const embeddingFloor = signals.embeddingFloor ?? RELEVANCE_FLOOR.embedding;
  for (let i = 0; i < n; i++) {
    let semantic = offline ? offline[i] : 0;
    let floor: number = RELEVANCE_FLOOR.offline;
    if (useEmbedding) {
      const embedding = idx.memories[i].embedding;
      if (embedding && embedding.length === useEmbedding.length) {
        semantic = cosine(useEmbedding, embedding);
        floor = embeddingFloor;
      }
    }
    if (semantic >= floor) matched[i] = 1;
    if (semantic > 0) relevance[i] += w.semanticWeight * semantic;
  }
  // entity matches: only the items linked to an entity the query names
  const queryEntities = signals.entities?.length ? signals.entities : null;
  if (queryEntities) {
    for (let i = 0; i < n; i++) {
      const linked = idx.memories[i].entities;
      if (!linked?.length) continue;
      let hits = 0;
      for (const e of queryEntities) if (linked.includes(e)) hits++;
      if (hits) {
        matched[i] = 1;
        relevance[i] += (w.entityWeight * hits) / queryEntities.length;
      }
    }
  }
  const decay = Math.LN2 / (RANKING.recencyHalfLifeDays * 86_400_000);
  const feedbackScale = w.feedbackWeight / MEMORY_WEIGHTS.feedbackWeight;
  for (let i = 0; i < n; i++) {
    relevance[i] +=
      w.bias +
      w.importanceWeight * columns.importance[i] +
      w.recencyWeight * Math.exp(-Math.max(0, now - columns.said[i]) * decay) +
      feedbackScale * columns.feedback[i];
  }
  const categories = filters.categories?.length ? new Set(filters.categories) : null;
  const sources = filters.sourceEvents ?? null;
  const filtered = categories !== null || Boolean(filters.agentId) || filters.createdAfter !== undefined || sources !== null;
  const answer = prepared.answer;
  const answerBonus = answer ? RANKING.answerKindWeight : 0;
  // the best `limit`, kept in a list sorted best first (limit is small: at most 2 × 50 + 5)
  const top: Ranked[] = [];
  for (let i = 0; i < n; i++) {
    if (!matched[i]) continue;
    let r = relevance[i];
    if (top.length === limit && !better(idx, r + answerBonus, i, top[limit - 1])) continue;
    // an item holding the kind of value asked for (read only for items that could make the list)
    if (answer && answer.test(idx.text.slice(idx.offsets[i], idx.offsets[i + 1] - 1))) r += answerBonus;
    if (top.length === limit && !better(idx, r, i, top[limit - 1])) continue;
    if (filtered) {
      const m = idx.memories[i];
      if (categories && !categories.has(m.category)) continue;
      if (filters.agentId && m.agentId !== filters.agentId) continue;
      if (filters.createdAfter !== undefined && m.createdAt < filters.createdAfter) continue;
      if (sources && !(m.sourceEventId && sources.has(m.sourceEventId))) continue;
    }
    let pos = top.length;
    while (pos > 0 && better(idx, r, i, top[pos - 1])) pos--;
    top.splice(pos, 0, { index: i, relevance: r });
    if (top.length > limit) top.pop();
  }
  return top;
}

/**
 * "Now" on the user's timeline: the newest thing the user said (never later than the clock), so recency
 * compares what was said with what the user said last rather than with today.
 */
export function timelineNow(now: number, ...indexes: (CandidateIndex | null)[]): number {
  let newest = Number.NEGATIVE_INFINITY;
  for (const idx of indexes) if (idx && idx.newestSaid > newest) newest = idx.newestSaid;
  return Number.isFinite(newest) ? Math.min(now, newest) : now;
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
