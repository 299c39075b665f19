import { describe, expect, it } from 'vitest';
import { detectClaim } from './claims';
import { type ExistingClaim, planClaim, reinforcedScores } from './plan';

const at = (iso: string) => new Date(iso);
const evidence = (o: Partial<ExistingClaim['evidence']> = {}) => ({ authority: 50, observedAt: at('2026-03-01T10:00:00Z'), confidence: 0.9, writerId: 'chat', ...o });
const claimOf = (content: string) => {
  const c = detectClaim(content);
  if (!c) throw new Error(`not a claim: ${content}`);
  return c;
};
const existing = (memoryId: string, content: string, o: Partial<ExistingClaim['evidence']> = {}): ExistingClaim => ({
  memoryId,
  claim: claimOf(content),
  evidence: evidence(o),
});
const incoming = (content: string, o: Partial<ExistingClaim['evidence']> = {}) => {
  const claim = claimOf(content);
  return { claim, evidence: evidence({ change: claim.change, ...o }) };
};

describe('planClaim', () => {
  it('reinforces the claim that says the same, whatever else the user has', () => {
    const plan = planClaim(incoming('The user is based in Lisbon.'), [existing('a', 'The user lives in Porto.'), existing('b', 'The user lives in Lisbon.')]);
    expect(plan).toEqual({ kind: 'reinforce', memoryId: 'b' });
  });

  it("supersedes the same writer's earlier claim, however close in time", () => {
    const plan = planClaim(incoming('The user moved to Porto in February 2026.', { observedAt: at('2026-03-01T10:00:01Z') }), [
      existing('lisbon', 'The user lives in Lisbon.'),
    ]);
    expect(plan).toEqual({ kind: 'store', supersede: [{ memoryId: 'lisbon', by: 'recency' }], review: [] });
  });

  it('an ended claim supersedes the claim it ends; a negation of another value leaves it alone', () => {
    const later = { observedAt: at('2026-03-02T10:00:00Z') };
    expect(planClaim(incoming('The user is not vegetarian anymore.', later), [existing('veg', 'The user is a vegetarian.')])).toEqual({
      kind: 'store',
      supersede: [{ memoryId: 'veg', by: 'recency' }],
      review: [],
    });
    expect(planClaim(incoming('The user is not vegan anymore.', later), [existing('veg', 'The user is a vegetarian.')])).toEqual({
      kind: 'store',
      supersede: [],
      review: [],
    });
  });

  it('loses to a claim with more authority and changes nothing else', () => {
    const plan = planClaim(incoming('The user moved to Porto.', { authority: 10, observedAt: at('2026-03-05T10:00:00Z') }), [
      existing('lisbon', 'The user lives in Lisbon.', { authority: 90, writerId: 'hr' }),
    ]);
    expect(plan).toEqual({ kind: 'lose', to: 'lisbon', by: 'authority' });
  });

  it('two writers at the same moment: change language decides, else a review', () => {
    const other = { writerId: 'crm', observedAt: at('2026-03-01T18:00:00Z') };
    expect(planClaim(incoming('The user actually moved to Porto.', other), [existing('lisbon', 'The user lives in Lisbon.')])).toEqual({
      kind: 'store',
      supersede: [{ memoryId: 'lisbon', by: 'change' }],
      review: [],
    });
    expect(planClaim(incoming('The user lives in Porto.', other), [existing('lisbon', 'The user lives in Lisbon.')])).toEqual({
      kind: 'store',
      supersede: [],
      review: ['lisbon'],
    });
  });

  it('leaves compatible claims alone: another slot, a multi-valued slot', () => {
    expect(
      planClaim(incoming('The user speaks French.'), [existing('es', 'The user speaks Spanish.'), existing('home', 'The user lives in Lisbon.')]),
    ).toEqual({ kind: 'store', supersede: [], review: [] });
  });
});

describe('reinforcedScores', () => {
  it('takes the higher score plus a step, at most 1', () => {
    const r = reinforcedScores({ importance: 0.5, confidence: 0.8 }, { importance: 0.7, confidence: 0.6 });
    expect(r.importance).toBeCloseTo(0.75, 10);
    expect(r.confidence).toBeCloseTo(0.82, 10);
    expect(reinforcedScores({ importance: 0.99, confidence: 0.99 }, { importance: 0.1, confidence: 0.1 })).toEqual({ importance: 1, confidence: 1 });
  });
});
