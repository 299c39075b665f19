import { describe, expect, it } from 'vitest';
import { extractMemories } from './builtin';

const observedAt = new Date('2024-05-01T12:00:00Z');
const run = (...texts: string[]) => extractMemories({ messages: texts.map((content) => ({ role: 'user', content })), observedAt });

describe('first-person acknowledgements (lexicon.ts FIRST_PERSON_SMALL_TALK)', () => {
  it('skips a promise to look at or remember what was suggested, and keeps one that says more', () => {
    const r = run(
      "Thanks, I'll definitely check them out!",
      "I'm gonna try it out.",
      "I'll keep those pointers in mind.",
      'I will definitely keep all of that in mind!',
      "I'll keep that in mind when I repot the figs.",
    );
    expect(r.memories.map((m) => m.content)).toEqual(['The user will keep that in mind when the user repots the figs.']);
    expect(r.metadata.skipped.small_talk).toBeGreaterThanOrEqual(4);
  });

  it('keeps what the user will check or keep that is named', () => {
    const r = run("I'll check out the pottery studio on Elm Street.", "I'll keep my old bike for the winter.");
    expect(r.memories.map((m) => m.content)).toEqual([
      'The user will check out the pottery studio on Elm Street.',
      "The user will keep the user's old bike for the winter.",
    ]);
  });
});
