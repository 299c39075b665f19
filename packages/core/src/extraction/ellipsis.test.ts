import { describe, expect, it } from 'vitest';
import { lastPluralNoun, restoreCountedNoun } from './ellipsis';
import { extractAt } from './test-helpers';

const { contents } = extractAt(new Date('2024-03-01T12:00:00Z'));

describe('restoreCountedNoun: a count that leaves out what it counts', () => {
  it.each([
    ["I've knitted three so far", "I've been knitting scarves lately.", "I've knitted three scarves so far"],
    ["I've got 120 of them now", "I've been collecting vinyl records, and", "I've got 120 vinyl records now"],
    ["I've baked nine already", 'Do you think I should set a goal for a certain number of loaves per month?', "I've baked nine loaves already"],
    ['I have planted twelve this spring', 'My garden has lots of tulips.', 'I have planted twelve tulips this spring'],
    ["I've managed to read 14 since January", 'I joined a club for mystery novels.', "I've managed to read 14 mystery novels since January"],
    ['I have two', 'Do you like board games?', 'I have two board games'],
    ["I've finished three so far", "I've been reading mystery novels.", "I've finished three mystery novels so far"],
  ])('%s (after "%s")', (clause, earlier, expected) => {
    expect(restoreCountedNoun(clause, earlier)).toBe(expected);
  });

  it.each([
    // the number has its own noun
    ["I've knitted three hats so far", "I've been knitting scarves lately."],
    // an age, a time, a score: not a count of the thing before
    ['I turned 30 this year', 'My friends threw me parties.'],
    ['I am 40 now', 'My kids keep asking about birthdays.'],
    ['I woke up at 6 today', 'I have two dogs.'],
    ['I finished 2nd this season', 'I ran three races.'],
    ['I scored 12 this season', 'I love basketball games.'],
    // "one" stands for a thing ("I have one already"), and a plural after it would be wrong
    ['I have one already', "I've been looking at laptops and tablets."],
    ['I have 1 already', "I've been looking at laptops and tablets."],
    // the last noun said before is not the plural one
    ["I've got 13 of them now", "I'm looking for tips on cleaning my figure collection."],
    // thousands and decimals are one number with its own noun
    ['I redeemed 2,000 points last month', 'I love gift cards.'],
    ['I averaged 62.5 seconds', 'I tried new tires.'],
    // nothing plural said before
    ["I've written four so far", 'I started a journal.'],
    // not the speaker's own count
    ['She has three now', 'My sister collects stamps.'],
  ])('leaves %s (after "%s")', (clause, earlier) => {
    expect(restoreCountedNoun(clause, earlier)).toBe(clause);
  });

  it('takes the last plural noun, with one noun or adjective in front that is not an -ing form', () => {
    expect(lastPluralNoun("I've been collecting vinyl records and old posters")).toBe('old posters');
    expect(lastPluralNoun("I've been enjoying knitting scarves")).toBe('scarves');
    expect(lastPluralNoun('I have a big collection of rare vinyl records.')).toBe('vinyl records');
    expect(lastPluralNoun('My sister and I went out.')).toBeNull();
    expect(lastPluralNoun('')).toBeNull();
  });
});

describe('the extractor keeps what a count counts', () => {
  it('from an earlier sentence or clause of the same message', () => {
    expect(contents("I've been knitting scarves lately. I've knitted three so far, and I'm hoping to keep going.")).toContain(
      'The user has knitted three scarves so far.',
    );
    expect(contents("I've been collecting vinyl records, and I've got 120 of them now.")).toContain('The user has 120 vinyl records now.');
  });

  it('but not across messages, and not when the count has its own noun', () => {
    expect(contents("I've been knitting scarves lately.", "I've knitted three so far.")).toContain('The user has knitted three so far.');
    expect(contents("I've been knitting scarves lately. I've knitted three hats so far.")).toContain('The user has knitted three hats so far.');
  });
});
