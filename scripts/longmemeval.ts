/**
 * LongMemEval for `npm run bench:longmemeval`: reading a question's haystack, turning it into add calls
 * that fit the API's limits (remembering which original turn each sent message was), mapping retrieved
 * provenance back to sessions and turns, and the retrieval metrics. Pure functions; the HTTP run is in
 * bench-longmemeval.ts.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { sha256Hex } from '../packages/core/src/crypto';
import { bm25Top, buildIndex } from '../packages/core/src/retrieval/score';
import { analyze } from '../packages/core/src/text/terms';
import { LIMITS } from '../packages/core/src/schemas/limits';

export interface LmeTurn {
  role: 'user' | 'assistant';
  content: string;
  has_answer?: boolean;
}

export interface LmeQuestion {
  question_id: string;
  question_type: string;
  question: string;
  answer: unknown;
  /** When the question is asked, in the haystack dates' form; the retrieve's `reference_time`. */
  question_date?: string;
  haystack_dates: string[];
  haystack_session_ids: string[];
  haystack_sessions: LmeTurn[][];
}

/** Abstention questions have no answer in the history: LongMemEval leaves them out of retrieval recall. */
export const isAbstention = (q: Pick<LmeQuestion, 'question_id'>) => q.question_id.endsWith('_abs');

/**
 * The non-abstention questions of a directory of `<sessions>_<question_id>.json` files. With `limit`, the
 * first questions of each type in turn (files in name order), so a short run still sees every type.
 */
export function loadQuestions(
  dir: string,
  limit: number | null,
  types: readonly string[] = [],
): { questions: LmeQuestion[]; abstentionLeftOut: number } {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();
  const all = files.map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as LmeQuestion);
  const kept = all.filter((q) => !isAbstention(q) && (types.length === 0 || types.includes(q.question_type)));
  const abstentionLeftOut = all.length - kept.length;
  if (limit === null || limit >= kept.length) return { questions: kept, abstentionLeftOut };
  const byType = new Map<string, LmeQuestion[]>();
  for (const q of kept) byType.set(q.question_type, [...(byType.get(q.question_type) ?? []), q]);
  const queues = [...byType.keys()].sort().map((t) => byType.get(t) ?? []);
  const questions: LmeQuestion[] = [];
  for (let i = 0; questions.length < limit; i++) {
    for (const queue of queues) if (i < queue.length && questions.length < limit) questions.push(queue[i]);
  }
  return { questions, abstentionLeftOut };
}

/** "2023/05/21 (Sun) 19:50" -> a UTC date (the data has no time zone; UTC keeps runs reproducible). */
export function parseHaystackDate(s: string): Date {
  const m = /^(\d{4})\/(\d{2})\/(\d{2})\s*(?:\([A-Za-z]+\))?\s*(\d{1,2}):(\d{2})$/.exec(s.trim());
  if (!m) throw new Error(`unparseable haystack date: ${s}`);
  return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5])));
}

/**
 * The retrieve body for a question (limit: the service's default when not given), asked on the question's date
 * (`reference_time`), as an agent passes the time of the conversation it answers in.
 */
export function retrieveBody(q: LmeQuestion, user: string, limit?: number): Record<string, unknown> {
  return {
    external_user_id: user,
    query: q.question,
    ...(limit === undefined ? {} : { limit }),
    ...(q.question_date ? { reference_time: parseHaystackDate(q.question_date).toISOString() } : {}),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Add calls
// ---------------------------------------------------------------------------------------------------------

/** One POST /v1/memories/add: part of (usually all of) one haystack session. */
export interface PlannedAdd {
  eventId: string;
  /** Index of the session in `haystack_sessions`. */
  session: number;
  observedAt: string;
  messages: { role: 'user' | 'assistant'; content: string }[];
  /** Sent message index -> the original turn index in the session (empty turns are not sent). */
  turnOf: number[];
}

export interface AddPlan {
  adds: PlannedAdd[];
  messages: number;
  droppedEmpty: number;
  cut: number;
}

/**
 * The haystack as add calls, sessions in date order (ties keep the file's order). The API refuses a whole
 * add when one message is empty or longer than `messageChars`, so empty turns are dropped and long ones
 * cut; a session beyond `messagesPerAdd` messages or `conversationChars` characters is split into parts.
 * Event ids are opaque (a hash of the user, session id, its occurrence and the part): the session ids of
 * evidence sessions start with `answer_` and must not reach the service.
 */
export function planAdds(q: LmeQuestion, externalUserId: string): AddPlan {
  const order = q.haystack_sessions
    .map((_, i) => ({ i, at: parseHaystackDate(q.haystack_dates[i]) }))
    .sort((a, b) => a.at.getTime() - b.at.getTime() || a.i - b.i);
  const seen = new Map<string, number>();
  const plan: AddPlan = { adds: [], messages: 0, droppedEmpty: 0, cut: 0 };
  for (const { i, at } of order) {
    const sessionId = q.haystack_session_ids[i];
    const occurrence = seen.get(sessionId) ?? 0;
    seen.set(sessionId, occurrence + 1);
    let part: PlannedAdd | null = null;
    let parts = 0;
    let chars = 0;
    for (const [t, turn] of q.haystack_sessions[i].entries()) {
      if (turn.content.trim() === '') {
        plan.droppedEmpty++;
        continue;
      }
      const content = turn.content.length > LIMITS.messageChars ? turn.content.slice(0, LIMITS.messageChars) : turn.content;
      if (content !== turn.content) plan.cut++;
      if (!part || part.messages.length >= LIMITS.messagesPerAdd || chars + content.length > LIMITS.conversationChars) {
        part = {
          eventId: `lme_${sha256Hex(`${externalUserId}\n${sessionId}\n${occurrence}\n${parts++}`).slice(0, 32)}`,
          session: i,
          observedAt: at.toISOString(),
          messages: [],
          turnOf: [],
        };
        plan.adds.push(part);
        chars = 0;
      }
      part.messages.push({ role: turn.role, content });
      part.turnOf.push(t);
      chars += content.length;
      plan.messages++;
    }
  }
  return plan;
}

// ---------------------------------------------------------------------------------------------------------
// Coverage and metrics
// ---------------------------------------------------------------------------------------------------------

export const KS = [5, 10, 25, 50] as const;

/** What one retrieved item points at: haystack session indices and turns (`<session>:<turn>`). */
export interface Coverage {
  sessions: number[];
  turns: string[];
}

export const turnKey = (session: number, turn: number) => `${session}:${turn}`;

export interface Evidence {
  sessions: Set<number>;
  turns: Set<string>;
}

/** Evidence sessions: ids starting with `answer_`; evidence turns: `has_answer: true`. */
export function evidenceOf(q: LmeQuestion): Evidence {
  const sessions = new Set<number>();
  const turns = new Set<string>();
  q.haystack_sessions.forEach((session, s) => {
    if (q.haystack_session_ids[s].startsWith('answer_')) sessions.add(s);
    session.forEach((turn, t) => {
      if (turn.has_answer) turns.add(turnKey(s, t));
    });
  });
  return { sessions, turns };
}

/**
 * The evidence turns of the newest evidence session, when the evidence spans sessions of different dates
 * (a knowledge update: the old value, then the new one); null otherwise.
 */
export function newestEvidence(q: LmeQuestion): Set<string> | null {
  const { turns } = evidenceOf(q);
  const sessions = [...new Set([...turns].map((t) => Number(t.split(':')[0])))];
  if (sessions.length < 2) return null;
  const at = (s: number) => parseHaystackDate(q.haystack_dates[s]).getTime();
  const newest = Math.max(...sessions.map(at));
  if (sessions.every((s) => at(s) === newest)) return null;
  return new Set([...turns].filter((t) => at(Number(t.split(':')[0])) === newest));
}

/**
 * Whether the newest value comes first: 1 when, within the top k, the highest-ranked item that covers any
 * evidence turn covers a turn of the newest evidence session; 0 when an older one comes first or none is in
 * the top k; null when the question has no newer and older evidence.
 */
export function newestFirst(ranked: Coverage[], evidence: Evidence, newest: Set<string> | null, k = ANSWER_WORDS_K): number | null {
  if (!newest) return null;
  for (const c of ranked.slice(0, k)) {
    if (c.turns.some((t) => newest.has(t))) return 1;
    if (c.turns.some((t) => evidence.turns.has(t))) return 0;
  }
  return 0;
}

/** A retrieved item's provenance mapped back to the haystack; null when its event is not one of ours. */
export function coverageOfItem(
  provenance: { event_id?: string; message_indices?: number[] } | null | undefined,
  addsByEvent: Map<string, PlannedAdd>,
): Coverage | null {
  const add = provenance?.event_id ? addsByEvent.get(provenance.event_id) : undefined;
  if (!add) return null;
  const turns = (provenance?.message_indices ?? [])
    .map((i) => add.turnOf[i])
    .filter((t): t is number => t !== undefined)
    .map((t) => turnKey(add.session, t));
  return { sessions: [add.session], turns };
}

/** Per k: 1/0 when every / any evidence item is covered by the top k, and the covered fraction. */
export interface LevelScores {
  recall_all: Record<number, number>;
  recall_any: Record<number, number>;
  covered: Record<number, number>;
}

function levelScores<T>(ranked: T[][], evidence: Set<T>): LevelScores {
  const out: LevelScores = { recall_all: {}, recall_any: {}, covered: {} };
  for (const k of KS) {
    const top = new Set(ranked.slice(0, k).flat());
    const hits = [...evidence].filter((e) => top.has(e)).length;
    out.recall_all[k] = hits === evidence.size ? 1 : 0;
    out.recall_any[k] = hits > 0 ? 1 : 0;
    out.covered[k] = hits / evidence.size;
  }
  return out;
}

export function scoreRanking(ranked: Coverage[], evidence: Evidence): { session: LevelScores; turn: LevelScores } {
  return {
    session: levelScores(
      ranked.map((c) => c.sessions),
      evidence.sessions,
    ),
    turn: levelScores(
      ranked.map((c) => c.turns),
      evidence.turns,
    ),
  };
}

/** Answers of at most this many distinct content words are checked for the answer-words rate. */
export const SHORT_ANSWER_WORDS = 6;
export const ANSWER_WORDS_K = 10;

/**
 * The content words of a short string answer: the stems the service's own text analysis keeps (lower case,
 * English stop words removed, Snowball stems), distinct. Null when the answer is not a string or has no
 * content word or more than SHORT_ANSWER_WORDS of them: a long answer is a description, not words to find.
 */
export function answerTerms(answer: unknown): string[] | null {
  if (typeof answer !== 'string') return null;
  const terms = [...new Set(analyze(answer))];
  return terms.length > 0 && terms.length <= SHORT_ANSWER_WORDS ? terms : null;
}

/** Every answer term appears among the stems of the texts (null: the answer is not checked). */
export function answerWordsFound(terms: string[] | null, texts: string[]): boolean | null {
  if (!terms) return null;
  const stems = new Set(analyze(texts.join('\n')));
  return terms.every((t) => stems.has(t));
}

// ---------------------------------------------------------------------------------------------------------
// Reference retriever and aggregation
// ---------------------------------------------------------------------------------------------------------

/** A user turn with the assistant turns that follow it (leading assistant turns form a round of their own). */
export interface Round {
  coverage: Coverage;
  text: string;
}

export function roundsOf(q: LmeQuestion): Round[] {
  const rounds: Round[] = [];
  for (const [s, session] of q.haystack_sessions.entries()) {
    let current: Round | null = null;
    for (const [t, turn] of session.entries()) {
      if (!current || turn.role === 'user') {
        current = { coverage: { sessions: [s], turns: [] }, text: '' };
        rounds.push(current);
      }
      current.coverage.turns.push(turnKey(s, t));
      current.text += `${turn.content}\n`;
    }
  }
  return rounds;
}

/** Reference retriever: BM25 over the question's rounds, with the service's BM25 code and text analysis. */
export function roundRetriever(q: LmeQuestion): (query: string, k: number) => Round[] {
  const rounds = roundsOf(q);
  const idx = buildIndex(
    rounds.map((_, i) => ({ id: String(i), category: 'round', importance: 0, agentId: null, createdAt: 0 })),
    rounds.map((r) => r.text),
    null,
  );
  return (query, k) => bm25Top(idx, query, k).map((r) => rounds[r.index]);
}

export interface QuestionScores {
  type: string;
  session: LevelScores;
  turn: LevelScores;
  answerWords: boolean | null;
  /** newestFirst() at k = 10; null when the question has no newer and older evidence. */
  newestFirst?: number | null;
}

export interface GroupScores {
  n: number;
  session: LevelScores;
  turn: LevelScores;
  /** Questions with a short answer, and the share of them whose answer words are all in the top 10 (null: none). */
  answer_words_10: { eligible: number; rate: number | null };
  /** Questions with older and newer evidence, and the share whose newest evidence comes first in the top 10. */
  newest_first_10: { eligible: number; rate: number | null };
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

function meanLevel(list: LevelScores[]): LevelScores {
  const out: LevelScores = { recall_all: {}, recall_any: {}, covered: {} };
  for (const metric of ['recall_all', 'recall_any', 'covered'] as const) {
    for (const k of KS) out[metric][k] = mean(list.map((l) => l[metric][k]));
  }
  return out;
}

/** Means per question type and `overall`. */
export function aggregate(per: QuestionScores[]): Record<string, GroupScores> {
  const groups: Record<string, QuestionScores[]> = { overall: per };
  for (const p of per) (groups[p.type] ??= []).push(p);
  const out: Record<string, GroupScores> = {};
  for (const [key, list] of Object.entries(groups)) {
    const checked = list.map((p) => p.answerWords).filter((x): x is boolean => x !== null);
    out[key] = {
      n: list.length,
      session: meanLevel(list.map((p) => p.session)),
      turn: meanLevel(list.map((p) => p.turn)),
      answer_words_10: { eligible: checked.length, rate: checked.length ? mean(checked.map((x) => (x ? 1 : 0))) : null },
      newest_first_10: (() => {
        const n = list.map((p) => p.newestFirst).filter((x): x is number => x !== null && x !== undefined);
        return { eligible: n.length, rate: n.length ? mean(n) : null };
      })(),
    };
  }
  return out;
}
