import { describe, expect, it } from 'vitest';
import { extractMemories } from './builtin';
import { splitClauses } from './clauses';

const at = new Date('2026-02-14T10:00:00Z');
const said = (content: string) => extractMemories({ messages: [{ role: 'user', content }], observedAt: at }).memories.map((m) => m.content);
const clauses = (text: string) => splitClauses({ text, question: false }).map((c) => c.text);

describe('splitClauses: a colon before a first-person subject', () => {
  it('opens a clause of its own after an announcement, which says nothing itself when it is short', () => {
    expect(clauses("Here's the thing: I don't eat meat.")).toEqual(["I don't eat meat."]);
    expect(clauses('Evan, some big news: I started a new diet.')).toEqual(['I started a new diet.']);
    expect(clauses('The doctor who saw me gave some advice: I need to rest.')).toEqual(['The doctor who saw me gave some advice', 'I need to rest.']);
  });

  it("leaves the clause whole after a statement of the user's own, or before anything else", () => {
    expect(clauses("I switched jobs: I'm a school nurse now.")).toEqual(["I switched jobs: I'm a school nurse now."]);
    expect(clauses('I bought three things: a lamp, a rug and a chair.')).toEqual(['I bought three things: a lamp, a rug and a chair.']);
    // a speaker's name labels someone else's words; after the user as subject, the first half is the topic
    expect(clauses('TED FISCHER: We define love as a desire.')).toEqual(['TED FISCHER: We define love as a desire.']);
    expect(clauses('My parents agreed: I had the reverse Midas touch.')).toEqual(['My parents agreed: I had the reverse Midas touch.']);
    // "my" after a colon opens a noun phrase, not a clause
    expect(clauses('Losing that job pushed me to start my dream business: my own dance studio.')).toEqual([
      'Losing that job pushed me to start my dream business: my own dance studio.',
    ]);
  });
});

describe('extractMemories: what a colon announces', () => {
  it('keeps the statement after an announcement', () => {
    expect(said("Here's the thing: I don't eat meat.")).toEqual(['The user does not eat meat.']);
  });

  it('keeps a claim after a statement apart, so a job said as a change can replace the old one', () => {
    expect(said("I switched jobs: I'm a school nurse now.")).toEqual(['The user switched jobs.', 'The user is a school nurse now.']);
    expect(said('I have news: I moved to Porto last week.')).toEqual(['The user has news.', 'The user moved to Porto the week before 14 February 2026.']);
  });

  it('keeps anything else whole, the first half the topic of the second', () => {
    expect(said("My writing is going well: I'm in the middle of a fantasy novel.")).toEqual([
      "The user's writing is going well: the user is in the middle of a fantasy novel.",
    ]);
  });
});

describe('extractMemories: a request to keep a statement in mind', () => {
  it('is no part of the statement', () => {
    expect(said("I'm allergic to peanuts, so please keep that in mind.")).toEqual(['The user is allergic to peanuts.']);
    expect(said("I'm vegan, please remember that.")).toEqual(['The user is vegan.']);
  });

  it('leaves any other request with the statement', () => {
    expect(said("I'm a teacher, please always answer in French.")).toEqual(['The user is a teacher, please always answer in French.']);
  });
});
