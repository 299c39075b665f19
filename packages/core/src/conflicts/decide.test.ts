import { describe, expect, it } from 'vitest';
import { DEFAULT_AUTHORITY, authorityFor, decideConflict } from './decide';

const day = (iso: string) => new Date(iso);
const base = { authority: 50, observedAt: day('2026-05-01T10:00:00Z'), confidence: 0.9, writerId: 'crm' };
/** The same authority, another writer. */
const other = { writerId: 'app' };

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

  it('2. with equal authority the more recent observation (by UTC day between writers) wins', () => {
    expect(decideConflict(base, { ...base, ...other, observedAt: day('2026-05-02T00:00:00Z'), confidence: 0.5 })).toEqual({
      outcome: 'incoming_wins',
      by: 'recency',
    });
    expect(decideConflict(base, { ...base, ...other, observedAt: day('2026-04-30T23:59:59Z'), confidence: 1 })).toEqual({
      outcome: 'existing_wins',
      by: 'recency',
    });
  });

  it('3. on the same day the more confident extraction wins', () => {
    expect(decideConflict(base, { ...base, ...other, observedAt: day('2026-05-01T23:00:00Z'), confidence: 0.95 })).toEqual({
      outcome: 'incoming_wins',
      by: 'confidence',
    });
    expect(decideConflict(base, { ...base, ...other, confidence: 0.5 })).toEqual({ outcome: 'existing_wins', by: 'confidence' });
  });

  it('4. equal authority, same day and confidence within 0.05 go to a person', () => {
    expect(decideConflict(base, { ...base, ...other, observedAt: day('2026-05-01T00:00:01Z'), confidence: 0.87 })).toEqual({
      outcome: 'review',
      by: 'tie',
    });
  });

  it('a later observation by the same writer wins however close in time; an earlier one loses', () => {
    const later = { ...base, observedAt: day('2026-05-01T10:00:01Z'), confidence: 0.5 };
    expect(decideConflict(base, later)).toEqual({ outcome: 'incoming_wins', by: 'recency' });
    expect(decideConflict(base, { ...base, observedAt: day('2026-05-01T09:59:59Z'), confidence: 1 })).toEqual({
      outcome: 'existing_wins',
      by: 'recency',
    });
    // the same instant: the later report is the current one
    expect(decideConflict(base, { ...base })).toEqual({ outcome: 'incoming_wins', by: 'recency' });
    // adds without a source block are all the tenant's own writes
    const anon = { authority: 0, observedAt: day('2026-05-01T10:00:00Z'), confidence: 0.9, writerId: null };
    expect(decideConflict(anon, { ...anon, observedAt: day('2026-05-01T10:05:00Z') })).toEqual({ outcome: 'incoming_wins', by: 'recency' });
  });

  it('between writers at the same moment, the claim said with change language wins; two without it tie', () => {
    expect(decideConflict(base, { ...base, ...other, change: true })).toEqual({ outcome: 'incoming_wins', by: 'change' });
    expect(decideConflict({ ...base, change: true }, { ...base, ...other, confidence: 1 })).toEqual({ outcome: 'existing_wins', by: 'change' });
    expect(decideConflict({ ...base, change: true }, { ...base, ...other, change: true })).toEqual({ outcome: 'review', by: 'tie' });
    // change language does not outrank a later day or more authority
    expect(decideConflict({ ...base, observedAt: day('2026-05-02T10:00:00Z') }, { ...base, ...other, change: true })).toEqual({
      outcome: 'existing_wins',
      by: 'recency',
    });
    expect(decideConflict({ ...base, authority: 60 }, { ...base, ...other, change: true })).toEqual({ outcome: 'existing_wins', by: 'authority' });
  });

  it("a claim from the user's own correction wins what would otherwise be a review", () => {
    expect(decideConflict({ ...base, userCorrected: true }, { ...base, ...other })).toEqual({ outcome: 'existing_wins', by: 'user_correction' });
    expect(decideConflict(base, { ...base, ...other, userCorrected: true })).toEqual({ outcome: 'incoming_wins', by: 'user_correction' });
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
