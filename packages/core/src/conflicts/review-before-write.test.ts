import { describe, expect, it } from 'vitest';
import { resolveReviewRequest } from '../schemas/provenance';
import { reviewBeforeWrite, updateTenantSettingsRequest } from '../schemas/settings';
import { holdsForReview } from './review-before-write';

describe('holdsForReview', () => {
  it('holds nothing while the setting is off', () => {
    expect(holdsForReview(null, { category: 'fact', authority: 0 })).toBe(false);
    expect(holdsForReview(undefined, { category: 'goal', authority: 0 })).toBe(false);
  });

  it('holds the named categories whatever the writer', () => {
    const setting = { categories: ['goal' as const], below_authority: null };
    expect(holdsForReview(setting, { category: 'goal', authority: 1000 })).toBe(true);
    expect(holdsForReview(setting, { category: 'fact', authority: 0 })).toBe(false);
  });

  it('holds writers strictly below the authority, in any category', () => {
    const setting = { categories: [], below_authority: 50 };
    expect(holdsForReview(setting, { category: 'fact', authority: 49 })).toBe(true);
    expect(holdsForReview(setting, { category: 'fact', authority: 0 })).toBe(true);
    expect(holdsForReview(setting, { category: 'fact', authority: 50 })).toBe(false);
    expect(holdsForReview(setting, { category: 'preference', authority: 90 })).toBe(false);
  });

  it('holds when either rule matches', () => {
    const setting = { categories: ['relationship' as const], below_authority: 10 };
    expect(holdsForReview(setting, { category: 'relationship', authority: 500 })).toBe(true);
    expect(holdsForReview(setting, { category: 'fact', authority: 5 })).toBe(true);
    expect(holdsForReview(setting, { category: 'fact', authority: 10 })).toBe(false);
  });
});

describe('the review_before_write setting', () => {
  it('accepts categories, an authority, both, or null; drops repeated categories', () => {
    expect(reviewBeforeWrite.parse({ categories: ['goal', 'goal', 'fact'] })).toEqual({ categories: ['goal', 'fact'], below_authority: null });
    expect(reviewBeforeWrite.parse({ below_authority: 1001 })).toEqual({ categories: [], below_authority: 1001 });
    expect(reviewBeforeWrite.parse(null)).toBeNull();
    expect(updateTenantSettingsRequest.safeParse({ review_before_write: { categories: ['event'], below_authority: 40 } }).success).toBe(true);
  });

  it('refuses what would match nothing, unknown categories, bad authorities and unknown fields', () => {
    for (const bad of [
      {},
      { categories: [] },
      { categories: ['secrets'] },
      { below_authority: 0 },
      { below_authority: 1002 },
      { below_authority: 2.5 },
      { categories: ['fact'], below: 3 },
      'fact',
    ]) {
      expect(reviewBeforeWrite.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});

describe('the resolve body', () => {
  const id = '00000000-0000-4000-8000-000000000001';
  it('takes a conflict choice or a pending-write action, not both', () => {
    expect(resolveReviewRequest.safeParse({ chosen_memory_id: id }).success).toBe(true);
    expect(resolveReviewRequest.safeParse({ action: 'approve', content: 'The user lives in Porto.' }).success).toBe(true);
    expect(resolveReviewRequest.safeParse({ action: 'reject', note: 'not true' }).success).toBe(true);
    for (const bad of [{}, { chosen_memory_id: id, action: 'approve' }, { action: 'reject', content: 'x' }, { action: 'keep' }, { action: 'approve', content: '  ' }]) {
      expect(resolveReviewRequest.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});
