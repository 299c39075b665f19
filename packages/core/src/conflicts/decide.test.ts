import { describe, expect, it } from 'vitest';
import { DEFAULT_AUTHORITY, authorityFor, decideConflict } from './decide';

const day = (iso: string) => new Date(iso);
const base = { authority: 50, observedAt: day('2026-05-01T10:00:00Z'), confidence: 0.9 };

describe('decideConflict', () => {
  it('1. the writer with more authority wins, whatever the recency and confidence', () => {
    expect(decideConflict(base, { authority: 80, observedAt: day('2020-01-01T00:00:00Z'), confidence: 0.1 })).toEqual({
      outcome: 'incoming_wins',
      by: 'authority',
    });
    expect(decideConflict(base, { authority: 10, observedAt: day('2030-01-01T00:00:00Z'), confidence: 1 })).toEqual({
      outcome: 'existing_wins',
      by: 'authority',
    });
  });

  it('2. with equal authority the more recent observation (by UTC day) wins', () => {
    expect(decideConflict(base, { ...base, observedAt: day('2026-05-02T00:00:00Z'), confidence: 0.5 })).toEqual({
      outcome: 'incoming_wins',
      by: 'recency',
    });
    expect(decideConflict(base, { ...base, observedAt: day('2026-04-30T23:59:59Z'), confidence: 1 })).toEqual({
      outcome: 'existing_wins',
      by: 'recency',
    });
  });

  it('3. on the same day the more confident extraction wins', () => {
    expect(decideConflict(base, { ...base, observedAt: day('2026-05-01T23:00:00Z'), confidence: 0.95 })).toEqual({
      outcome: 'incoming_wins',
      by: 'confidence',
    });
    expect(decideConflict(base, { ...base, confidence: 0.5 })).toEqual({ outcome: 'existing_wins', by: 'confidence' });
  });

  it('4. equal authority, same day and confidence within 0.05 go to a person', () => {
    expect(decideConflict(base, { ...base, observedAt: day('2026-05-01T00:00:01Z'), confidence: 0.87 })).toEqual({
      outcome: 'review',
      by: 'tie',
    });
  });
});

describe('authorityFor', () => {
  it('uses the category priority, then the default, and 0 without a writer', () => {
    const rules = { default_priority: 10, categories: { fact: 80 } };
    expect(authorityFor(rules, 'fact')).toBe(80);
    expect(authorityFor(rules, 'goal')).toBe(10);
    expect(authorityFor(null, 'fact')).toBe(DEFAULT_AUTHORITY);
  });
});
