/** The weights of the hybrid ranking (score.ts explains each signal) and its BM25 and recency parameters. */

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
  /**
   * The share of an item's lexical term taken from the best lexical term of its conversation (its source event)
   * in the same layer: (1 − share) × its own + share × the conversation's best, for an item that shares a word
   * with the query. score-layer.ts says why; 0 leaves every item its own.
   */
  conversationShare: number;
}

export const MEMORY_WEIGHTS: LayerWeights = {
  lexicalWeight: 0.5,
  semanticWeight: 0.25,
  importanceWeight: 0.1,
  recencyWeight: 0.02,
  entityWeight: 0.05,
  feedbackWeight: 0.05,
  bias: 0,
  lexicalSaturation: 2,
  // measured at 0.25 / 0.4 / 0.6 (BENCHMARKS.md, 2026-12-07, forty-fourth)
  conversationShare: 0.4,
};

export const PASSAGE_WEIGHTS: LayerWeights = {
  lexicalWeight: 0.5,
  semanticWeight: 0.25,
  // a passage's importance is 0, or -1 when a claim taken from its message was superseded: it then ranks below
  // the current value that replaced it, but still near it as dated history (docs/evidence-layer.md)
  importanceWeight: 0.05,
  recencyWeight: 0.02,
  entityWeight: 0.05,
  feedbackWeight: 0,
  bias: 0.1,
  lexicalSaturation: 4,
  // a conversation's passages are mostly the assistant's replies on its topic: lifted with their best, they
  // took the places of other conversations' evidence (LongMemEval turn recall_all@5 74.9 → 72.9)
  conversationShare: 0,
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
   * Added to a preference memory when the question asks for advice (`asksForAdvice`, scaffolding.ts): "Can you
   * suggest a hotel for my trip?" is answered by what the user said they like in hotels.
   */
  adviceWeight: 0.06,
  /**
   * How much more relevant an earlier-said item about the same thing may be and still rank below a later one,
   * for a question about the current state (`orderUpdates`).
   */
  updateMargin: 0.1,
  /**
   * Taken off a memory whose every message a better-ranked item already cites (`rankLayers`): it says more of
   * what is already there, so an item with evidence of its own that is nearly as relevant goes first.
   */
  repeatPenalty: 0.05,
  /** Added to an item said on the days a relative date in the question names ("… two weeks ago", when.ts). */
  dateWindowWeight: 0.05,
  /**
   * Added to an item that tells of something that happened on the days a relative date in the question names (a
   * memory dated to one of them, a passage said then with "today"; when.ts `tellsOfDayWithin`), with the above.
   */
  toldDayWeight: 0.1,
  /**
   * The share of an entity match that a person named in an item counts for when someone else said the item
   * (score-layer.ts): "What job might Maria take up?" is about what Maria said before what John said to her.
   */
  mentionedByOtherShare: 0.5,
  /**
   * For a question about several events (spread.ts), the first `spreadHead` places are spread over
   * conversations: an item loses `spreadPenalty` for each item of its source event already placed.
   */
  spreadHead: 5,
  spreadPenalty: 0.01,
} as const;
