/**
 * The hot tier: each recently retrieved user's active memories, kept in process with the lexical index
 * built, tagged with the user's `memory_version`. Every memory write bumps that version in the same
 * transaction, and every retrieve reads it first, so a cached set is used only while it is current: a
 * new memory is never missed. Least recently used users are evicted first (bounded by memory count).
 */
import { LRUCache } from 'lru-cache';
import type { MemoryWithSourceRow, SourceEventColumns } from '../memories/serialize';
import { OFFLINE_VECTOR_MODEL } from '../text/analysis';
import { type CandidateIndex, type CurrentClaim, PASSAGE_CATEGORY, type PrecomputedAnalysis, buildIndex } from './score';
import { messageKey } from './candidate-index';
import { analyze } from '../text/terms';
import { wordVectors } from '../text/word-vectors';
import { type PassagePrompt, closesWithQuestion, promptOf } from '../evidence/passages';
import { quotedQuestionOf } from '../extraction/builtin';

/** A memory as retrieval loads it: the row with its source, plus the ranking inputs. */
export interface RankableRow extends MemoryWithSourceRow {
  feedback_score?: number | null;
  /** Lower-cased names of the entities the memory is linked to. */
  entity_names?: string[] | null;
  embedding?: number[] | null;
  embedding_model?: string | null;
  /** Stored ranking inputs (analysis.ts); null on rows written before they existed. */
  terms?: string | null;
  vector?: string | null;
  vector_model?: string | null;
}

/** A source event's provenance columns, as a memory carries them and as the set keeps them for its passages. */
export type EventColumns = SourceEventColumns & { se_evidence?: unknown };

/** The columns of a row whose source event is unknown (none, or erased). */
export const NO_EVENT: EventColumns = Object.freeze({
  se_service: null,
  se_event_id: null,
  se_observed_at: null,
  se_received_at: null,
  se_payload_hash: null,
  se_scope: null,
  se_writer_id: null,
  se_evidence: null,
});

/** A passage of the evidence layer as retrieval loads it (its source event's columns are in `HotUserSet.events`). */
export interface PassageRow {
  id: string;
  source_event_id: string;
  job_id: string | null;
  agent_id: string | null;
  message_index: number;
  /** The passage's place within its message. */
  part: number;
  role: string;
  speaker: string | null;
  content: string;
  /** Milliseconds as loaded (load-user-set.ts); a Date or an ISO string is read the same way (timeOf). */
  observed_at: Date | string | number;
  created_at: Date | string | number;
  terms: string | null;
  vector: string | null;
  vector_model: string | null;
  /** A claim taken from this message was superseded by a newer one: still evidence, ranked below what is current. */
  superseded?: boolean;
  /**
   * The stems of the superseded memories taken from this message: indexed with the passage, so the history is
   * found by the words it was found by as a memory ("cocktail-making class on Thursday").
   */
  history_terms?: string;
  /** The active memories that superseded those claims (following each chain of supersessions to its end). */
  current?: CurrentClaim[];
}

export interface HotUserSet {
  version: number;
  rows: RankableRow[];
  index: CandidateIndex;
  /** The memories' contents, by index (value-aware near-duplicate collapse reads them). */
  memoryTexts: string[];
  /** The evidence layer: the user's passages and their index (null: none loaded). */
  passages: PassageRow[];
  passageIndex: CandidateIndex | null;
  /** The source events of the passages, by id (a returned passage's provenance). */
  events: ReadonlyMap<string, EventColumns>;
  /** Each passage's prompt: for an assistant passage, the user message it answers (else null). */
  prompts: (PassagePrompt | null)[];
  /** The embeddings model whose vectors `index` holds (null: none). */
  embeddingModel: string | null;
  /** Every entity name of the user's memories, longest first: the names a query can mention. */
  entityNames: Set<string>;
  /** The oldest open review's question; reviews open and close with a version bump. */
  clarificationQuestion: string | null;
}

export class HotTier {
  private readonly cache: LRUCache<string, HotUserSet>;
  /** Loads in progress, so concurrent first requests for one user share one load (no stampede). */
  private readonly loading = new Map<string, Promise<HotUserSet>>();

  /** Vectors of this model (the configured embeddings endpoint's) are used; others are ignored. */
  embeddingModel: string | null = null;

  constructor(maxMemories = 200_000) {
    this.cache = new LRUCache<string, HotUserSet>({ maxSize: maxMemories, sizeCalculation: (v) => v.rows.length + v.passages.length + 1 });
  }

  /** The user's set if it is still current, else null (and a stale set is dropped). */
  get(userId: string, version: number): HotUserSet | null {
    const set = this.cache.get(userId);
    if (!set) return null;
    if (set.version !== version) {
      this.cache.delete(userId);
      return null;
    }
    return set;
  }

  /** The current set, loading it once however many requests ask at the same time. */
  async getOrLoad(
    userId: string,
    version: number,
    load: () => Promise<{ rows: RankableRow[]; passages?: PassageRow[]; events?: ReadonlyMap<string, EventColumns>; clarificationQuestion: string | null }>,
  ): Promise<{ set: HotUserSet; hit: boolean }> {
    const hit = this.get(userId, version);
    if (hit) return { set: hit, hit: true };
    const key = `${userId}:${version}`;
    let pending = this.loading.get(key);
    if (!pending) {
      pending = load()
        .then((loaded) => this.build(userId, version, loaded.rows, loaded.clarificationQuestion, loaded.passages ?? [], loaded.events))
        .finally(() => this.loading.delete(key));
      this.loading.set(key, pending);
    }
    return { set: await pending, hit: false };
  }

  build(
    userId: string,
    version: number,
    rows: RankableRow[],
    clarificationQuestion: string | null = null,
    passages: PassageRow[] = [],
    events: ReadonlyMap<string, EventColumns> = new Map(),
  ): HotUserSet {
    const entityNames = new Set<string>();
    const vectors = wordVectors();
    const speakers = speakersOf(passages);
    const index = buildIndex(
      rows.map((r) => {
        for (const e of r.entity_names ?? []) entityNames.add(e);
        const speaker = speakerOfMessages(speakers, r.source_event_id, r.message_indices, r.content);
        return {
          ...(speaker ? { speaker } : {}),
          id: r.id,
          category: r.category,
          importance: r.importance,
          agentId: r.agent_id,
          createdAt: timeOf(r.created_at),
          // when it was said: recency counts on the user's timeline (score.ts)
          observedAt: r.se_observed_at ? timeOf(r.se_observed_at) : undefined,
          feedbackScore: r.feedback_score ?? 0,
          entities: r.entity_names ?? [],
          embedding: r.embedding && r.embedding_model === this.embeddingModel ? Float32Array.from(r.embedding) : null,
          sourceEventId: r.source_event_id,
          messages: Array.isArray(r.message_indices) ? (r.message_indices as number[]) : null,
        };
      }),
      rows.map((r) => r.content),
      vectors,
      rows.map(storedAnalysis),
    );
    for (const speaker of speakers.values()) entityNames.add(speaker);
    const prompts = promptsOf(passages);
    const passageIndex =
      passages.length === 0
        ? null
        : buildIndex(
            passages.map((p, i) => ({
              id: p.id,
              category: PASSAGE_CATEGORY,
              // passages have no importance; -1 marks what a newer claim superseded (score.ts PASSAGE_WEIGHTS)
              importance: p.superseded ? -1 : 0,
              agentId: p.agent_id,
              createdAt: timeOf(p.created_at),
              observedAt: timeOf(p.observed_at),
              sourceEventId: p.source_event_id,
              // a named speaker is the passage's entity, as the people a memory names are the memory's
              ...speakerLinks(speakers.get(messageKey(p.source_event_id, p.message_index))),
              ...(p.current?.length ? { current: p.current } : {}),
              // a reply that quotes its prompt whole stands for both messages (rankLayers: one item per message)
              messages: prompts[i]?.whole ? [prompts[i]!.messageIndex, p.message_index] : [p.message_index],
            })),
            passages.map((p) => p.content),
            vectors,
            passages.map((p) => {
              const stored = storedAnalysis(p);
              return p.history_terms ? { ...stored, terms: `${stored.terms ?? analyze(p.content).join(' ')} ${p.history_terms}` } : stored;
            }),
          );
    const set: HotUserSet = {
      version,
      rows,
      index,
      memoryTexts: rows.map((r) => r.content),
      passages,
      passageIndex,
      events,
      prompts,
      embeddingModel: this.embeddingModel,
      entityNames,
      clarificationQuestion,
    };
    this.cache.set(userId, set);
    return set;
  }

  /** Keeps the cached access fields in step with what this process records. */
  noteAccess(set: HotUserSet, indices: number[], at: Date): void {
    for (const i of indices) {
      const row = set.rows[i];
      row.last_accessed = at;
      row.access_count += 1;
    }
  }

  /** Drops a user's set at once (erasure: its contents must not stay in memory until evicted). */
  evict(userId: string): void {
    this.cache.delete(userId);
  }

  clear(): void {
    this.cache.clear();
  }
}

/**
 * A timestamp column as milliseconds. Not `new Date(value).getTime()`: the Next.js server replaces the global
 * `Date` constructor with a wrapper (node-environment-extensions/date.js) that made the thousands of calls of a
 * cold load several milliseconds; `getTime` and `Date.parse` are the engine's own.
 */
export function timeOf(value: Date | string | number): number {
  return typeof value === 'number' ? value : value instanceof Date ? value.getTime() : Date.parse(value);
}

/** The stored ranking inputs of a row, when they were made by the vectors this process uses. */
function storedAnalysis(r: { terms?: string | null; vector?: string | null; vector_model?: string | null }): PrecomputedAnalysis {
  return {
    terms: r.terms,
    storedVector: r.vector_model === OFFLINE_VECTOR_MODEL ? r.vector : null,
  };
}

/**
 * For every assistant passage, the user message right before its message in the same source event, among the
 * passages loaded: a message whose memory was retired (other than superseded) is not loaded (loadPassages), so no
 * reply quotes it. Between named people, likewise the opening passage of a reply to a question the other person
 * just asked (`closesWithQuestion`): "Xenoblade, for sure!" is shown with "So what's your favourite game?".
 */
function promptsOf(passages: readonly PassageRow[]): (PassagePrompt | null)[] {
  const userMessages = new Map<string, PassageRow[]>();
  for (const p of passages) {
    if (p.role !== 'user') continue;
    const key = `${p.source_event_id}#${p.message_index}`;
    const parts = userMessages.get(key);
    if (parts) parts.push(p);
    else userMessages.set(key, [p]);
  }
  const made = new Map<string, PassagePrompt | null>();
  return passages.map((p) => {
    const named = p.role === 'user' && p.speaker !== null && p.part === 0;
    if (p.role !== 'assistant' && !named) return null;
    const key = `${p.source_event_id}#${p.message_index - 1}`;
    const known = made.get(key);
    if (known !== undefined) return known;
    const parts = userMessages.get(key);
    if (!parts || (named && (!parts[0].speaker || parts[0].speaker === p.speaker))) return null;
    const text = [...parts].sort((a, b) => a.part - b.part).map((x) => x.content).join(' ');
    // a named person's message is the reply's prompt only when it closes with a question
    const prompt = named && !closesWithQuestion(text) ? null : promptOf(p.message_index - 1, text, parts[0].speaker);
    made.set(key, prompt);
    return prompt;
  });
}

/** The named speaker of each message that has passages ("<event>#<message index>" -> lower-cased name). */
function speakersOf(passages: readonly PassageRow[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const p of passages) if (p.speaker) out.set(messageKey(p.source_event_id, p.message_index), p.speaker.toLowerCase());
  return out;
}

/** A passage's named speaker as its entity and its speaker (nothing when unnamed). */
const speakerLinks = (speaker: string | undefined) => (speaker ? { entities: [speaker], speaker } : {});

/**
 * The one named speaker of the messages a memory cites (undefined: none named, or more than one person), except
 * for an answer that quotes the question it answers: it cites the asker's message too (before its own), and it
 * is the answerer's ("Nate said that … (in reply to Joanna: "What's your favourite game?")" is Nate's).
 */
function speakerOfMessages(
  speakers: ReadonlyMap<string, string>,
  event: string | null | undefined,
  indices: unknown,
  content: string,
): string | undefined {
  if (speakers.size === 0 || !Array.isArray(indices) || indices.length === 0) return undefined;
  const cited = indices as number[];
  const last = speakers.get(messageKey(event, Math.max(...cited)));
  if (!last) return undefined;
  // every other person's message it cites must be the one asker whose question it quotes
  let asker: string | undefined;
  for (const i of cited) {
    const s = speakers.get(messageKey(event, i));
    if (s === last) continue;
    if (!s || (asker && s !== asker)) return undefined;
    asker = s;
  }
  return asker === undefined || content.toLowerCase().includes(`(${quotedQuestionOf(asker)}`) ? last : undefined;
}
