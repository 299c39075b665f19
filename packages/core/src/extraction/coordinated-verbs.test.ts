import { describe, expect, it } from 'vitest';
import { toThirdPerson } from './third-person';

const rewrite = (clause: string) => toThirdPerson(clause, false, 'Ines');

describe('a second verb of the same "I" after "and"', () => {
  it.each([
    ['I usually pack a sandwich and just relax by the river', 'Ines usually packs a sandwich and just relaxes by the river.'],
    ['I stay calm and focus on the next match', 'Ines stays calm and focuses on the next match.'],
    ['I usually bring a sketchbook and just draw on the train', 'Ines usually brings a sketchbook and just draws on the train.'],
    ['I pack my needles and knit on the bus', 'Ines packs Ines\'s needles and knits on the bus.'],
    ['I often walk the dog and then cook dinner for the kids', 'Ines often walks the dog and then cooks dinner for the kids.'],
    ['I love my garden and spend every Sunday in it', "Ines loves Ines's garden and spends every Sunday in it."],
    ['I have lived here for years and have seen the town change', 'Ines has lived here for years and has seen the town change.'],
    ["I'm really into ceramics and want a wheel of my own", "Ines is really into ceramics and wants a wheel of Ines's own."],
  ])('%s', (clause, expected) => {
    expect(rewrite(clause)).toBe(expected);
  });

  it.each([
    // an infinitive's verbs, another subject, a connective, a negation, a noun at the end, a participle after "I'm"
    ['I want to learn Dutch and teach it later', 'Ines wants to learn Dutch and teach it later.'],
    ['I think that you paint and sing well', 'Ines thinks that you paint and sing well.'],
    ['I cycle to work and my partner drives', "Ines cycles to work and Ines's partner drives."],
    ['I do not smoke and drink', 'Ines does not smoke and drink.'],
    ['I love lemon cake and drink', 'Ines loves lemon cake and drink.'],
    ["I'm going to the market and buy fresh bread", 'Ines is going to the market and buy fresh bread.'],
    ['I bought a kayak and paddle it on weekends', 'Ines bought a kayak and paddle it on weekends.'],
    // after "to", a modal or "gonna" the second verb is theirs; a word before another word may be a noun
    ["I'm eager to train hard and make the team", "Ines is eager to train hard and make the team."],
    ['I hope my pottery can sell well and help the shelter', "Ines hopes Ines's pottery can sell well and help the shelter."],
    ["I'm gonna stay calm and keep going", 'Ines is gonna stay calm and keep going.'],
    ['I like the harbour and love songs of the fishermen', 'Ines likes the harbour and love songs of the fishermen.'],
  ])('leaves "%s" alone', (clause, expected) => {
    expect(rewrite(clause)).toBe(expected);
  });
});
