import { describe, expect, it } from 'vitest';
import { nounPhrases } from './entities';

describe('nounPhrases', () => {
  it('names things, not the speakers: no pronouns and no pronoun contractions', () => {
    const phrases = nounPhrases("I'm glad you're enjoying the recipe! It's a favourite, and we've paired it with a lemon tart.").map((p) => p.toLowerCase());
    expect(phrases.some((p) => /recipe/.test(p))).toBe(true);
    expect(phrases.some((p) => /tart/.test(p))).toBe(true);
    for (const p of phrases) expect(p).not.toMatch(/^(?:i|you|it|we)['’]/);
  });

  it('leaves out the excluded names and says each phrase once', () => {
    const phrases = nounPhrases('Caroline bought a kayak. The kayak is red.', ['Caroline']);
    expect(phrases).toEqual(['a kayak']);
  });
});
