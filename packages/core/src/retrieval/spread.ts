/**
 * The head of the list spread over conversations, for a question about several events (docs/evidence-layer.md).
 *
 * "How many charity events did I attend?", "Which did I start first, the pottery class or the yoga?", "How many
 * days passed between the two trips?", "Where do I live now?" (the earlier address was said in another
 * conversation): the answer needs items from more than one conversation, but one conversation that talks at
 * length about the topic fills the first places with its memories and passages, all nearly as relevant. For
 * such a question the first `RANKING.spreadHead` places are chosen one at a time, each item's relevance lowered
 * by `RANKING.spreadPenalty` for every item of its source event already placed, so an item of another
 * conversation that is nearly as relevant comes up; far less relevant items never do (a few hundredths). The
 * rest of the list keeps its order, and every place keeps its score (the list stays ordered by
 * `relevance_score`, as updates.ts keeps it). Other questions are left as ranked: on questions about one
 * event (LoCoMo's, mostly) spreading every list lowered recall at 5.
 */
import type { LayeredRanked } from './candidate-index';
import { RANKING } from './weights';

/**
 * A question about several events: a count or a sum, an order or an interval between events, a comparison,
 * or the current state of something (its earlier value is another conversation's).
 */
const ACROSS_EVENTS =
  /\b(?:how (?:many|much)|total|in all|altogether|combined|first|before|after|between|compared?|same|different|both|times|current(?:ly)?|now|latest|most recent(?:ly)?|recently|still|any ?more)\b/i;

export function asksAcrossEvents(query: string): boolean {
  return ACROSS_EVENTS.test(query);
}

/**
 * `items` (ordered best first) with the first places spread over source events when the question asks about
 * several (`asksAcrossEvents`); `eventOf` gives an item's source event (null: none, never lowered).
 */
export function spreadHead<T extends LayeredRanked>(items: readonly T[], query: string, eventOf: (item: T) => string | null): T[] {
  if (!asksAcrossEvents(query) || items.length < 2) return [...items];
  const left = [...items];
  const head: T[] = [];
  const placed = new Map<string, number>();
  while (head.length < RANKING.spreadHead && left.length > 0) {
    let best = 0;
    let bestScore = Number.NEGATIVE_INFINITY;
    for (let j = 0; j < left.length; j++) {
      const event = eventOf(left[j]);
      const score = left[j].relevance - RANKING.spreadPenalty * (event === null ? 0 : (placed.get(event) ?? 0));
      // strictly better: of equals, the one ranked first
      if (score > bestScore) {
        best = j;
        bestScore = score;
      }
    }
    const [pick] = left.splice(best, 1);
    const event = eventOf(pick);
    if (event !== null) placed.set(event, (placed.get(event) ?? 0) + 1);
    head.push(pick);
  }
  // every place keeps its score, so the list stays ordered by relevance
  return [...head, ...left].map((item, i) => (item.relevance === items[i].relevance ? item : { ...item, relevance: items[i].relevance }));
}
