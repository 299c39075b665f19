import { describe, expect, it } from 'vitest';
import { detectClaim } from '../conflicts/claims';
import { conjugatePredicate, isPreVerbAdverb, rewriteLater, toThirdPerson } from './third-person';

describe('adverbs between "I" and its verb', () => {
  it('a listed adverb or any other "-ly" adverb stays before the verb, which is conjugated', () => {
    expect(conjugatePredicate('eventually want to paddle the coast', false)).toBe('eventually wants to paddle the coast');
    expect(conjugatePredicate('gradually save for a boat', false)).toBe('gradually saves for a boat');
    expect(toThirdPerson('I simply love my garden.')).toBe("The user simply loves the user's garden.");
  });

  it('a verb that ends in "-ly" is the verb', () => {
    for (const verb of ['apply', 'reply', 'supply', 'rely', 'multiply', 'comply']) expect(isPreVerbAdverb(verb)).toBe(false);
    expect(conjugatePredicate('rely on my sister', false)).toBe('relies on my sister');
    expect(conjugatePredicate('apply sunscreen twice a day', false)).toBe('applies sunscreen twice a day');
    expect(isPreVerbAdverb('eventually')).toBe(true);
    expect(isPreVerbAdverb('usually')).toBe(true);
  });

  it('later in the clause, "I" with up to two adverbs before its verb', () => {
    expect(rewriteLater('My wife says that I always forget my keys', false)).toBe("the user's wife says that the user always forgets the user's keys");
    expect(rewriteLater('I will remember that when I eventually get a truck', false)).toContain('when the user eventually gets a truck');
    expect(rewriteLater('whenever I just really need a break', false)).toBe('whenever the user just really needs a break');
    expect(rewriteLater('because I apply for jobs', false)).toBe('because the user applies for jobs');
  });
});

describe('"no longer" before the verb', () => {
  it('stays before it, and the verb is conjugated, so the statement is an ended claim', () => {
    expect(conjugatePredicate('no longer work at Google', false)).toBe('no longer works at Google');
    expect(toThirdPerson('I no longer live in Paris.')).toBe('The user no longer lives in Paris.');
    expect(detectClaim('The user no longer lives in Paris.')).toMatchObject({ subject: 'residence', value: 'paris', negated: true });
  });
});
