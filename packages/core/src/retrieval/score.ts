/**
 * Exact hybrid ranking over one user's candidate set (no approximate index: every item is scored, score-layer.ts),
 * in two layers (docs/evidence-layer.md): the extracted memories and the passages of what was said.
 *
 *   memory  = 0.5 × lexical + 0.25 × semantic + 0.1 × importance + 0.02 × recency + 0.05 × entity + feedback
 *   passage = 0.5 × lexical + 0.25 × semantic + 0.02 × recency + 0.05 × entity + 0.1 (passage bias)
 *
 * lexical: BM25 within the item's own layer (Snowball stems), mapped into [0, 1) by s / (s + saturation); a
 *   memory's is then 0.6 × its own + 0.4 × the best of its conversation's memories (`conversationShare`,
 *   score-layer.ts), when it shares a stem with the query;
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
 *   (`answerPattern`) and the item holds one (a point in time: a year, a month, a weekday, a holiday);
 *   advice (memories): + 0.06 to a `preference` when the question asks the assistant for advice (`asksForAdvice`).
 * The query is scored without the wording of a request for advice ("any suggestions?", "can you recommend …";
 * scaffolding.ts); the current-state reordering (updates.ts) reads it whole.
 *
 * The merged list is then reordered for the current state (updates.ts) and, for a question about several
 * events, its first places spread over conversations (spread.ts).
 *
 * Relevance floor: an item is a candidate only when it shares a stem with the query, is linked to an entity
 * the query names, or its semantic similarity reaches RELEVANCE_FLOOR. Importance and recency order what
 * matches; they never make an unrelated item match, so an unrelated query returns nothing. A general query
 * ("what do you know about the user?") matches every memory (isGeneralQuery).
 */
import { analyze, contentWords } from '../text/terms';
import { type CandidateIndex, type IndexedMemory, type LayeredRanked, type Ranked, holdsStem, messageKey } from './candidate-index';
import { nearDuplicate } from './near-duplicates';
import { withClassMembers } from './class-words';
import { withGroupMembers } from './group-words';
import { withVerbForms } from './verb-forms';
import { asksForAdvice, withoutRequestWording } from './scaffolding';
import { type PreparedQuery, type QuerySignals, type RankFilters, scoreCandidates } from './score-layer';
import { spreadHead } from './spread';
import { currentFirst, orderUpdates } from './updates';
import { type DateWindow, calendarWindow, relativeWindow, withoutPhrase } from './when';
import { MEMORY_WEIGHTS, PASSAGE_WEIGHTS, RANKING } from './weights';

export { type LayerWeights, MEMORY_WEIGHTS, PASSAGE_WEIGHTS, RANKING } from './weights';
export {
  type CandidateIndex,
  type CurrentClaim,
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
export { type QuerySignals, type RankFilters, RELEVANCE_FLOOR } from './score-layer';
export { currentFirst, orderUpdates } from './updates';

const stemsOf = (words: string) => [...new Set(analyze(words))].join('|');
const NUMBER_STEMS = stemsOf('one two three four five six seven eight nine ten eleven twelve fifteen twenty thirty forty fifty hundred thousand million dozen half');
const WEEKDAY_STEMS = stemsOf('monday tuesday wednesday thursday friday saturday sunday mondays tuesdays wednesdays thursdays fridays saturdays sundays weekend');
/** Months, holidays (a date each year: "on Valentine's Day", "for Christmas") and the relative "yesterday", "… ago". */
const MONTH_STEMS = stemsOf(
  'january february march april may june july august september october november december christmas xmas thanksgiving easter halloween valentine hanukkah passover diwali yesterday ago',
);
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
 * what the agent needs; the passage is the evidence), unless the passage matched the query on a stem that none
 * of the memory candidates taken from its message holds ("where do I keep my old sneakers?": the memory "needs to
 * take care of the old sneakers", the passage "… I've been keeping them under my bed"): then the passage takes
 * the place of a memory taken from its message alone, and a memory from it ranked later is left out. One passage
 * per message. A reply that quotes its prompt whole (its `messages` are [prompt, reply]) covers the prompt's
 * message too: the prompt's passage is not returned after it, and one returned before it gives the reply its
 * place. A memory all of whose messages were already returned word for word is left out (one item per message,
 * whichever ranks first); one all of whose messages a better-ranked item already cites waits
 * `RANKING.repeatPenalty` lower, so nearly as relevant evidence from other messages goes first, and so does a reply
 * whose prompt a better-ranked memory states (it adds only what the assistant said). Then what is
 * current goes above its history (`currentFirst`) and, for questions about the current state, a total or a
 * change, later statements above earlier (`orderUpdates`).
 */
/** Puts an item lowered by the repeat penalty in its place in a queue ordered best first (ties keep arrival order). */
function waitLowered(queue: Ranked[], item: Ranked): void {
  let at = queue.length;
  while (at > 0 && queue[at - 1].relevance < item.relevance) at--;
  queue.splice(at, 0, item);
}

export function rankLayers(
  layers: { memories: CandidateIndex; memoryTexts?: readonly string[]; passages: CandidateIndex | null },
  query: string,
  filters: RankFilters,
  limit: number,
  now: number,
  signals: QuerySignals = {},
): LayeredRanked[] {
  const pool = limit * 2 + 5;
  // a relative date in the question ("… 10 days ago") names days, counted from when it is asked (when.ts); its
  // words are then not matched against what was said. Days on which nothing was said name nothing: the words
  // stay ("What did Joanna write yesterday?" about a conversation in which she said "yesterday I wrote …").
  // A calendar date with its year ("on 19 August, 2023", "in May 2023") names days too; its words stay.
  const named = relativeWindow(query, signals.askedAt ?? now) ?? calendarWindow(query);
  const window = named && (saidWithin(layers.memories, named) || saidWithin(layers.passages, named)) ? named : null;
  if (window) signals = { ...signals, window };
  now = timelineNow(now, layers.memories, layers.passages);
  // scored without the wording of a request for advice (scaffolding.ts)
  const scored = withoutRequestWording(withoutPhrase(query, window));
  // the query is analysed once for both layers (they share the offline word vectors)
  const prepared = prepareQuery(layers.memories, scored, asksForAdvice(query));
  const mem = scoreCandidates(layers.memories, MEMORY_WEIGHTS, scored, filters, pool, now, signals, prepared);
  const wantPassages =
    layers.passages && !prepared.general && (!filters.categories?.length || filters.categories.includes(PASSAGE_CATEGORY));
  const pas =
    wantPassages && layers.passages
      ? scoreCandidates(layers.passages, PASSAGE_WEIGHTS, scored, { ...filters, categories: undefined }, pool, now, signals, prepared)
      : [];
  const memIdx = layers.memories;
  const texts = layers.memoryTexts;
  const key = messageKey;
  // the best-ranked memory candidate of each cited message, to stand in for that message's passage, and all
  // the memory candidates taken from each message
  const memoryOfMessage = new Map<string, Ranked>();
  const candidatesOfMessage = new Map<string, IndexedMemory[]>();
  for (const r of mem) {
    const m = memIdx.memories[r.index];
    for (const i of m.messages ?? []) {
      const k = key(m.sourceEventId, i);
      const all = candidatesOfMessage.get(k);
      if (all) all.push(m);
      else {
        memoryOfMessage.set(k, r);
        candidatesOfMessage.set(k, [m]);
      }
    }
  }
  // a passage that matched the query on a stem none of its message's memory candidates holds: they lost it
  let queryStems: string[] | null = null;
  const saysMore = (p: IndexedMemory, k: string) => {
    queryStems ??= [...new Set(analyze(scored))];
    const said = candidatesOfMessage.get(k) ?? [];
    return queryStems.some((t) => holdsStem(p.terms, t) && !said.some((m) => holdsStem(m.terms, t)));
  };
  const out: LayeredRanked[] = [];
  const pickedMemories = new Set<number>();
  const coveredMessages = new Set<string>();
  // where in `out` the passage of each message is
  const passageAt = new Map<string, number>();
  // the messages returned word for word (by a passage, or quoted whole by a reply), and those only quoted
  const shownMessages = new Set<string>();
  const quotedMessages = new Set<string>();
  // the passages of each message returned (a long message has several parts)
  const partsShown = new Map<string, IndexedMemory[]>();
  const show = (p: IndexedMemory) => {
    const messages = p.messages ?? [];
    messages.forEach((i, n) => {
      shownMessages.add(key(p.sourceEventId, i));
      if (n < messages.length - 1) quotedMessages.add(key(p.sourceEventId, i));
    });
    const own = key(p.sourceEventId, messages.at(-1) ?? -1);
    const parts = partsShown.get(own);
    if (parts) parts.push(p);
    else partsShown.set(own, [p]);
  };
  // further parts of a returned message that hold a query stem its returned parts do not, at their lowered score
  const laterParts: Ranked[] = [];
  // memories whose every message a better item already cites, waiting at their lowered score (best first)
  const repeats: Ranked[] = [];
  // where in `out` the first memory taken from a message alone is: a passage that says more takes its place
  const memoryAt = new Map<string, number>();
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
      waitLowered(repeats, { index: r.index, relevance: relevance - RANKING.repeatPenalty });
      return true;
    }
    pickedMemories.add(r.index);
    for (const i of m.messages ?? []) coveredMessages.add(key(m.sourceEventId, i));
    if (m.messages?.length === 1) {
      const k = key(m.sourceEventId, m.messages[0]);
      if (!memoryAt.has(k)) memoryAt.set(k, out.length);
    }
    out.push({ layer: 'memory', index: r.index, relevance });
    return true;
  };
  // replies whose prompt a better-ranked memory already covers, waiting at their lowered score (best first)
  const replies: Ranked[] = [];
  const placePassage = (r: Ranked, lowered: boolean): void => {
    const p = layers.passages!.memories[r.index];
    // a passage's own message is its last (a reply lists the prompt it quotes first)
    const messages = p.messages ?? [];
    const k = key(p.sourceEventId, messages.at(-1) ?? -1);
    // returned word for word already, by a reply that quotes it whole
    if (quotedMessages.has(k)) return;
    // another part of a long message returned: this part follows, lowered, when it holds a query stem the returned
    // parts do not ("… what year did the construction begin?" is answered in the third of a case summary's parts)
    if (shownMessages.has(k)) {
      const parts = partsShown.get(k) ?? [];
      queryStems ??= [...new Set(analyze(scored))];
      if (queryStems.some((t) => holdsStem(p.terms, t) && !parts.some((s) => holdsStem(s.terms, t)))) {
        waitLowered(laterParts, { index: r.index, relevance: r.relevance - RANKING.repeatPenalty });
        parts.push(p);
      }
      return;
    }
    if (coveredMessages.has(k)) {
      const at = memoryAt.get(k);
      if (at === undefined || out[at].layer !== 'memory' || !saysMore(p, k)) return;
      out[at] = { layer: 'passage', index: r.index, relevance: out[at].relevance, standsFor: out[at].index };
      passageAt.set(k, at);
      for (const i of messages) coveredMessages.add(key(p.sourceEventId, i));
      show(p);
      return;
    }
    const standIn = memoryOfMessage.get(k);
    const more = standIn !== undefined && saysMore(p, k);
    if (standIn && !more && pickMemory(standIn, Math.max(standIn.relevance, r.relevance))) return;
    // a reply whose prompt a better-ranked memory already states adds only what the assistant said: it waits
    // lowered, as a memory that repeats does, so evidence from other messages goes first
    const prompt = messages.length > 1 ? key(p.sourceEventId, messages[0]) : null;
    if (!lowered && prompt && coveredMessages.has(prompt) && !passageAt.has(prompt)) {
      waitLowered(replies, { index: r.index, relevance: r.relevance - RANKING.repeatPenalty });
      return;
    }
    for (const i of messages) coveredMessages.add(key(p.sourceEventId, i));
    // a reply quoting a prompt whose own passage was returned takes that passage's place (it says all it says)
    const promptAt = messages.length > 1 ? passageAt.get(key(p.sourceEventId, messages[0])) : undefined;
    if (promptAt !== undefined) {
      out[promptAt] = { layer: 'passage', index: r.index, relevance: Math.max(out[promptAt].relevance, r.relevance) };
      passageAt.set(k, promptAt);
      show(p);
      return;
    }
    passageAt.set(k, out.length);
    show(p);
    out.push({ layer: 'passage', index: r.index, relevance: r.relevance, ...(more ? { standsFor: standIn.index } : {}) });
  };
  let a = 0;
  let b = 0;
  while (out.length < limit && (a < mem.length || b < pas.length || repeats.length > 0 || laterParts.length > 0 || replies.length > 0)) {
    const next = Math.max(a < mem.length ? mem[a].relevance : -Infinity, b < pas.length ? pas[b].relevance : -Infinity);
    const part = laterParts[0]?.relevance ?? -Infinity;
    const reply = replies[0]?.relevance ?? -Infinity;
    if (repeats.length > 0 && repeats[0].relevance > next && repeats[0].relevance >= part && repeats[0].relevance >= reply) {
      const r = repeats.shift()!;
      pickMemory(r, r.relevance, true);
      continue;
    }
    if (reply > next && reply >= part) {
      placePassage(replies.shift()!, true);
      continue;
    }
    if (part > next) {
      out.push({ layer: 'passage', ...laterParts.shift()! });
      continue;
    }
    const takeMemory = b >= pas.length || (a < mem.length && mem[a].relevance >= pas[b].relevance);
    if (takeMemory) {
      pickMemory(mem[a], mem[a].relevance);
      a++;
      continue;
    }
    placePassage(pas[b++], false);
  }
  const ordered = orderUpdates(currentFirst(out, layers, query, filters, limit), layers, query);
  const eventOf = (r: LayeredRanked) => (r.layer === 'memory' ? memIdx : layers.passages!).memories[r.index].sourceEventId ?? null;
  const spread = spreadHead(ordered, query, eventOf);
  // where the spread changed the first places, the current-state order again among them (a later statement
  // above the earlier one it placed first); which items those places hold does not change
  const head = spread.slice(0, RANKING.spreadHead);
  if (head.every((r, i) => r === ordered[i])) return spread;
  return [...orderUpdates(head, layers, query), ...spread.slice(head.length)];
}


function prepareQuery(idx: CandidateIndex, query: string, advice = asksForAdvice(query)): PreparedQuery {
  return {
    general: isGeneralQuery(query),
    answer: answerPattern(query),
    advice,
    vectors: idx.vectors,
    vector: idx.vectors?.embed(query) ?? null,
    terms: withClassMembers(query, withVerbForms(withGroupMembers(query))),
  };
}


/** Whether anything in the index was said within the window. */
function saidWithin(idx: CandidateIndex | null, window: DateWindow): boolean {
  if (!idx) return false;
  const { said } = idx.columns;
  for (let i = 0; i < idx.memories.length; i++) if (said[i] >= window.from && said[i] < window.to) return true;
  return false;
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
