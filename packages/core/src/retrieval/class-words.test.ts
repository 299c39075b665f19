import { describe, expect, it } from 'vitest';
import { analyze } from '../text/terms';
import { bm25Scores, buildIndex } from './candidate-index';
import { CLASS_MEMBER_WEIGHT, classMembers, classWordOf, withClassMembers } from './class-words';
import { rankCandidates } from './score';

// needs generated/hyponyms.json (the core build step, scripts/build-hyponyms.mjs; `npm test` runs it first)

/** Memories of equal importance and age, lexical and class terms only (no word vectors). */
const indexOf = (texts: string[]) =>
  buildIndex(
    texts.map((_, i) => ({ id: String(i), category: 'fact', importance: 0.5, agentId: null, createdAt: 0 })),
    texts,
    null,
  );

describe('classWordOf', () => {
  it('reads the class a question names in the plural, as one lemma when two words make one', () => {
    expect(classWordOf('Which martial arts does Ines practise?')).toBe('martial_art');
    expect(classWordOf('What board games did we bring to the cabin?')).toBe('board_game');
    expect(classWordOf('How many different surgeons have I seen this year?')).toBe('surgeon');
    expect(classWordOf('Which cities did Omar fly to in spring?')).toBe('city');
    expect(classWordOf('What kind of dog does my neighbour have?')).toBe('dog');
  });

  it('finds none in a question that names no class', () => {
    expect(classWordOf('What did Ines cook on Sunday?')).toBeNull();
    expect(classWordOf('Where does my sister live?')).toBeNull();
    expect(classWordOf('What is my favourite colour?')).toBeNull();
  });

  it('never reads the lookup table’s own properties as lemmas', () => {
    for (const q of ['What constructors did I meet?', 'Which toStrings and valueOfs matter?', 'How many __proto__s are there?', 'What hasOwnPropertys?']) {
      expect(() => withClassMembers(q, new Map())).not.toThrow();
      expect(withClassMembers(q, new Map()).size).toBeLessThan(50);
    }
    expect(classWordOf('Which toStrings matter?')).toBeNull();
    expect(classMembers('toString')).toEqual([]);
    expect(classMembers('hasOwnProperty')).toEqual([]);
  });
});

describe('classMembers', () => {
  it('gives the one-word names of the kinds and instances of the class', () => {
    expect(classMembers('martial_art')).toEqual(expect.arrayContaining(['karate', 'judo', 'taekwondo']));
    expect(classMembers('city')).toEqual(expect.arrayContaining(['lisbon', 'rome', 'osaka']));
    expect(classMembers('surgeon')).toEqual(expect.arrayContaining(['neurosurgeon']));
  });

  it('keeps a one-word abbreviation WordNet lists, without its period, as the text analysis reads it', () => {
    // "Dr." is in the synset of "doctor"; "Dr. Okafor" is analysed as "dr okafor"
    expect(classMembers('doctor')).toContain('dr');
    expect(analyze('I saw Dr. Okafor')).toContain('dr');
    // an abbreviation never replaces a word of the same spelling ("La." is Louisiana; "la" is the note)
    expect(classMembers('state')).not.toContain('la');
  });

  it('leaves out units of time, classes too broad to list, and members only by a rare sense', () => {
    expect(classMembers('day')).toEqual([]);
    expect(classMembers('month')).toEqual([]);
    expect(classMembers('activity')).toEqual([]);
    expect(classMembers('exercise')).toEqual(expect.arrayContaining(['yoga', 'jogging']));
    // "set" and "press" are exercises in a rare sense; "clean" is an adjective first
    expect(classMembers('exercise')).not.toEqual(expect.arrayContaining(['set']));
    expect(classMembers('exercise')).not.toContain('press');
    expect(classMembers('exercise')).not.toContain('clean');
    // "Nice" is a city, and an adjective
    expect(classMembers('city')).not.toContain('nice');
  });
});

describe('bm25Scores with class members', () => {
  const texts = [
    'Ines started karate lessons at the community centre.',
    'Ines said that the lessons at the community centre are expensive.',
    'Omar spent a long weekend in Lisbon with his cousins.',
  ];
  const idx = indexOf(texts);
  const q = 'Which martial arts has Ines tried?';

  it('finds a member by its class only through the class members', () => {
    // the memories share "Ines" with the question, and nothing else
    expect(bm25Scores(idx, q)[0]).toBe(bm25Scores(idx, q)[1]);
    const scores = bm25Scores(idx, q, withClassMembers(q, new Map(analyze(q).map((s) => [s, 1]))));
    expect(scores[0]).toBeGreaterThan(scores[1]);
    expect(bm25Scores(idx, 'Which cities has Omar been to?', withClassMembers('Which cities has Omar been to?', new Map()))[2]).toBeGreaterThan(0);
  });

  it('weighs a member word CLASS_MEMBER_WEIGHT times the same word asked for, and keeps the query terms', () => {
    const terms = withClassMembers(q, new Map([['karat', 1]]));
    expect(terms.get('karat')).toBe(1);
    expect(withClassMembers(q, new Map()).get('karat')).toBe(CLASS_MEMBER_WEIGHT);
    expect(withClassMembers('What did Ines cook?', new Map([['cook', 1]]))).toEqual(new Map([['cook', 1]]));
  });
});

describe('rankCandidates with a class question', () => {
  it('ranks what the user said of a member above what merely shares the question’s other words', () => {
    const texts = ['Ines said that she loves the new community centre.', 'Ines goes to judo twice a week.', 'Ines has tried the new climbing wall.'];
    expect(rankCandidates(indexOf(texts), 'Which martial arts has Ines tried?', {}, 3, 0)[0].index).toBe(1);
  });

  it('finds a doctor named with "Dr."', () => {
    const texts = ['The user wants to see the coast in spring.', 'The user saw Dr. Okafor about a sore knee.'];
    expect(rankCandidates(indexOf(texts), 'How many different doctors have I been to?', {}, 2, 0).map((r) => r.index)).toEqual([1]);
  });
});
