/**
 * Conversation sentiment for the Customer Support schema (docs/domain-schemas.md, "Sentiment"). The `sentiment`
 * library scores words with the AFINN-165 lexicon (-5..5, negation-aware: "not good" is negative); a few words
 * that matter in support conversations and that AFINN leaves out are added below. A conversation's score is the
 * lexicon score of its user messages divided by their token count (the library's "comparative"), clamped to
 * [-1, 1] and rounded to three decimals. Assistant and system turns are not the customer's mood and are ignored.
 *
 * The extraction job stores the score on the source event for every tenant (it costs microseconds), so a tenant
 * that switches to Customer Support later has the history, and the trend survives the payload's redaction.
 */
import Sentiment from 'sentiment';
import type { ConversationMessage } from '../messages';

/** Support words missing from AFINN-165, on its -5..5 scale. */
const SUPPORT_LEXICON: Record<string, number> = {
  crash: -2,
  crashes: -2,
  crashed: -2,
  crashing: -2,
  broken: -2,
  bug: -2,
  buggy: -2,
  freezes: -2,
  frozen: -1,
  timeout: -1,
  unusable: -3,
  unacceptable: -3,
  overcharged: -3,
  refund: -1,
  slow: -1,
  laggy: -2,
  resolved: 2,
  fixed: 2,
  works: 1,
  helpful: 2,
  quick: 1,
};

const analyser = new Sentiment();

export type SentimentLabel = 'positive' | 'neutral' | 'negative';

/** Scores at or beyond ±SENTIMENT_NEUTRAL_BAND are positive / negative; inside it, neutral. */
export const SENTIMENT_NEUTRAL_BAND = 0.05;

/** The score of a conversation's user messages, or null when they hold no words. */
export function conversationSentiment(messages: readonly Pick<ConversationMessage, 'role' | 'content'>[]): number | null {
  let score = 0;
  let tokens = 0;
  for (const m of messages) {
    if (m.role !== 'user' || typeof m.content !== 'string') continue;
    const r = analyser.analyze(m.content, { extras: SUPPORT_LEXICON });
    score += r.score;
    tokens += r.tokens.length;
  }
  if (tokens === 0) return null;
  const comparative = Math.max(-1, Math.min(1, score / tokens));
  return Math.round(comparative * 1000) / 1000;
}

export function sentimentLabel(score: number | null): SentimentLabel | null {
  if (score === null) return null;
  if (score >= SENTIMENT_NEUTRAL_BAND) return 'positive';
  if (score <= -SENTIMENT_NEUTRAL_BAND) return 'negative';
  return 'neutral';
}
