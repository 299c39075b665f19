import { describe, expect, it } from 'vitest';
import { COMMON_VERBS, DOING_PASTS, regularPasts } from './verbs';

describe('regularPasts', () => {
  it.each([
    ['start', ['started']],
    ['bake', ['baked']],
    ['try', ['tried']],
    ['stay', ['stayed']],
    ['swap', ['swapped']],
    ['plan', ['planned']],
    ['visit', ['visited']],
    ['open', ['opened']],
    ['fix', ['fixed']],
    ['join', ['joined']],
    ['travel', ['travelled', 'traveled']],
    ['install', ['installed']],
  ])('%s → %j', (base, pasts) => {
    expect(regularPasts(base)).toEqual(pasts);
  });
});

describe('the verb lists', () => {
  it('spells the pasts of the verbs of doing', () => {
    for (const past of ['started', 'tried', 'travelled', 'traveled', 'swapped', 'organised', 'applied', 'danced']) {
      expect(DOING_PASTS.has(past)).toBe(true);
    }
    expect(DOING_PASTS.has('sold')).toBe(false); // irregular: text/irregular-verbs.ts
  });

  it('keeps words that are as often nouns out of the common verbs', () => {
    for (const noun of ['pay', 'win', 'plant', 'smile', 'wash']) expect(COMMON_VERBS.has(noun)).toBe(false);
    expect(COMMON_VERBS.has('draw')).toBe(true);
  });
});
