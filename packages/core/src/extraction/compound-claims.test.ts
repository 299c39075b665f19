import { describe, expect, it } from 'vitest';
import { detectClaim, relateClaims } from '../conflicts/claims';
import { extractMemories } from './builtin';
import { compoundCandidates, separateClaims } from './compound-claims';

// two facts said with one subject become two memories when each is a claim (docs/conflicts.md, docs/memory-model.md)
const at = new Date('2026-02-14T10:00:00Z');
const said = (...messages: string[]) =>
  extractMemories({ messages: messages.map((content) => ({ role: 'user' as const, content })), observedAt: at }).memories.map((m) => m.content);

describe('compoundCandidates', () => {
  it('repeats the subject for each "and" that may open a second predicate', () => {
    expect(compoundCandidates('I live in Ghent and teach maths at a high school')).toEqual([['I live in Ghent', 'I teach maths at a high school']]);
    expect(compoundCandidates("I'm vegan and cook most evenings")).toEqual([["I'm vegan", 'I cook most evenings']]);
    expect(compoundCandidates('My brother Tomas rents a flat in Leeds, and drives a Skoda')).toEqual([
      ['My brother Tomas rents a flat in Leeds', 'My brother Tomas drives a Skoda'],
    ]);
  });

  it('leaves a new subject, a noun phrase or a clause without a subject of its own alone', () => {
    expect(compoundCandidates('I live in Ghent and my wife works in Brussels')).toEqual([]);
    expect(compoundCandidates('I bought bread and the cheese')).toEqual([]);
    expect(compoundCandidates('Bread and cheese are what I bought')).toEqual([]);
  });
});

describe('separateClaims', () => {
  it('holds for two claims about different attributes or people', () => {
    expect(separateClaims('The user lives in Ghent.', 'The user works as a maths teacher.')).toBe(true);
    expect(separateClaims("The user's brother lives in Leeds.", 'The user lives in Ghent.')).toBe(true);
  });

  it('fails for one attribute twice, or a half that is no claim', () => {
    expect(separateClaims('The user moved out of Leeds.', 'The user moved to York.')).toBe(false);
    expect(separateClaims('The user lives in Ghent.', 'The user went to the market.')).toBe(false);
    // a like is no single value a later statement replaces
    expect(separateClaims('The user lives in Ghent.', 'The user loves the city.')).toBe(false);
  });
});

describe('extractMemories: two facts with one subject', () => {
  it('keeps each claim as its own memory, the second verb in the third person', () => {
    expect(said('I live in Ghent and work as a maths teacher.', 'My brother Tomas lives in Leeds, and works at Unilever.')).toEqual([
      'The user lives in Ghent.',
      'The user works as a maths teacher.',
      "The user's brother Tomas lives in Leeds.",
      "The user's brother Tomas works at Unilever.",
    ]);
    expect(said("I'm vegan and work as a physiotherapist.")).toEqual(['The user is vegan.', 'The user works as a physiotherapist.']);
  });

  it('so a later move supersedes the residence and leaves the job', () => {
    const [home, job] = said('I live in Ghent and work as a physiotherapist.');
    const [moved] = said('Actually I moved to Antwerp last month.');
    const claim = (s: string) => detectClaim(s)!;
    expect(relateClaims(claim(home), claim(moved))).toBe('contradiction');
    expect(relateClaims(claim(job), claim(moved))).toBe('compatible');
  });

  it('keeps one memory when the halves are not two claims', () => {
    // "teach maths" is no claim: the residence stays with it, as before
    expect(said('I live in Ghent and teach maths at a high school.')).toHaveLength(1);
    expect(said('I went to the market and bought apples.')).toEqual(['The user went to the market and bought apples.']);
    expect(said('I like jazz and blues.')).toEqual(['The user likes jazz and blues.']);
    expect(said('I moved out of Leeds and moved to York.')).toEqual(['The user moved out of Leeds and moved to York.']);
    // a noun phrase whose first word may be a verb, and a like that names the other half's place again
    expect(said('I love the rhythm and blues records my dad left me.')).toHaveLength(1);
    expect(said('I read novels, essays, and study guides.')).toHaveLength(1);
    expect(said('I live in Ghent and love the city.')).toHaveLength(1);
  });

  it('splits two single values said together, such as a schedule', () => {
    expect(said('I wake up at 6 am and go to bed at 11 pm.')).toEqual(['The user wakes up at 6 am.', 'The user goes to bed at 11 pm.']);
  });
});
