import { describe, expect, it } from 'vitest';
import { FEEDBACK_BOUNDS, FEEDBACK_EFFECTS, FEEDBACK_OUTCOMES, applyFeedbackEffect, feedbackEffect, isNoEffect } from './feedback-effects';

describe('feedback effects', () => {
  it('rewards use, punishes irrelevance and corrections, and leaves missing context neutral', () => {
    expect(FEEDBACK_EFFECTS.used_successfully.importance).toBeGreaterThan(FEEDBACK_EFFECTS.partially_used.importance);
    expect(FEEDBACK_EFFECTS.partially_used.importance).toBeGreaterThan(0);
    expect(FEEDBACK_EFFECTS.ignored.importance).toBeLessThan(0);
    expect(FEEDBACK_EFFECTS.irrelevant.importance).toBeLessThan(FEEDBACK_EFFECTS.ignored.importance);
    expect(FEEDBACK_EFFECTS.user_corrected.importance).toBeLessThan(FEEDBACK_EFFECTS.irrelevant.importance);
    expect(isNoEffect(FEEDBACK_EFFECTS.missing_context)).toBe(true);
    for (const o of FEEDBACK_OUTCOMES) {
      expect(Math.sign(FEEDBACK_EFFECTS[o].score), o).toBe(Math.sign(FEEDBACK_EFFECTS[o].importance));
    }
  });

  it('scales the step by the agent confidence, full weight when absent', () => {
    expect(feedbackEffect('irrelevant')).toEqual(FEEDBACK_EFFECTS.irrelevant);
    expect(feedbackEffect('irrelevant', null)).toEqual(FEEDBACK_EFFECTS.irrelevant);
    const half = feedbackEffect('used_successfully', 0.5);
    expect(half.importance).toBeCloseTo(0.025, 12);
    expect(half.score).toBeCloseTo(0.5, 12);
    expect(isNoEffect(feedbackEffect('user_corrected', 0))).toBe(true);
  });

  it('applies a step and keeps importance and score inside their bounds', () => {
    const m = { importance: 0.5, feedbackScore: 0 };
    const up = applyFeedbackEffect(m, feedbackEffect('used_successfully'));
    expect(up.importance).toBeCloseTo(0.55, 12);
    expect(up.feedbackScore).toBe(1);
    const down = applyFeedbackEffect(m, feedbackEffect('user_corrected'));
    expect(down.importance).toBeCloseTo(0.35, 12);
    expect(down.feedbackScore).toBe(-2);

    let top = { importance: 0.98, feedbackScore: 9.5 };
    for (let i = 0; i < 5; i++) top = applyFeedbackEffect(top, feedbackEffect('used_successfully'));
    expect(top).toEqual({ importance: FEEDBACK_BOUNDS.importanceMax, feedbackScore: FEEDBACK_BOUNDS.scoreMax });
    let bottom = { importance: 0.1, feedbackScore: -9 };
    for (let i = 0; i < 5; i++) bottom = applyFeedbackEffect(bottom, feedbackEffect('user_corrected'));
    expect(bottom).toEqual({ importance: FEEDBACK_BOUNDS.importanceMin, feedbackScore: FEEDBACK_BOUNDS.scoreMin });
  });

  it('moves ranking: repeated negative feedback on one memory and positive on another swaps their importance', () => {
    let a = { importance: 0.6, feedbackScore: 0 };
    let b = { importance: 0.5, feedbackScore: 0 };
    for (let i = 0; i < 2; i++) {
      a = applyFeedbackEffect(a, feedbackEffect('irrelevant'));
      b = applyFeedbackEffect(b, feedbackEffect('used_successfully'));
    }
    expect(b.importance).toBeGreaterThan(a.importance);
  });
});
