/** Knowledge updates at read time (score.ts, rankLayers): for a question about the current state, a running total or a change, later-said items first. */
import { analyze } from '../text/terms';
import { type CandidateIndex, type CurrentClaim, type IndexedMemory, type LayeredRanked, messageKey } from './candidate-index';
import { nearDuplicate, termSet } from './near-duplicates';
import { type RankFilters, filterOf } from './score-layer';
import { RANKING } from './weights';

/**
 * A question that asks for the current state ("what is my current …", "… currently working at?", "… now?",
 * "the latest …", "most recently", "still", "anymore"), or compares it with the past ("more often than before",
 * "less than I used to"): with count and change questions not anchored in the past, the kinds of question
 * `orderUpdates` reorders for (`updateRule`).
 */
const CURRENT_STATE =
  /\b(?:current(?:ly)?|now|these days|nowadays|latest|most recent(?:ly)?|still|any ?more|at the moment|at present|presently|than (?:(?:i|we|you|he|she|they|it) (?:did|used to|was|were|had) )?(?:before|previously|earlier|in the past))\b|\bthan (?:i|we|you|he|she|they|it) used to\b/i;

/**
 * A question for a number of things: "how many …", "how much …", "the total …", "the number of …"; not a span of
 * time or a number of times ("how many months have passed since …", "how many times did I …"), which count
 * occurrences on the timeline rather than restate a total.
 */
const COUNT_QUESTION = /\bhow (?:many|much)\b|\b(?:total|number of)\b/i;
const ELAPSED_OR_TIMES = /\b(?:how many|how much|number of)\s+(?:more\s+|fewer\s+|whole\s+)?(?:days?|weeks?|months?|years?|hours?|minutes?|nights?|times?|time)\b/i;
/** Verbs of a move from one place, provider or thing to another, in any form. */
const MOVE_VERB = String.raw`move[ds]?|moving|relocat\w*|switch(?:ed|es|ing)?|transferr?(?:ed|ing)?`;
/**
 * A question anchored before now asks for an earlier value: "… before the trip?", "… at first?", "… in 2021?",
 * "… two weeks ago?", "where did I move from?".
 */
const PAST_ANCHOR = new RegExp(
  String.raw`\b(?:before|originally|initially|(?:at )?first|at the (?:start|beginning)|used to|previously|earlier|ago|in (?:19|20)\d\d|last (?:year|month|week|summer|winter|spring|autumn|fall)|(?:${MOVE_VERB}) (?:from|out of|away from))\b`,
  'i',
);
/**
 * A question about a change of place, provider or thing: "where did Marta move to?", "what did I switch to?",
 * "what did I upgrade my laptop to?". Said more than once, the latest change is the one asked about.
 */
const CHANGE_QUESTION = new RegExp(String.raw`\b(?:${MOVE_VERB}|upgrad\w*|replac\w*)\b`, 'i');
/** The stems of those change verbs ("moved" and "move" → move, "relocated" → reloc, "upgraded" → upgrad). */
const CHANGE_STEM = new Set(analyze('move relocate switch upgrade replace transfer'));

const MONTH_STEM = /^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)/;
const NUMBER_WORD = new Set(
  analyze('two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred dozen'),
);
/** Stems that make a count a running total: "so far", "in total", "altogether", "overall", "my tally", "the count". */
const TALLY_STEM = new Set(analyze('far total altogether overall tally count'));
/** "brings … to", a total only when a count is among the next three stems ("brings the chapbook poems to 14"), not "bring food". */
const BRING_STEM = new Set(analyze('bring brings brought'));
const BRING_REACH = 3;

/**
 * The item restates a running total: a count (a number word from two up, or a numeral that is not part of a
 * date such as the "29 May 2023" a passage opens with, nor a year) with a word that makes it a total up to now
 * ("so far", "in total", "brings my count to", or "since I started"). "I bought two shirts" is an occurrence:
 * a question that sums occurrences needs the older ones as much as the newer. Stems in first-occurrence order.
 */
function restatesTally(terms: Iterable<string>): boolean {
  const list = [...terms];
  const isCount = (i: number) => {
    const t = list[i] ?? '';
    if (NUMBER_WORD.has(t)) return true;
    return /^\d{1,6}$/.test(t) && !/^(?:1[89]|20)\d\d$/.test(t) && !MONTH_STEM.test(list[i + 1] ?? '') && !MONTH_STEM.test(list[i - 1] ?? '');
  };
  let count = false;
  let tally = false;
  for (let i = 0; i < list.length; i++) {
    const t = list[i];
    if (TALLY_STEM.has(t) || (t === 'sinc' && /^(?:start|began|begin)/.test(list[i + 1] ?? ''))) tally = true;
    else if (BRING_STEM.has(t)) for (let n = 1; n <= BRING_REACH && !tally; n++) tally = isCount(i + n);
    if (isCount(i)) count = true;
  }
  return count && tally;
}

/** The item tells a change of the kind a change question asks about ("moved again, to a cottage near York"). */
function statesChange(terms: Iterable<string>): boolean {
  for (const t of terms) if (CHANGE_STEM.has(t)) return true;
  return false;
}

/**
 * Which questions are reordered, and what a later item must say to overtake an earlier one: for a question
 * about the current state, nothing more than the shared stems; for a count question not anchored in the past, a
 * running total (`restatesTally`), and for such a question about a change, a change (`statesChange`), each
 * sharing at least two of the question's stems ("the pollen count" shares only "count" with "my total count of
 * courses", "of course" only "course"). null: the order stays as scored.
 */
function updateRule(query: string): { minShared: number; later: ((terms: Iterable<string>) => boolean) | null } | null {
  if (CURRENT_STATE.test(query)) return { minShared: 1, later: null };
  if (PAST_ANCHOR.test(query)) return null;
  if (COUNT_QUESTION.test(query)) return ELAPSED_OR_TIMES.test(query) ? null : { minShared: 2, later: restatesTally };
  if (CHANGE_QUESTION.test(query)) return { minShared: 2, later: statesChange };
  return null;
}

/**
 * Knowledge updates at read time (questions: `updateRule`): of two returned items about the same part of the
 * question, said in different conversations, the later one is the more likely to be current ("The user has
 * three bikes." in February; "I'll actually have four bikes with me" in October). Where the claim grammar
 * (conflicts/claims.ts) recognised the change, the older item is already inactive or ranked as history; this
 * covers what it cannot read.
 *
 * An earlier-said item is overtaken by a later-said item from another source event that shares at least one of
 * the question's stems (two for a count or change question), and at least half of those the earlier item
 * matches, whose relevance is at most `RANKING.updateMargin` below, and which says what the rule asks of a
 * later item (a running total, a change); of several, by the one that repeats most of its stems outside the
 * question (the best-ranked on a tie). The item that moves up takes the score of the one it overtook, so the
 * list stays ordered by score (`relevance_score` is the final score). Each item is overtaken once and moves
 * once, so the items between move down one place per update; an item that moved can be overtaken by its own
 * later update (three bikes, then four, then five: five first). The list's members never change, only their
 * order. Other questions keep the order as scored: measured, reordering every question this way moved later
 * mentions of a topic above the evidence older questions need (LoCoMo R@10 72.3 → 69.8), and reordering count
 * questions by any later count moved single occurrences above the older ones a sum needs (docs/evidence-layer.md).
 */
export function orderUpdates<T extends LayeredRanked>(
  out: T[],
  layers: { memories: CandidateIndex; passages: CandidateIndex | null },
  query: string,
): T[] {
  if (out.length < 2) return out;
  const rule = updateRule(query);
  if (!rule) return out;
  const queryTerms = new Set(analyze(query));
  if (queryTerms.size === 0) return out;
  const { minShared, later } = rule;
  const info = (r: T) => {
    const idx = r.layer === 'memory' ? layers.memories : layers.passages!;
    const m = idx.memories[r.index];
    const terms = r.layer === 'passage' ? shownTerms(idx, m) : termSet(m);
    const matched = new Set<string>();
    for (const t of terms) if (queryTerms.has(t)) matched.add(t);
    // whether the item says what the rule asks of a later item (a running total, a change), read once per item
    const canUpdate = !later || later(terms);
    return { said: idx.columns.said[r.index], event: m.sourceEventId ?? null, matched, terms, canUpdate };
  };
  const items = out.map((r) => ({ r, ...info(r) }));
  const sameTopic = (older: (typeof items)[number], newer: (typeof items)[number]) => {
    if (older.matched.size === 0) return false;
    let shared = 0;
    for (const t of older.matched) if (newer.matched.has(t)) shared++;
    return shared >= minShared && shared * 2 >= older.matched.size;
  };
  // each earlier-said item is overtaken by at most one later one (its update: see below),
  // and each later item moves once, so the items between them move down one place per update; an update can
  // be overtaken in turn by its own (three, then four, then five bikes: five first)
  const moved = new Set<(typeof items)[number]>();
  const overtaken = new Set<(typeof items)[number]>();
  for (let j = 0; j < items.length; ) {
    const a = items[j];
    let update = -1;
    if (!overtaken.has(a)) {
      // the list is ordered by relevance, so a is the most relevant item b would move above; of the later items
      // that qualify, a's update is the one that repeats most of what a says beyond the question's words (the
      // best-ranked on a tie): for "what are my chess club results?", "my chess club results are improving" is
      // updated by "my chess results are improving this season, six wins", not by "I'm bringing a friend to
      // the chess club"
      let overlap = -1;
      for (let i = j + 1; i < items.length; i++) {
        const b = items[i];
        if (a.r.relevance - b.r.relevance > RANKING.updateMargin) break;
        if (!moved.has(b) && a.said < b.said && a.event !== b.event && b.canUpdate && sameTopic(a, b)) {
          let shared = 0;
          for (const t of b.terms) if (a.terms.has(t) && !queryTerms.has(t)) shared++;
          if (shared > overlap) [update, overlap] = [i, shared];
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

/** Each passage index's passages by their own message (built on first use; an index never changes once built). */
const partsByMessage = new WeakMap<CandidateIndex, Map<string, IndexedMemory[]>>();

/**
 * The stems of what a passage shows: a reply that quotes its prompt whole shows the prompt too, so "… which
 * brings my total species count to 32" in the prompt makes the exchange a running total though the reply that
 * was ranked ("Suet attracts woodpeckers …") says no number.
 */
function shownTerms(idx: CandidateIndex, p: IndexedMemory): Set<string> {
  const own = termSet(p);
  const messages = p.messages ?? [];
  if (messages.length < 2) return own;
  let parts = partsByMessage.get(idx);
  if (!parts) {
    parts = new Map();
    for (const q of idx.memories) {
      const k = messageKey(q.sourceEventId, q.messages?.at(-1) ?? -1);
      const list = parts.get(k);
      if (list) list.push(q);
      else parts.set(k, [q]);
    }
    partsByMessage.set(idx, parts);
  }
  const shown = new Set<string>();
  for (const i of messages.slice(0, -1)) for (const q of parts.get(messageKey(p.sourceEventId, i)) ?? []) for (const t of termSet(q)) shown.add(t);
  for (const t of own) shown.add(t);
  return shown;
}

/** Each memory index's ids, to their places (built on first use; an index never changes once built). */
const placesOf = new WeakMap<CandidateIndex, Map<string, number>>();
function placeOf(idx: CandidateIndex, id: string): number | undefined {
  let places = placesOf.get(idx);
  if (!places) {
    places = new Map(idx.memories.map((m, i) => [m.id, i]));
    placesOf.set(idx, places);
  }
  return places.get(id);
}

/**
 * What is current ranks above its history. A passage of history (a message whose claim a claim said later
 * superseded: "I live in Lisbon …" after "Actually I moved to Porto") is evidence of what was true before; the
 * memory that now holds the claim (`IndexedMemory.current`) goes right above it, with its score, whatever the
 * words of the question matched ("where do I live?" shares "live" with the passage, not with "The user moved to
 * Porto in October 2026."). Such a memory not in the list enters it there when it passes the filters and repeats
 * no returned memory (the list keeps `limit` items: the last leaves); one whose message a returned passage
 * shows word for word has that passage moved instead. A question anchored in the past ("where did I live
 * before?") keeps the order as scored. When the message made several claims that were replaced since ("I live
 * in Lisbon and work at Acme", then a move and a new job), only the claims the question is about go above it:
 * those whose replaced memory shares a stem with the question ("where do I live?": the move, not the job); if
 * none shares one, all of them.
 */
export function currentFirst<T extends LayeredRanked>(
  out: T[],
  layers: { memories: CandidateIndex; memoryTexts?: readonly string[]; passages: CandidateIndex | null },
  query: string,
  filters: RankFilters,
  limit: number,
): T[] {
  const { memories, passages } = layers;
  if (!passages || !out.some((r) => r.layer === 'passage' && passages.memories[r.index].current)) return out;
  if (PAST_ANCHOR.test(query)) return out;
  const items = [...out];
  const passes = filterOf(filters, memories.memories);
  const texts = layers.memoryTexts;
  let asked: Set<string> | null = null;
  const askedAbout = (claims: readonly CurrentClaim[]): readonly CurrentClaim[] => {
    if (claims.length < 2) return claims;
    asked ??= new Set(analyze(query));
    const stems = asked;
    const these = claims.filter((c) => c.replaced.split(' ').some((t) => stems.has(t)));
    return these.length > 0 ? these : claims;
  };
  for (let j = 0; j < items.length; j++) {
    const r = items[j];
    if (r.layer !== 'passage') continue;
    for (const { id } of askedAbout(passages.memories[r.index].current ?? [])) {
      const place = placeOf(memories, id);
      if (place === undefined) continue;
      const m = memories.memories[place];
      let at = items.findIndex((o) => o.layer === 'memory' && o.index === place);
      if (at < 0) {
        // its message returned word for word: that passage is what moves
        const own = new Set((m.messages ?? []).map((i) => messageKey(m.sourceEventId, i)));
        at = items.findIndex((o) => o.layer === 'passage' && own.has(messageKey(passages.memories[o.index].sourceEventId, passages.memories[o.index].messages?.at(-1) ?? -1)));
      }
      // already above it, or (its own message) the passage itself
      if (at >= 0 && at <= j) continue;
      if (at > j) {
        const [moved] = items.splice(at, 1);
        items.splice(j, 0, { ...moved, relevance: r.relevance });
        j++;
        continue;
      }
      if (!passes(place)) continue;
      if (items.some((o) => o.layer === 'memory' && nearDuplicate(memories.memories[o.index], m, texts?.[o.index], texts?.[place]))) continue;
      items.splice(j, 0, { layer: 'memory', index: place, relevance: r.relevance } as T);
      j++;
      if (items.length > limit) items.pop();
    }
  }
  return items;
}
