import { describe, expect, it } from 'vitest';
import { resolveRelativeDates } from './dates';
import { extractMemories } from './builtin';
import { easterSunday } from './holidays';

// Sunday, 2 April 2023
const spring = new Date('2023-04-02T22:15:00Z');
const r = (s: string, at = spring) => resolveRelativeDates(s, at);

describe('a holiday said as a day', () => {
  it('keeps its name and gains the day it fell on', () => {
    expect(r("The user volunteered at the dinner back on Valentine's Day.")).toBe("The user volunteered at the dinner back on Valentine's Day (14 February 2023).");
    expect(r('On Christmas Eve the user sang carols.')).toBe('On Christmas Eve (24 December 2022) the user sang carols.');
    expect(r("The user ran a race on New Year's Day.")).toBe("The user ran a race on New Year's Day (1 January 2023).");
    expect(r("The user wore green for St. Patrick's Day and went out for Valentines Day.")).toBe(
      "The user wore green for St. Patrick's Day (17 March 2023) and went out for Valentines Day (14 February 2023).",
    );
    // a part of the day or the weekend goes with it
    expect(r('The user opened presents on Christmas morning, then slept.')).toBe('The user opened presents on Christmas morning (25 December 2022), then slept.');
    // the whole name, also when a bracket follows it
    expect(r('The user won at Scrabble on Christmas Day (in reply to the assistant).')).toBe(
      'The user won at Scrabble on Christmas Day (25 December 2022) (in reply to the assistant).',
    );
    expect(r('The user will paint eggs over Easter weekend.')).toBe('The user will paint eggs over Easter weekend (9 April 2023).');
  });

  it('takes the year the words and the tense point to', () => {
    // said on 7 December: a past statement means the last one, a plan the next one
    const winter = new Date('2026-12-07T10:00:00Z');
    expect(r("The user volunteered at the shelter on Valentine's Day.", winter)).toContain('(14 February 2026)');
    expect(r("The user will cook dinner for Valentine's Day.", winter)).toContain('(14 February 2027)');
    expect(r('The user is hosting the family for Christmas.', winter)).toContain('(25 December 2026)');
    expect(r('The user was at home on Christmas Eve.', winter)).toContain('(24 December 2025)');
    expect(r('The user has been vegan since Halloween.', winter)).toContain('(31 October 2026)');
    expect(r('The user has to finish the quilt by Christmas.', winter)).toContain('(25 December 2026)');
    // "last" / "next", a written year, a year said after it
    expect(r('last Christmas the user got a bike')).toBe('last Christmas (25 December 2022) the user got a bike');
    expect(r('next Easter the user will go')).toBe('next Easter (9 April 2023) the user will go');
    expect(r('next Easter', new Date('2023-04-09T12:00:00Z'))).toBe('next Easter (31 March 2024)');
    expect(r('for Halloween 2021 the user was a pirate')).toBe('for Halloween 2021 (31 October 2021) the user was a pirate');
    expect(r('The user is hosting for Christmas this year.')).toBe('The user is hosting for Christmas (25 December 2023) in 2023.');
    // the tense of the holiday's own clause first
    expect(r('The user is thinking of a game night with Scattergories, which the family played on New Year\'s Eve.', new Date('2024-01-10T10:00:00Z'))).toContain(
      '(31 December 2023)',
    );
    expect(r("The user played chess on New Year's Eve and will play again on Valentine's Day.", new Date('2024-01-10T10:00:00Z'))).toBe(
      "The user played chess on New Year's Eve (31 December 2023) and will play again on Valentine's Day (14 February 2024).",
    );
    // a question about the past, a plan said with an adjective
    expect(r("How did you find playing Codenames on New Year's Eve?", new Date('2023-12-20T10:00:00Z'))).toContain('(31 December 2022)');
    expect(r('The user is excited to decorate the flat for Halloween.', new Date('2023-12-20T10:00:00Z'))).toContain('(31 October 2024)');
    // otherwise the nearest
    expect(r("The user needs a gift for Valentine's Day.", new Date('2023-02-01T10:00:00Z'))).toContain('(14 February 2023)');
  });

  it('leaves a holiday that names a thing, comes back every year, or falls on other days elsewhere', () => {
    for (const s of [
      'The user bought Christmas gifts.',
      'The user studied before Christmas break.',
      'The user got the phone case around Christmas time.',
      'The user went to the Halloween party.',
      'The user celebrated on Orthodox Easter.',
      "The user's birthday is on Christmas Eve.",
      "The user always goes out on New Year's Eve.",
      'The user visited family for Thanksgiving.',
      "The user called the user's mom on Mother's Day.",
    ])
      expect(r(s)).toBe(s);
  });

  it('Easter Sunday by the Gregorian computus', () => {
    expect(['2019-04-21', '2023-04-09', '2024-03-31', '2025-04-20', '2038-04-25'].map((d) => d.slice(0, 4)).map((y) => easterSunday(Number(y)).toISOString().slice(0, 10))).toEqual([
      '2019-04-21',
      '2023-04-09',
      '2024-03-31',
      '2025-04-20',
      '2038-04-25',
    ]);
  });

  it('in a memory, through the extractor', () => {
    const m = extractMemories({
      messages: [{ role: 'user', content: 'I volunteered at the "Love is in the Air" fundraising dinner back on Valentine\'s Day, and it was a blast!' }],
      observedAt: spring,
    }).memories;
    expect(m.map((x) => x.content)).toContainEqual(expect.stringContaining("back on Valentine's Day (14 February 2023)"));
  });
});
