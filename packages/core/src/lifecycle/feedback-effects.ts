/**
 * What retrieval feedback does to a memory (docs/lifecycle.md, "Feedback"). Each outcome moves the
 * memory's `importance` (which ranking weighs) and its net `feedback_score` by a fixed step, scaled by the
 * agent's confidence in its report; both stay inside fixed bounds, so no amount of feedback can push a
 * memory out of range.
 */
import { FEEDBACK_OUTCOMES, FEEDBACK_OUTCOME_DESCRIPTIONS, type FeedbackOutcome } from '../schemas/feedback';

export { FEEDBACK_OUTCOMES, FEEDBACK_OUTCOME_DESCRIPTIONS, type FeedbackOutcome };

export interface FeedbackEffect {
  /** Added to importance (0–1), before bounds. */
  importance: number;
  /** Added to feedback_score, before bounds. */
  score: number;
}

export const FEEDBACK_EFFECTS: Record<FeedbackOutcome, FeedbackEffect> = {
  used_successfully: { importance: 0.05, score: 1 },
  partially_used: { importance: 0.02, score: 0.5 },
  ignored: { importance: -0.01, score: -0.25 },
  irrelevant: { importance: -0.08, score: -1 },
  missing_context: { importance: 0, score: 0 },
  user_corrected: { importance: -0.15, score: -2 },
};

export const FEEDBACK_BOUNDS = {
  importanceMin: 0,
  importanceMax: 1,
  scoreMin: -10,
  scoreMax: 10,
} as const;

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** The step for an outcome, scaled by `agent_confidence` (absent: full weight). */
export function feedbackEffect(outcome: FeedbackOutcome, agentConfidence?: number | null): FeedbackEffect {
  const weight = agentConfidence ?? 1;
  const base = FEEDBACK_EFFECTS[outcome];
  return { importance: base.importance * weight, score: base.score * weight };
}

/** A memory's importance and feedback score after one feedback, inside the bounds. */
export function applyFeedbackEffect(
  memory: { importance: number; feedbackScore: number },
  effect: FeedbackEffect,
): { importance: number; feedbackScore: number } {
  return {
    importance: clamp(memory.importance + effect.importance, FEEDBACK_BOUNDS.importanceMin, FEEDBACK_BOUNDS.importanceMax),
    feedbackScore: clamp(memory.feedbackScore + effect.score, FEEDBACK_BOUNDS.scoreMin, FEEDBACK_BOUNDS.scoreMax),
  };
}

export const isNoEffect = (e: FeedbackEffect) => e.importance === 0 && e.score === 0;
