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

  it('skips "give those ideas a try", "look into all of that" and a promise with thanks for the suggestions', () => {
    const r = run(
      "I'll definitely check them out, thanks for the tips!",
      "I'll definitely try those tips out.",
      "I'll give some of your ideas a shot.",
      "I'll definitely look into all of that.",
      "I'll look into the pottery studio on Elm Street.",
      "Thanks, I'll give it a try.",
    );
    // "it" alone stays: the reply context says what it is
    expect(r.memories.map((m) => m.content)).toEqual(['The user will look into the pottery studio on Elm Street.', 'The user will give it a try.']);
  });

  it('keeps what the user will check or keep that is named', () => {
    const r = run("I'll check out the pottery studio on Elm Street.", "I'll keep my old bike for the winter.");
    expect(r.memories.map((m) => m.content)).toEqual([
      'The user will check out the pottery studio on Elm Street.',
      "The user will keep the user's old bike for the winter.",
    ]);
  });
});

describe('a clause that only announces a question or a remark (lexicon.ts ANNOUNCES_QUESTION)', () => {
  it('skips the announcement and judges what follows on its own', () => {
    const r = run(
      'I was wondering, can you suggest a good dog food?',
      "I'm also curious, are there any bike routes near the river?",
      'I wanted to ask you, what is a good book on sailing?',
      'I have one more question.',
      "I have to admit, I've been skipping my morning runs.",
    );
    expect(r.memories.map((m) => m.content)).toEqual(["The user has been skipping the user's morning runs."]);
    expect(r.metadata.skipped.small_talk).toBeGreaterThanOrEqual(4);
  });

  it('keeps the reason that opens an announcement, and what the user was thinking about', () => {
    const r = run("Since I've been tracking my grocery spending, I'm curious, which apps do people like?", 'I was thinking about getting a puppy.');
    expect(r.memories.map((m) => m.content)).toEqual([
      "The user has been tracking the user's grocery spending.",
      'The user was thinking about getting a puppy.',
    ]);
  });
});

describe('thanks for what was suggested, and talk about the chat itself', () => {
  it('skips them and keeps a liking that names the user’s own thing', () => {
    const r = run(
      'I really appreciate the detailed advice.',
      'I love these recipe ideas, thanks!',
      'I think I remember now.',
      "I'll stop here for now.",
      "I'm glad I could help!",
      'I love the garden my grandfather planted.',
    );
    expect(r.memories.map((m) => m.content)).toEqual(['The user loves the garden the user\'s grandfather planted.']);
  });
});

describe('curiosity about a topic (lexicon.ts TRANSIENT_STATE)', () => {
  it('keeps what the user is curious about, with or without "also", and skips curiosity alone', () => {
    const r = run("I'm curious about the history of antique clocks.", "I'm also curious about Vienna's coffee culture.", "I'm curious.");
    expect(r.memories.map((m) => m.content)).toEqual([
      'The user is curious about the history of antique clocks.',
      "The user is also curious about Vienna's coffee culture.",
    ]);
  });
});
