/** Knowledge updates at read time (score.ts, rankLayers): for a question about the current state, later-said items first. */
import { analyze } from '../text/terms';
import type { CandidateIndex, LayeredRanked } from './candidate-index';
import { termSet } from './near-duplicates';
import { RANKING } from './weights';

/**
 * A question that asks for the current state ("what is my current …", "… currently working at?", "… now?",
 * "the latest …", "most recently", "still", "anymore"), or compares it with the past ("more often than before",
 * "less than I used to"): the one kind of question `orderUpdates` reorders for.
 */
const CURRENT_STATE =
  /\b(?:current(?:ly)?|now|these days|nowadays|latest|most recent(?:ly)?|still|any ?more|at the moment|at present|presently|than (?:(?:i|we|you|he|she|they|it) (?:did|used to|was|were|had) )?(?:before|previously|earlier|in the past))\b|\bthan (?:i|we|you|he|she|they|it) used to\b/i;

/**
 * Knowledge updates at read time, for a question that asks for the current state (CURRENT_STATE): of two
 * returned items about the same part of the question, said in different conversations, the later one is the
 * more likely to be current ("The user has three bikes." in February; "I'll actually have four bikes with me"
 * in October). Where the claim grammar (conflicts/claims.ts) recognised the change, the older item is already
 * inactive or ranked as history; this covers what it cannot read.
 *
 * An earlier-said item is overtaken by a later-said item from another source event that shares at least one of
 * the question's stems, and at least half of those the earlier item matches, and whose relevance is at most
 * `RANKING.updateMargin` below; of several, by the one that repeats most of its stems outside the question
 * (the best-ranked on a tie). The item that moves up takes the score of the one it overtook, so the list stays
 * ordered by score (`relevance_score` is the final score). Each item is overtaken
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
    const terms = termSet(m);
    const matched = new Set<string>();
    for (const t of terms) if (queryTerms.has(t)) matched.add(t);
    return { said: idx.columns.said[r.index], event: m.sourceEventId ?? null, matched, terms };
  };
  const items = out.map((r) => ({ r, ...info(r) }));
  const sameTopic = (older: (typeof items)[number], newer: (typeof items)[number]) => {
    if (older.matched.size === 0) return false;
    let shared = 0;
    for (const t of older.matched) if (newer.matched.has(t)) shared++;
    return shared > 0 && shared * 2 >= older.matched.size;
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
        if (!moved.has(b) && a.said < b.said && a.event !== b.event && sameTopic(a, b)) {
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
