import { describe, expect, it } from 'vitest';
import { detectClaim, relateClaims } from './claims';

// an occupation said as a change is a job title (docs/conflicts.md; the occupations come from the build step's
// generated/occupations.txt, made from WordNet)
describe('detectClaim: an occupation said as a change', () => {
  it.each([
    ['The user is a school nurse now.', 'school nurse'],
    ['The user is now a welder at a shipyard in Gdansk.', 'welder'],
    ['The user became a paramedic in 2025.', 'paramedic'],
    ['The user has become a landscape architect.', 'landscape architect'],
  ])('%s -> job_title = %s', (content, value) => {
    expect(detectClaim(content)).toMatchObject({ subject: 'job_title', value, display: value, negated: false, change: true });
  });

  it.each([
    // no change: a person says what they are in many ways at once
    'The user is a carpenter.',
    // roles that are no occupation
    'The user is a grandmother now.',
    'The user is a proud cat owner now.',
    'The user became a regular at the climbing gym.',
    // how well or for what, not a job
    'The user is a better cook now.',
    'The user is an amateur photographer now.',
  ])('is not a claim: %s', (content) => {
    expect(detectClaim(content)).toBeNull();
  });

  it('asks no occupation word of a job said with "works as"', () => {
    // "barista" is not in WordNet
    expect(detectClaim('The user is now working as a barista.')).toMatchObject({ subject: 'job_title', value: 'barista' });
    expect(detectClaim('The user works as a barista at a café.')).toMatchObject({ subject: 'job_title', value: 'barista' });
  });

  it('replaces the job title it follows', () => {
    const before = detectClaim('The user works as a pediatric nurse.')!;
    const after = detectClaim('The user is a school nurse now.')!;
    expect(relateClaims(before, after)).toBe('contradiction');
  });
});
