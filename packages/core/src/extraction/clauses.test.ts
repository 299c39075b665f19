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

describe('extractMemories: a consequence after ", so"', () => {
  it('is a clause of its own, so the statement before it is a memory by itself', () => {
    expect(said("I'm staying in Kyoto for the conference, so the temples you listed sound perfect for me.")).toEqual([
      'The user is staying in Kyoto for the conference.',
      'The temples you listed sound perfect for the user.',
    ]);
    expect(said('I work night shifts at the hospital, so mornings are hard for me.')).toEqual([
      'The user works night shifts at the hospital.',
      'Mornings are hard for the user.',
    ]);
  });

  it('is a memory only where it names the user', () => {
    expect(said('I collect old maps, so their new exhibition sounds amazing.')).toEqual(['The user collects old maps.']);
    expect(said('My brother lives in Denver, so it is easy to visit him.')).toEqual(["The user's brother lives in Denver."]);
  });

  it('leaves a purpose, a degree and a request where they were', () => {
    expect(said('I moved to Porto, so that I could be closer to my sister.')).toEqual([
      'The user moved to Porto, so that the user could be closer to the user\'s sister.',
    ]);
    expect(clauses('I was so tired, so much that I slept all day.')).toEqual(['I was so tired, so much that I slept all day.']);
    expect(said("I'm allergic to shellfish, so please keep that in mind.")).toEqual(['The user is allergic to shellfish.']);
  });

  it('splits before a named subject too', () => {
    expect(clauses('I booked the cabin for June, so Priya can join us.')).toEqual(['I booked the cabin for June', 'Priya can join us.']);
  });
});

describe('extractMemories: a named person with a title or a surname', () => {
  it('is a named subject, as a first name alone is', () => {
    expect(said('Dr. Lindqvist prescribed me a nasal spray for the allergy.')).toEqual([
      'The user said that Dr. Lindqvist prescribed the user a nasal spray for the allergy.',
    ]);
    expect(said('Tomasz Nowak moved to Gdansk in March.')).toEqual(['The user said that Tomasz Nowak moved to Gdansk in March.']);
    // a capitalised word that names no one still does not open a named subject
    expect(said('The Rolling Stones are touring again.')).toEqual([]);
  });
});
