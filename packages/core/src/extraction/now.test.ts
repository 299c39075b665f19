import { describe, expect, it } from 'vitest';
import { extractMemories } from './builtin';
import { normalise } from './normalise';
import { anchorNow, isMomentary } from './now';
import { extractAt, itExtracts } from './test-helpers';

// Sunday, 21 May 2023
const observedAt = new Date('2023-05-21T19:50:00Z');
const { contents } = extractAt(observedAt);

describe('present time: dated events are kept with their date', () => {
  it('an event "just … today" gets the conversation date and loses "just"', () => {
    expect(contents('I just finished The Nightingale today and loved it.')).toEqual([
      'The user finished The Nightingale on 21 May 2023 and loved it.',
    ]);
    expect(contents('This morning I repotted all of my succulents.')).toEqual(['On 21 May 2023, the user repotted all of the user\'s succulents.']);
  });

  it('an event today is an event', () => {
    const r = extractMemories({ messages: [{ role: 'user', content: 'I adopted a beagle puppy from the shelter today.' }], observedAt });
    expect(r.memories.map((m) => [m.content, m.category])).toEqual([['The user adopted a beagle puppy from the shelter on 21 May 2023.', 'event']]);
  });

  itExtracts(
    [
      // a recent event said with "just" is dated "as of" the conversation
      ["I've just been diagnosed with mild asthma.", 'The user has just been diagnosed with mild asthma (as of 21 May 2023).'],
      ['I just signed the lease on a two-bedroom flat.', 'The user just signed the lease on a two-bedroom flat (as of 21 May 2023).'],
      // "just" before a verb that is not past is not an event
      ['I just love early morning swims in the lake.', 'The user just loves early morning swims in the lake.'],
      // "just" with its own time keeps that time and no "as of"
      ['I just moved to Porto last month.', 'The user just moved to Porto in April 2023.'],
    ],
    observedAt,
  );

  it('a current value said "right now" is kept as of the conversation date', () => {
    expect(contents('I have three sourdough starters going right now.')).toEqual(['The user has three sourdough starters going (as of 21 May 2023).']);
    expect(contents("At the moment I'm reading a biography of Ada Lovelace.")).toEqual([
      'The user is reading a biography of Ada Lovelace (as of 21 May 2023).',
    ]);
    expect(contents("We've got 20 dozen eggs in the fridge right now, any ideas for using them?")).toEqual([
      'The user and their household have got 20 dozen eggs in the fridge (as of 21 May 2023).',
    ]);
  });

  itExtracts(
    [
      // a plan for tonight, tomorrow or this weekend is kept with its date
      ["I'm volunteering at the animal shelter this weekend.", 'The user is volunteering at the animal shelter the weekend of 21 May 2023.'],
      ['I have a job interview at a robotics startup tomorrow.', 'The user has a job interview at a robotics startup on 22 May 2023.'],
      // the subject left out after a comma: "…, just got back from …" is its own statement
      ["I'm exhausted today, just got back from a 40-mile charity bike ride.", 'The user just got back from a 40-mile charity bike ride (as of 21 May 2023).'],
      // an activity with something durable after it is a plan, not a passing state
      ["I'm making a patchwork quilt for my niece's christening.", "The user is making a patchwork quilt for the user's niece's christening."],
      ["I'm looking for a two-bedroom flat near the river.", 'The user is looking for a two-bedroom flat near the river.'],
      ["I'm thinking of switching from Android to an iPhone.", 'The user is thinking of switching from Android to an iPhone.'],
    ],
    observedAt,
  );
});

describe('present time: momentary states are still dropped', () => {
  it.each([
    "I'm so tired today.",
    "I'm at the pharmacy right now.",
    "I'm on my way home.",
    "I'm cooking dinner.",
    "I'm making pasta for dinner tonight.",
    'I just woke up.',
    'I just got home.',
    'I just realized something.',
    'I have a headache today.',
    'I have a meeting.',
  ])('%s', (text) => {
    const r = extractMemories({ messages: [{ role: 'user', content: text }], observedAt });
    expect(r.memories).toEqual([]);
    expect(r.metadata.skipped.transient).toBe(1);
  });

});

describe('now.ts helpers', () => {
  it('isMomentary reads the normalised clause', () => {
    expect(isMomentary(normalise("I'm bored right now"))).toBe(true);
    expect(isMomentary(normalise("I'm heading to the gym"))).toBe(true);
    expect(isMomentary(normalise("I'm heading to Lisbon for a three-month sabbatical"))).toBe(false);
    expect(isMomentary(normalise('I have a dentist appointment'))).toBe(true);
    expect(isMomentary(normalise('I have a dentist appointment tomorrow'))).toBe(false);
    expect(isMomentary(normalise('I have a chemistry exam on 12 June'))).toBe(false);
  });

  it('anchorNow replaces "right now" by the as-of suffix and keeps "currently" in the text', () => {
    expect(anchorNow('I have 12 tabs open right now', normalise('I have 12 tabs open right now'))).toEqual({ text: 'I have 12 tabs open', asOf: true });
    expect(anchorNow('I currently work nights', normalise('I currently work nights'))).toEqual({ text: 'I currently work nights', asOf: true });
    expect(anchorNow('I love jazz', normalise('I love jazz'))).toEqual({ text: 'I love jazz', asOf: false });
  });
});
