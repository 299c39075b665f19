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
 *
 * Relevance floor: an item is a candidate only when it shares a stem with the query, is linked to an entity
 * the query names, or its semantic similarity reaches RELEVANCE_FLOOR. Importance and recency order what
 * matches; they never make an unrelated item match, so an unrelated query returns nothing. A general query
 * ("what do you know about the user?") matches every memory (isGeneralQuery).
 */
import { analyze, contentWords, termFrequencies } from '../text/terms';
import { type WordVectors, cosine, wordVectors } from '../text/word-vectors';

export interface LayerWeights {
  lexicalWeight: number;
  semanticWeight: number;
  importanceWeight: number;
  recencyWeight: number;
  entityWeight: number;
  feedbackWeight: number;
  /** Added to every matching item of the layer. */
  bias: number;
  /** s / (s + saturation) maps an unbounded BM25 score into [0, 1). */
  lexicalSaturation: number;
}

export const MEMORY_WEIGHTS: LayerWeights = {
  lexicalWeight: 0.5,
  semanticWeight: 0.25,
  importanceWeight: 0.1,
  recencyWeight: 0.05,
  entityWeight: 0.05,
  feedbackWeight: 0.05,
  bias: 0,
  lexicalSaturation: 2,
};

export const PASSAGE_WEIGHTS: LayerWeights = {
  lexicalWeight: 0.5,
  semanticWeight: 0.25,
  // a passage's importance is 0, or -1 when a claim taken from its message was superseded: it then ranks below
  // the current value that replaced it, but still near it as dated history (docs/evidence-layer.md)
  importanceWeight: 0.05,
  recencyWeight: 0.05,
  entityWeight: 0.05,
  feedbackWeight: 0,
  bias: 0.1,
  lexicalSaturation: 4,
};

export const RANKING = {
  ...MEMORY_WEIGHTS,
  /** BM25 parameters. */
  k1: 1.2,
  b: 0.75,
  recencyHalfLifeDays: 90,
  /** Added to an item that holds the kind of value the question asks for (`answerPattern`). */
  answerKindWeight: 0.03,
  /**
   * How much more relevant an earlier-said item about the same thing may be and still rank below a later one,
   * for a question about the current state (`orderUpdates`).
   */
  updateMargin: 0.1,
} as const;

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

export function isGeneralQuery(query: string): boolean {
  return contentWords(query).every((w) => GENERAL_WORDS.has(w));
}

export interface IndexedMemory {
  id: string;
  category: string;
  importance: number;
  agentId: string | null;
  createdAt: number;
  /** When it was said (the source event's observed_at, ms); recency counts from it. Defaults to createdAt. */
  observedAt?: number;
  /** Net retrieval feedback (memories.feedback_score). */
  feedbackScore?: number;
  /** Lower-cased names of the entities the memory is linked to. */
  entities?: string[];
  /** The configured embeddings model's vector, when there is one. */
  embedding?: Float32Array | null;
  /** Offline sentence vector: stored with the item, else computed when the index is built. */
  vector: Float32Array | null;
  /** The source event the item came from and the message indices it cites (passages: exactly one). */
  sourceEventId?: string | null;
  messages?: readonly number[] | null;
  /** The item's stems in order, space-separated (as stored, analysis.ts). */
  terms: string;
  /** Number of stems. */
  length: number;
}

export interface CandidateIndex {
  memories: IndexedMemory[];
  /**
   * Every item's stems in one string, one line per item (item i's line starts at `offsets[i]`). A term's
   * postings are found by scanning it the first time a query asks for the term (`postingsOf`), so building
   * an index costs one join, not a map operation per stem: loading a user that is not in the hot tier is
   * mostly this build.
   */
  text: string;
  offsets: Int32Array;
  /**
   * term -> the index of the item for every occurrence of the term, ascending (an item holding the term
   * three times is listed three times in a row: the run length is the term frequency); filled on demand.
   */
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
    /** When each item was said (observedAt, else createdAt). */
    said: Float64Array;
    feedback: Float64Array;
  };
  /** The newest `said` of the index (-Infinity when empty): "now" on the user's timeline. */
  newestSaid: number;
}

/** What was computed when the item was written (analysis.ts); absent parts are computed here. */
export interface PrecomputedAnalysis {
  /** The stored stems, space-separated. */
  terms?: string | null;
  /** The offline vector, as stored (base64 int8, analysis.ts) or already decoded. */
  storedVector?: string | null;
  vector?: Float32Array | null;
}

export function buildIndex(
  memories: Omit<IndexedMemory, 'terms' | 'length' | 'vector'>[],
  contents: string[],
  vectors: WordVectors | null = wordVectors(),
  stored: readonly (PrecomputedAnalysis | undefined)[] = [],
): CandidateIndex {
  const n = memories.length;
  const dims = vectors?.dimensions ?? 0;
  const columns = {
    dims,
    vectors: new Float32Array(n * dims),
    hasVector: new Uint8Array(n),
    importance: new Float64Array(n),
    said: new Float64Array(n),
    feedback: new Float64Array(n),
  };
  let newestSaid = Number.NEGATIVE_INFINITY;
  const indexed: IndexedMemory[] = [];
  const lines: string[] = [];
  const offsets = new Int32Array(n + 1);
  const scratch = Buffer.alloc(4 + dims);
  let at = 0;
  let total = 0;
  memories.forEach((m, i) => {
    const pre = stored[i];
    const terms = pre?.terms ?? analyze(contents[i]).join(' ');
    let length = terms.length > 0 ? 1 : 0;
    for (let c = 0; c < terms.length; c++) if (terms.charCodeAt(c) === 32) length++;
    offsets[i] = at;
    at += terms.length + 1;
    lines.push(terms);
    total += length;
    // the caller's object becomes the indexed item (callers pass objects made for the index)
    const item = m as IndexedMemory;
    item.terms = terms;
    item.length = length;
    item.vector = null;
    if (dims > 0) {
      if (pre?.storedVector && decodeInto(pre.storedVector, scratch, columns.vectors, i * dims)) {
        columns.hasVector[i] = 1;
      } else {
        const vector = pre?.vector?.length === dims ? pre.vector : vectors!.embed(contents[i]);
        if (vector) {
          columns.vectors.set(vector, i * dims);
          columns.hasVector[i] = 1;
        }
      }
      if (columns.hasVector[i]) item.vector = columns.vectors.subarray(i * dims, (i + 1) * dims);
    } else item.vector = pre?.vector ?? null;
    columns.importance[i] = m.importance;
    columns.said[i] = m.observedAt ?? m.createdAt;
    if (columns.said[i] > newestSaid) newestSaid = columns.said[i];
    columns.feedback[i] = RANKING.feedbackWeight * Math.tanh(m.feedbackScore ?? 0);
    indexed.push(item);
  });
  offsets[n] = at;
  return { memories: indexed, text: lines.join('\n'), offsets, postings: new Map(), avgLength: n ? total / n : 0, vectors, columns, newestSaid };
}

/**
 * A stored vector (analysis.ts: base64 of embeddings/quantize.ts's int8 form) decoded straight into `out` at
 * `offset` as a unit vector, through one scratch buffer instead of two allocations per item; false when it
 * is not a vector of the index's dimensions or is all zeros.
 */
function decodeInto(stored: string, scratch: Buffer, out: Float32Array, offset: number): boolean {
  const dims = scratch.length - 4;
  if (stored.length !== Math.ceil(scratch.length / 3) * 4) return false;
  if (scratch.write(stored, 0, 'base64') !== scratch.length) return false;
  const scale = scratch.readFloatLE(0);
  let norm = 0;
  for (let d = 0; d < dims; d++) {
    const x = ((scratch[4 + d] << 24) >> 24) * scale;
    out[offset + d] = x;
    norm += x * x;
  }
  if (!(norm > 0)) {
    out.fill(0, offset, offset + dims);
    return false;
  }
  const inv = 1 / Math.sqrt(norm);
  for (let d = 0; d < dims; d++) out[offset + d] *= inv;
  return true;
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
}

export interface Ranked {
  index: number;
  relevance: number;
}

const SPACE = 32;
const NEWLINE = 10;

/** The items holding `term`, once per occurrence, ascending (scanned on first use, then kept). */
export function postingsOf(idx: CandidateIndex, term: string): number[] {
  const known = idx.postings.get(term);
  if (known) return known;
  const list: number[] = [];
  const { text, offsets } = idx;
  let item = 0;
  for (let at = text.indexOf(term); at !== -1; at = text.indexOf(term, at + 1)) {
    const before = at === 0 ? NEWLINE : text.charCodeAt(at - 1);
    const end = at + term.length;
    const after = end === text.length ? NEWLINE : text.charCodeAt(end);
    if ((before !== SPACE && before !== NEWLINE) || (after !== SPACE && after !== NEWLINE)) continue;
    while (offsets[item + 1] <= at) item++;
    list.push(item);
  }
  idx.postings.set(term, list);
  return list;
}

/** Exact BM25 of the query against every memory of the index (0 for memories without a query term). */
export function bm25Scores(idx: CandidateIndex, query: string): Float64Array {
  const n = idx.memories.length;
  const lexical = new Float64Array(n);
  const queryTerms = [...new Set(termFrequencies(query).keys())];
  for (const term of queryTerms) {
    const list = postingsOf(idx, term);
    if (list.length === 0) continue;
    let df = 0;
    for (let j = 0; j < list.length; j++) if (j === 0 || list[j] !== list[j - 1]) df++;
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    for (let j = 0; j < list.length; ) {
      const i = list[j];
      let tf = 0;
      while (j < list.length && list[j] === i) {
        tf++;
        j++;
      }
      const norm = tf + RANKING.k1 * (1 - RANKING.b + (RANKING.b * idx.memories[i].length) / (idx.avgLength || 1));
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
 * sentence vectors at cosine ≥ 0.95, and they carry the same values: memories whose numbers or capitalised
 * names differ ("20 dozen eggs" / "12 dozen eggs", "met Anna" / "met Maria") are never collapsed, since the
 * difference is the answer. The lower-ranked one is left out of the results (it stays stored).
 */
export const NEAR_DUPLICATE = { jaccard: 0.8, jaccardWithVectors: 0.5, cosine: 0.95 } as const;

/** The numbers and capitalised words (not sentence-initial) of a text: the values a near-duplicate must share. */
export function valuesOf(text: string): string {
  const out: string[] = [];
  for (const m of text.matchAll(/(?<![\p{L}\p{N}])(\p{N}+(?:[.,:]\p{N}+)*|\p{Lu}[\p{L}'’-]*)/gu)) {
    const word = m[0];
    const start = m.index ?? 0;
    if (/^\p{Lu}/u.test(word) && (start === 0 || /[.!?]\s*$/u.test(text.slice(0, start)))) continue;
    if (word === 'I' || word === 'The') continue;
    out.push(word.toLowerCase());
  }
  return out.sort().join(' ');
}

const termSets = new WeakMap<IndexedMemory, Set<string>>();

/** The distinct stems of an item, made when a near-duplicate check first needs them. */
function termSet(m: IndexedMemory): Set<string> {
  let set = termSets.get(m);
  if (!set) {
    set = new Set(m.terms.length > 0 ? m.terms.split(' ') : []);
    termSets.set(m, set);
  }
  return set;
}

export function nearDuplicate(a: IndexedMemory, b: IndexedMemory, aText?: string, bText?: string): boolean {
  const [aTerms, bTerms] = [termSet(a), termSet(b)];
  let shared = 0;
  for (const t of aTerms) if (bTerms.has(t)) shared++;
  const union = aTerms.size + bTerms.size - shared;
  const jaccard = union === 0 ? 1 : shared / union;
  const similar =
    jaccard >= NEAR_DUPLICATE.jaccard ||
    (jaccard >= NEAR_DUPLICATE.jaccardWithVectors && a.vector !== null && b.vector !== null && cosine(a.vector, b.vector) >= NEAR_DUPLICATE.cosine);
  if (!similar) return false;
  return aText === undefined || bText === undefined || valuesOf(aText) === valuesOf(bText);
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

export interface LayeredRanked extends Ranked {
  layer: 'memory' | 'passage';
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
 * were already returned word for word is left out (one item per message, whichever ranks first).
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
  // the query is analysed once for both layers (they share the offline word vectors)
  const prepared = prepareQuery(layers.memories, query);
  const mem = scoreCandidates(layers.memories, MEMORY_WEIGHTS, query, filters, pool, now, signals, prepared);
  const wantPassages =
    layers.passages && !prepared.general && (!filters.categories?.length || filters.categories.includes(PASSAGE_CATEGORY));
  const pas =
    wantPassages && layers.passages
      ? scoreCandidates(layers.passages, PASSAGE_WEIGHTS, query, { ...filters, categories: undefined }, pool, now, signals, prepared)
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
  const pickMemory = (r: Ranked, relevance: number): boolean => {
    if (pickedMemories.has(r.index)) return false;
    const m = memIdx.memories[r.index];
    // every message it was taken from is already returned word for word: the passage holds it
    if (m.messages?.length && m.messages.every((i) => shownMessages.has(key(m.sourceEventId, i)))) return false;
    for (const o of pickedMemories) if (nearDuplicate(memIdx.memories[o], m, texts?.[o], texts?.[r.index])) return false;
    pickedMemories.add(r.index);
    for (const i of m.messages ?? []) coveredMessages.add(key(m.sourceEventId, i));
    out.push({ layer: 'memory', index: r.index, relevance });
    return true;
  };
  let a = 0;
  let b = 0;
  while (out.length < limit && (a < mem.length || b < pas.length)) {
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

/**
 * A question that asks for the current state ("what is my current …", "… currently working at?", "… now?",
 * "the latest …", "most recently", "still", "anymore"): the one kind of question `orderUpdates` reorders for.
 */
const CURRENT_STATE = /\b(?:current(?:ly)?|now|these days|nowadays|latest|most recent(?:ly)?|still|any ?more|at the moment|at present|presently)\b/i;

/**
 * Knowledge updates at read time, for a question that asks for the current state (CURRENT_STATE): of two
 * returned items about the same part of the question, said in different conversations, the later one is the
 * more likely to be current ("The user has three bikes." in February; "I'll actually have four bikes with me"
 * in October). Where the claim grammar (conflicts/claims.ts) recognised the change, the older item is already
 * inactive or ranked as history; this covers what it cannot read.
 *
 * An earlier-said item is overtaken by the best-ranked later-said item from another source event that shares
 * at least one of the question's stems, and at least half of those the earlier item matches, and whose
 * relevance is at most `RANKING.updateMargin` below. The item that moves up takes the score of the one it
 * overtook, so the list stays ordered by score (`relevance_score` is the final score). Each item is overtaken
 * once and moves once, so the items between move down one place per update; an item that moved can be
 * overtaken by its own later update (three bikes, then four, then five: five first). The list's members never
 * change, only their order. Other questions keep the order as scored: measured, reordering every question
 * this way moved later mentions of a topic above the evidence older questions need (LoCoMo R@10 72.3 → 69.8;
 * docs/evidence-layer.md).
 */
export function orderUpdates<T extends LayeredRanked>(
  out: T[],
  layers: { memories: CandidateIndex; passages: CandidateIndex | null },
  query: string,
): T[] {
  if (out.length < 2 || !CURRENT_STATE.test(query)) return out;
  const queryTerms = new Set(analyze(query));
  if (queryTerms.size === 0) return out;
  const info = (r: T) => {
    const idx = r.layer === 'memory' ? layers.memories : layers.passages!;
    const m = idx.memories[r.index];
    const matched = new Set<string>();
    for (const t of termSet(m)) if (queryTerms.has(t)) matched.add(t);
    return { said: idx.columns.said[r.index], event: m.sourceEventId ?? null, matched };
  };
  const items = out.map((r) => ({ r, ...info(r) }));
  const sameTopic = (older: (typeof items)[number], newer: (typeof items)[number]) => {
    if (older.matched.size === 0) return false;
    let shared = 0;
    for (const t of older.matched) if (newer.matched.has(t)) shared++;
    return shared > 0 && shared * 2 >= older.matched.size;
  };
  // each earlier-said item is overtaken by at most one later one (its update: the best-ranked that qualifies),
  // and each later item moves once, so the items between them move down one place per update; an update can
  // be overtaken in turn by its own (three, then four, then five bikes: five first)
  const moved = new Set<(typeof items)[number]>();
  const overtaken = new Set<(typeof items)[number]>();
  for (let j = 0; j < items.length; ) {
    const a = items[j];
    let update = -1;
    if (!overtaken.has(a)) {
      // the list is ordered by relevance, so a is the most relevant item b would move above
      for (let i = j + 1; i < items.length; i++) {
        const b = items[i];
        if (a.r.relevance - b.r.relevance > RANKING.updateMargin) break;
        if (!moved.has(b) && a.said < b.said && a.event !== b.event && sameTopic(a, b)) {
          update = i;
          break;
        }
      }
    }
    if (update < 0) {
      j++;
      continue;
    }
    const [b] = items.splice(update, 1);
    // the final score: the place's (the list stays ordered by relevance_score; ties keep this order)
    b.r = { ...b.r, relevance: a.r.relevance };
    items.splice(j, 0, b);
    moved.add(b);
    overtaken.add(a);
    // b, now at j, is looked at next: its own update overtakes it
  }
  return items.map((x) => x.r);
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
  const dims = columns.dims;
  const useEmbedding = signals.embedding ?? null;
  for (let i = 0; i < n; i++) {
    const m = idx.memories[i];
    let semantic = 0;
    let floor: number = RELEVANCE_FLOOR.offline;
    if (useEmbedding && m.embedding && m.embedding.length === useEmbedding.length) {
      semantic = cosine(useEmbedding, m.embedding);
      floor = signals.embeddingFloor ?? RELEVANCE_FLOOR.embedding;
    } else if (queryVector && columns.hasVector[i]) {
      const off = i * dims;
      for (let d = 0; d < dims; d++) semantic += queryVector[d] * columns.vectors[off + d];
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
  const filtered = categories !== null || Boolean(filters.agentId) || filters.createdAfter !== undefined;
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

/** Result order: relevance desc, then said later first, then newer first, then id. */
function better(idx: CandidateIndex, relevance: number, i: number, other: Ranked): boolean {
  if (relevance !== other.relevance) return relevance > other.relevance;
  const said = idx.columns.said;
  if (said[i] !== said[other.index]) return said[i] > said[other.index];
  const a = idx.memories[i];
  const b = idx.memories[other.index];
  if (a.createdAt !== b.createdAt) return a.createdAt > b.createdAt;
  return a.id < b.id;
}
