import { describe, expect, it } from 'vitest';
import { analyze } from '../text/terms';
import { bm25Scores, buildIndex } from './candidate-index';
import { GROUP_MEMBER_WEIGHT, withGroupMembers } from './group-words';

const stems = (query: string) => [...withGroupMembers(query).keys()];

describe('withGroupMembers', () => {
  it('adds the words a group is named by in its members', () => {
    expect(stems('How many siblings do I have?')).toEqual(expect.arrayContaining(analyze('brother sister')));
    expect(stems('What do my parents do for a living?')).toEqual(expect.arrayContaining(analyze('mom dad mother father')));
    expect(stems("What are my pets' names?")).toEqual(expect.arrayContaining(analyze('dog cat puppy')));
    // pets with scales and shells are pets too
    expect(stems('What pets does Ines have?')).toEqual(expect.arrayContaining(analyze('turtles snake gecko tortoise')));
    expect(stems('Which instruments have I been learning?')).toEqual(expect.arrayContaining(analyze('cello ukulele')));
    // a measure asked for is answered in its units: "I bought a 25 kg sack of flour", "I cycled 40 miles"
    expect(stems('What was the total weight of the flour I bought?')).toEqual(expect.arrayContaining(analyze('kg pounds lbs')));
    expect(stems('How much does my suitcase weigh?')).toEqual(expect.arrayContaining(analyze('kilos ounces')));
    expect(stems('What distance did I cycle on Saturday?')).toEqual(expect.arrayContaining(analyze('miles km')));
    // a kind of consumer service is answered by its brands
    expect(stems('Which streaming services do I pay for?')).toEqual(expect.arrayContaining(analyze('Netflix Hulu Disney+')));
    expect(stems('How many food delivery apps have I tried?')).toEqual(expect.arrayContaining(analyze('DoorDash Grubhub')));
    expect(stems('Where do I post my photos on social media?')).toEqual(expect.arrayContaining(analyze('Instagram TikTok')));
    // family members are named by their relation: "my brother", "my mom", "the kids"
    expect(stems('Which family members visited me over the holidays?')).toEqual(expect.arrayContaining(analyze('brother mom kids')));
    // and relatives by theirs, also outside the household: "my cousin's wedding", "my aunt's farm"
    expect(stems('Which of my relatives got married this year?')).toEqual(expect.arrayContaining(analyze('cousin aunt uncle nephew mom')));
    expect(stems('Which family members did I see?')).toEqual(expect.arrayContaining(analyze('cousin niece')));
    // a life event is named by what it is: "my cousin's wedding"
    expect(stems('Which life events did I celebrate this spring?')).toEqual(expect.arrayContaining(analyze('wedding graduation funeral')));
  });

  it('takes "relative" in the singular as a word of its own ("relative humidity")', () => {
    expect(stems('What is the relative humidity in my greenhouse?')).toEqual(analyze('What is the relative humidity in my greenhouse?'));
  });

  it('takes "family" alone as a word of its own ("a family trip", "her family supporting her")', () => {
    expect(stems('Where did I go on my last family trip?')).toEqual(analyze('Where did I go on my last family trip?'));
  });

  it('names a kind of service by both its words', () => {
    expect(stems('What media did I study?')).toEqual(analyze('What media did I study?'));
    expect(stems('Did the delivery of my sofa arrive?')).toEqual(analyze('Did the delivery of my sofa arrive?'));
    expect(stems('How social am I at work?')).toEqual(analyze('How social am I at work?'));
  });

  it('keeps the query stems first, adds each member once, and leaves other queries alone', () => {
    const s = stems('my kids and my children');
    expect(s.slice(0, 2)).toEqual(analyze('kids children'));
    expect(new Set(s).size).toBe(s.length);
    expect(stems('Where do I live these days?')).toEqual(analyze('Where do I live these days?'));
    // the singular of a relation is a role or a time, not the group
    expect(stems('Who became a parent first?')).toEqual(analyze('Who became a parent first?'));
    expect(stems('What did I collect when I was a kid?')).toEqual(analyze('What did I collect when I was a kid?'));
    expect(stems('Do I have a pet?')).toEqual(expect.arrayContaining(analyze('dog cat')));
  });
});

/** A candidate index over `texts`, one event each. */
function indexOf(texts: string[]) {
  return buildIndex(
    texts.map((_, i) => ({ id: String(i), category: 'event', importance: 0.5, agentId: null, createdAt: 0 })),
    texts,
    null,
  );
}

describe('bm25Scores with member words', () => {
  const texts = ['The user has an older sister named Ana who lives in Lisbon.', 'The user visited a museum in Lisbon.', 'The user adopted a puppy named Biscuit.'];
  const idx = buildIndex(
    texts.map((_, i) => ({ id: String(i), category: 'fact', importance: 0.5, agentId: null, createdAt: 0 })),
    texts,
    null,
  );

  it('finds a member by its group word only when asked to', () => {
    expect([...bm25Scores(idx, 'How many siblings do I have?')]).toEqual([0, 0, 0]);
    const scores = bm25Scores(idx, 'How many siblings do I have?', withGroupMembers('How many siblings do I have?'));
    expect(scores[0]).toBeGreaterThan(0);
    expect(scores[1]).toBe(0);
    expect(bm25Scores(idx, 'Tell me about my pets', withGroupMembers('Tell me about my pets'))[2]).toBeGreaterThan(0);
  });

  it('finds the brand the user named by the kind of service asked about', () => {
    const said = ['The user watched a documentary on Disney+ during a free trial.', 'The user watched a documentary about whales.'];
    const brands = indexOf(said);
    const q = 'Which streaming service did I use for the documentary?';
    expect(bm25Scores(brands, q)[0]).toBeLessThanOrEqual(bm25Scores(brands, q)[1]);
    expect(bm25Scores(brands, q, withGroupMembers(q))[0]).toBeGreaterThan(bm25Scores(brands, q, withGroupMembers(q))[1]);
  });

  it('finds a value stated in units by the measure it is of', () => {
    const said = ['The user picked up a 25 kg sack of rye flour from the mill.', 'The user baked rye bread on Sunday.'];
    const units = indexOf(said);
    const q = 'What was the weight of the sack from the mill?';
    expect(bm25Scores(units, q)[0]).toBeGreaterThan(0); // "sack", "mill"
    expect(bm25Scores(units, q, withGroupMembers(q))[0]).toBeGreaterThan(bm25Scores(units, q)[0]);
    // "far" is no measure: "so far" is in questions about counts
    expect(stems('How many books have I read so far?')).not.toContain(analyze('miles')[0]);
  });

  it('weighs a member word GROUP_MEMBER_WEIGHT times the same word asked for', () => {
    const asked = bm25Scores(idx, 'my sister', withGroupMembers('my sister'))[0];
    const viaGroup = bm25Scores(idx, 'my siblings', withGroupMembers('my siblings'))[0];
    expect(viaGroup).toBeCloseTo(asked * GROUP_MEMBER_WEIGHT, 9);
  });
});
