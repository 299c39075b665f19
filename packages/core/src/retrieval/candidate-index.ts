/**
 * One user's candidate set as the ranking reads it (score.ts): items with their stems, stored vectors and
 * per-item columns, the postings of each stem (found on first use) and BM25 over them.
 */
import { analyze, termFrequencies } from '../text/terms';
import { type WordVectors, wordVectors } from '../text/word-vectors';
import { RANKING } from './weights';

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
  /**
   * The lower-cased name of the person who said the message the item was taken from, when the conversation
   * names its speakers (and every message it cites has the same one): what a person said is about that person
   * first; a name it only mentions is someone else's words about them (score-layer.ts, the entity term).
   */
  speaker?: string;
  /** The configured embeddings model's vector, when there is one. */
  embedding?: Float32Array | null;
  /** Offline sentence vector: stored with the item, else computed when the index is built. */
  vector: Float32Array | null;
  /** The source event the item came from and the message indices it cites (passages: exactly one). */
  sourceEventId?: string | null;
  messages?: readonly number[] | null;
  /**
   * A passage of history: the active memories whose claims superseded the claims taken from its message (the
   * end of each chain of supersessions). What is current ranks above it (updates.ts currentFirst).
   */
  current?: readonly CurrentClaim[];
  /** The item's stems in order, space-separated (as stored, analysis.ts). */
  terms: string;
  /** Number of stems. */
  length: number;
}

/** An active memory that holds a claim now, in place of claims a passage's message made before. */
export interface CurrentClaim {
  id: string;
  /** The stems of the superseded memories taken from that message that it replaced (space-separated). */
  replaced: string;
}

/** A message of a source event, as both layers cite it: "<event>#<message index>". */
export const messageKey = (event: string | null | undefined, message: number) => `${event ?? ''}#${message}`;

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
    /** Each item's conversation (source event) as a number from 0, -1 for an item without one. */
    conversation: Int32Array;
    /** How many conversations the items come from. */
    conversations: number;
  };
  /** The newest `said` of the index (-Infinity when empty): "now" on the user's timeline. */
  newestSaid: number;
}

/** What was computed when the item was written (analysis.ts); absent parts are computed here. */
export interface PrecomputedAnalysis {
  /** The stored stems, space-separated. */
  terms?: string | null;
  /**
   * The offline vector, as stored (base64 int8, analysis.ts) or already decoded: unit length, as
   * `WordVectors.embed` gives (the ranking bounds a cosine by 1, score-layer.ts).
   */
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
    conversation: new Int32Array(n),
    conversations: 0,
  };
  const conversationOf = new Map<string, number>();
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
    const length = stemCount(terms);
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
    let conversation = -1;
    if (m.sourceEventId) {
      conversation = conversationOf.get(m.sourceEventId) ?? conversationOf.size;
      conversationOf.set(m.sourceEventId, conversation);
    }
    columns.conversation[i] = conversation;
    indexed.push(item);
  });
  offsets[n] = at;
  columns.conversations = conversationOf.size;
  return { memories: indexed, text: lines.join('\n'), offsets, postings: new Map(), avgLength: n ? total / n : 0, vectors, columns, newestSaid };
}

/**
 * The number of stems in space-separated `terms`. Found with indexOf (a native scan) rather than a loop over
 * every character: on a cold load that loop ran over ~300,000 characters a user and was a large part of
 * building the index in the server, where it was not always optimised.
 */
export function stemCount(terms: string): number {
  if (terms.length === 0) return 0;
  let n = 1;
  for (let at = terms.indexOf(' '); at !== -1; at = terms.indexOf(' ', at + 1)) n++;
  return n;
}

/** Whether space-separated `terms` hold `stem` as a whole stem (a native scan, no split). */
export function holdsStem(terms: string, stem: string): boolean {
  for (let at = terms.indexOf(stem); at !== -1; at = terms.indexOf(stem, at + 1)) {
    const end = at + stem.length;
    if ((at === 0 || terms.charCodeAt(at - 1) === SPACE) && (end === terms.length || terms.charCodeAt(end) === SPACE)) return true;
  }
  return false;
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

export interface Ranked {
  index: number;
  relevance: number;
}

export interface LayeredRanked extends Ranked {
  layer: 'memory' | 'passage';
  /** A passage returned in place of this memory of its message (score.ts rankLayers): it renders as important. */
  standsFor?: number;
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

/**
 * Exact BM25 of the query against every memory of the index (0 for memories without a query term). `terms`:
 * the query's stems with a weight each, when they are not just its words at weight 1 (retrieval adds a group's
 * member words, group-words.ts, and an irregular verb's other forms, verb-forms.ts: `prepareQuery` in score.ts).
 */
export function bm25Scores(idx: CandidateIndex, query: string, terms?: ReadonlyMap<string, number>): Float64Array {
  const n = idx.memories.length;
  const lexical = new Float64Array(n);
  const queryTerms = terms ?? new Map([...termFrequencies(query).keys()].map((t) => [t, 1]));
  for (const [term, weight] of queryTerms) {
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
      lexical[i] += (weight * idf * tf * (RANKING.k1 + 1)) / norm;
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
