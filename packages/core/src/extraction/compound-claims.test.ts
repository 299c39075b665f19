import { describe, expect, it } from 'vitest';
import { detectClaim, relateClaims } from '../conflicts/claims';
import { extractMemories } from './builtin';
import { compoundCandidates, compoundReading, joinPredicates, opensVerbPhrase, singleValueClaim } from './compound-claims';

/** Whether two statements are read as two facts: the first a claim of a single value, the compound read `two`. */
function separateClaims(a: string, b: string, opensVerb: () => boolean = () => false): boolean {
  const first = singleValueClaim(a);
  return first !== null && compoundReading(first, b, opensVerb) === 'two';
}

// two facts said with one subject become two memories when each is a claim (docs/conflicts.md, docs/memory-model.md)
const at = new Date('2026-02-14T10:00:00Z');
const said = (...messages: string[]) =>
  extractMemories({ messages: messages.map((content) => ({ role: 'user' as const, content })), observedAt: at }).memories.map((m) => m.content);

describe('compoundCandidates', () => {
  it('repeats the subject for each "and" that may open a second predicate', () => {
    expect(compoundCandidates('I live in Ghent and teach maths at a high school')).toEqual([['I live in Ghent', 'I teach maths at a high school', 20]]);
    expect(compoundCandidates("I'm vegan and cook most evenings")).toEqual([["I'm vegan", 'I cook most evenings', 14]]);
    expect(compoundCandidates('My brother Tomas rents a flat in Leeds, and drives a Skoda')).toEqual([
      ['My brother Tomas rents a flat in Leeds', 'My brother Tomas drives a Skoda', 44],
    ]);
  });

  it('leaves a new subject, a noun phrase or a clause without a subject of its own alone', () => {
    expect(compoundCandidates('I live in Ghent and my wife works in Brussels')).toEqual([]);
    expect(compoundCandidates('I bought bread and the cheese')).toEqual([]);
    expect(compoundCandidates('Bread and cheese are what I bought')).toEqual([]);
  });
});

describe('opensVerbPhrase', () => {
  const at = (clause: string, word: string) => opensVerbPhrase(clause, clause.lastIndexOf(word));
  it('holds for a verb in its base or past form with words after it', () => {
    expect(at('I live in Ghent and teach maths at a high school', 'teach')).toBe(true);
    expect(at('I moved to Leeds and started a new job at a bakery', 'started')).toBe(true);
    expect(at('I live in Porto and cycle to work every day', 'cycle')).toBe(true);
  });

  it('fails for a noun after "and", or a last word', () => {
    expect(at('I work in research and development at Acme', 'development')).toBe(false);
    expect(at('I live with my wife and kids in Oslo', 'kids')).toBe(false);
    expect(at('I work as a nurse and midwife in Leeds', 'midwife')).toBe(false);
    expect(at('I live in Leeds and paint', 'paint')).toBe(false);
  });
});

describe('joinPredicates', () => {
  it('says the subject once', () => {
    expect(joinPredicates('The user lives in Berlin.', 'The user loves the city.')).toBe('The user lives in Berlin and loves the city.');
    expect(joinPredicates("The user's brother Tomas works at Acme.", "The user's brother Tomas likes it.")).toBe("The user's brother Tomas works at Acme and likes it.");
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

  it('holds for a claim and a verb phrase of its own, not for one that refers back to the claim', () => {
    const verb = () => true;
    expect(separateClaims('The user lives in Ghent.', 'The user teaches maths.', verb)).toBe(true);
    expect(separateClaims('The user is vegetarian.', 'The user loves cooking Thai food.', verb)).toBe(true);
    expect(separateClaims('The user lives in Ghent.', 'The user loves the city.', verb)).toBe(false);
    expect(separateClaims('The user works at Acme.', 'The user likes it there.', verb)).toBe(false);
    expect(separateClaims('The user lives in Ghent.', 'The user loves this town.', verb)).toBe(false);
    expect(separateClaims('The user lives in Ghent.', 'The user wants music for those walks.', verb)).toBe(false);
    // a relative "that" is no reference back
    expect(separateClaims('The user lives in Ghent.', 'The user teaches at a school that opened in 2020.', verb)).toBe(true);
    // the first half must be the claim
    expect(separateClaims('The user went to the market.', 'The user bought apples.', verb)).toBe(false);
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

  it('keeps a claim apart from a verb phrase of its own after it', () => {
    expect(said('I live in Ghent and teach maths at a high school.')).toEqual(['The user lives in Ghent.', 'The user teaches maths at a high school.']);
    expect(said("I'm vegetarian and love cooking Thai food.")).toEqual(['The user is vegetarian.', 'The user loves cooking Thai food.']);
    expect(said('I moved to Leeds and started a new job at a bakery.')).toEqual(['The user moved to Leeds.', 'The user started a new job at a bakery.']);
  });

  it('keeps one memory with the claim when the second verb refers back to it, that verb in the third person', () => {
    const [m, ...rest] = extractMemories({ messages: [{ role: 'user', content: 'I live in Berlin and love the city.' }], observedAt: at }).memories;
    expect(rest).toEqual([]);
    expect(m.content).toBe('The user lives in Berlin and loves the city.');
    expect(m.claim).toMatchObject({ subject: 'residence', value: 'berlin' });
  });

  it('keeps one memory when the first half is no claim or the second no verb phrase', () => {
    expect(said('I went to the market and bought apples.')).toEqual(['The user went to the market and bought apples.']);
    expect(said('I like jazz and blues.')).toEqual(['The user likes jazz and blues.']);
    expect(said('I moved out of Leeds and moved to York.')).toEqual(['The user moved out of Leeds and moved to York.']);
    expect(said('I work in research and development at Acme.')).toHaveLength(1);
    expect(said('I work as a nurse and midwife in Leeds.')).toHaveLength(1);
    // a noun phrase whose first word may be a verb, after a first half that is a like
    expect(said('I love the rhythm and blues records my dad left me.')).toHaveLength(1);
    expect(said('I read novels, essays, and study guides.')).toHaveLength(1);
  });

  it('splits two single values said together, such as a schedule', () => {
    expect(said('I wake up at 6 am and go to bed at 11 pm.')).toEqual(['The user wakes up at 6 am.', 'The user goes to bed at 11 pm.']);
  });
});
