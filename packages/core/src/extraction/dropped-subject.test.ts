import { describe, expect, it } from 'vitest';
import { extractMemories } from './builtin';
import { withDroppedSubject } from './dropped-subject';
import { extractAt } from './test-helpers';

const { contents } = extractAt(new Date('2026-03-02T10:00:00Z'));

describe('withDroppedSubject', () => {
  it.each([
    ['Been restoring an old sailboat with my uncle', "I've been restoring an old sailboat with my uncle"],
    ['Just been swamped at the clinic', "I've just been swamped at the clinic"],
    ['Been a bit frustrated with the new phone', "I've been a bit frustrated with the new phone"],
    ['Gonna move to Berlin in May', "I'm going to move to Berlin in May"],
    ['Gotta renew my passport before the trip', 'I have to renew my passport before the trip'],
    ['Just got back from a week in Lapland', 'I just got back from a week in Lapland'],
    ['Started a beekeeping course last month', 'I started a beekeeping course last month'],
    ['Finally finished the quilt for my niece', 'I finally finished the quilt for my niece'],
    ['Had a rough week at the warehouse', 'I had a rough week at the warehouse'],
    ['Took the kids to the aquarium on Sunday', 'I took the kids to the aquarium on Sunday'],
    ['Just finished The Nightingale on the train', 'I just finished The Nightingale on the train'],
    ["Can't wait to start the glassblowing course in May", "I can't wait to start the glassblowing course in May"],
    ['Cannot wait for the harvest festival', 'I cannot wait for the harvest festival'],
    ['Love hiking in the fog', 'I love hiking in the fog'],
    ['Really love experimenting with spices', 'I really love experimenting with spices'],
    ['Hate waiting for the ferry', 'I hate waiting for the ferry'],
    ["Haven't tried the new ramen place yet", "I haven't tried the new ramen place yet"],
    ['Havent finished planning the route', 'I havent finished planning the route'],
    // an opening quote or a count after the verb is its object
    ['Just finished "Piranesi" on the ferry', 'I just finished "Piranesi" on the ferry'],
    ['Watched “The Third Man” with my dad', 'I watched “The Third Man” with my dad'],
    ['Ran 12 kilometres along the canal', 'I ran 12 kilometres along the canal'],
    ['Bought 3 secondhand cameras at the flea market', 'I bought 3 secondhand cameras at the flea market'],
    // verbs of doing chat often drops the "I" of
    ['Dyed my hair teal over the weekend', 'I dyed my hair teal over the weekend'],
    ['Hosted a board game night for the neighbours', 'I hosted a board game night for the neighbours'],
    ['Texted my landlord about the boiler', 'I texted my landlord about the boiler'],
    ['Rented a cabin by the lake for August', 'I rented a cabin by the lake for August'],
    // "Did" before its object, and a promise with "Will"
    ['Did a 10K charity run on Sunday', 'I did a 10K charity run on Sunday'],
    ['Will send you the route tonight', 'I will send you the route tonight'],
    ['Knitted a scarf for my nephew', 'I knitted a scarf for my nephew'],
  ])('%s', (clause, expected) => {
    expect(withDroppedSubject(clause)).toBe(expected);
  });

  it.each([
    // reactions whose "it" or "that" was left out, and openings that are no statement of the speaker's
    'Got it, I will check the timetable',
    'Made my day, honestly',
    'Took me ages to find the right shade',
    'Took some getting used to',
    "Got Marta's back on that one",
    'Thought so',
    'Told you the bakery was good',
    'Saw that coming',
    // how long it has been: a greeting, not the speaker (lexicon.ts strips it)
    'Been a while since we chatted',
    'Been ages, how are the kids',
    'Been a crazy few days',
    'Been a tough year for the shop',
    // a question, a name, and an acknowledgement
    'Did you see the match?',
    'Did Anna call you back',
    'Did the film change how people saw the strike',
    'Will you be at the market?',
    'Will Turner owns the bakery',
    'Will do!',
    'Had they been warned, the ferry would have waited',
    'Had Marek or his brother signed the lease before May',
    // participles and fragments of pasted text
    'Built in 1850 by the railway company',
    'Made with hand-picked plums from the valley',
    'Used to identify the forms',
    // a year after a participle is a label's date, not a count; a quoted "it" is still the thing just said
    'Founded 1999 in a garage',
    'Renovated 1920s townhouse for sale',
    'Got "it" at last',
    "Won't the new schedule slow everyone down",
    'been disagreed to by the committee',
    // present verbs, "-ing" forms and "-ed" adjectives read both ways; a liking of a thing may be of the other's
    'Love the new haircut',
    'Love it!',
    'Enjoy exploring the old town',
    'Keep going with the drafts',
    "Haven't talked in a while",
    "Haven't seen you in ages",
    "Haven't you heard the news?",
    'Working with kids is rewarding',
    'Excited to see the new mural',
    // waiting for the other speaker's news is a reaction (reactions.ts)
    "Can't wait to hear all about it!",
    "Can't wait to see the pics",
    // a subject already there
    'I went to the coast',
    'Anna went to the coast',
  ])('%s is left as it is', (clause) => {
    expect(withDroppedSubject(clause)).toBe(clause);
  });
});

describe('a clause without its "I" is the speaker\'s own statement', () => {
  it('without a name, a plan or an event said without "I" is kept (it was skipped as about nobody)', () => {
    expect(contents('Gonna move to Berlin in May.')).toEqual(['The user is going to move to Berlin in May.']);
    expect(contents('Started a beekeeping course with my neighbour.')).toEqual(["The user started a beekeeping course with the user's neighbour."]);
    expect(contents('Been learning the cello for three years.')).toEqual(['The user has been learning the cello for three years.']);
    expect(contents("Can't wait to start the glassblowing course in May.")).toEqual([
      'The user cannot wait to start the glassblowing course in May.',
    ]);
  });

  it('from a named speaker, the statement is theirs, not a report of words', () => {
    const result = extractMemories({
      observedAt: new Date('2026-03-02T10:00:00Z'),
      messages: [
        { role: 'user', name: 'Priya', content: 'How have you been, Tomas?' },
        { role: 'user', name: 'Tomas', content: 'Been practising the violin every morning for the spring recital.' },
      ],
    });
    const texts = result.memories.map((m) => m.content);
    expect(texts.some((t) => t.startsWith('Tomas has been practising the violin every morning'))).toBe(true);
    expect(texts.some((t) => t.includes('said that Been'))).toBe(false);
  });

  it('an acknowledgement without "I" stays what it was', () => {
    expect(contents('Got it, thanks for the help.')).toEqual([]);
  });
});
