import { describe, expect, it } from 'vitest';
import { formatDay, hasRelativeDate, resolveRelativeDates } from './dates';

// Monday, 8 May 2023, 13:56 UTC (LoCoMo conv-26 session 1)
const at = new Date('2023-05-08T13:56:00Z');
const r = (s: string) => resolveRelativeDates(s, at);

describe('resolveRelativeDates', () => {
  it('resolves days around the conversation date', () => {
    expect(r('I went to a LGBTQ support group yesterday')).toBe('I went to a LGBTQ support group on 7 May 2023');
    expect(r('Yesterday I took my dogs to the beach')).toBe('On 7 May 2023 I took my dogs to the beach');
    expect(r('the day before yesterday I ran')).toBe('on 6 May 2023 I ran');
    expect(r('I ran a 5K today')).toBe('I ran a 5K on 8 May 2023');
    expect(r('my interview is tomorrow')).toBe('my interview is on 9 May 2023');
    expect(r('I moved three days ago')).toBe('I moved on 5 May 2023');
    expect(r('two days ago I hiked')).toBe('on 6 May 2023 I hiked');
    expect(r('a few days ago I hiked')).toBe('a few days before 8 May 2023 I hiked');
  });

  it('resolves weeks, weekdays and weekends', () => {
    expect(r('last week I painted')).toBe('the week before 8 May 2023 I painted');
    expect(r('my car broke down last Fri')).toBe('my car broke down on Friday, 5 May 2023');
    expect(r('I won last Saturday')).toBe('I won on Saturday, 6 May 2023');
    // the date is a Monday: "last Monday" is a week earlier, "next Monday" a week later
    expect(r('last Monday')).toBe('on Monday, 1 May 2023');
    expect(r('next Monday')).toBe('on Monday, 15 May 2023');
    expect(r('last weekend I joined a program')).toBe('the weekend before 8 May 2023 I joined a program');
    expect(r('two weeks ago')).toBe('around 24 April 2023');
    // the period after a full weekday name ends the sentence and stays
    expect(r('I won last Saturday.')).toBe('I won on Saturday, 6 May 2023.');
  });

  it('leaves a possessive "today\'s" alone', () => {
    expect(r("in today's economy I save more")).toBe("in today's economy I save more");
  });

  it('resolves the "as of now" suffix of present-time memories', () => {
    expect(r('The user has 3 cats (as of now).')).toBe('The user has 3 cats (as of 8 May 2023).');
  });

  it('resolves months, years and seasons', () => {
    expect(r('I painted that sunrise last year')).toBe('I painted that sunrise in 2022');
    expect(r('last month')).toBe('in April 2023');
    expect(r('next month')).toBe('in June 2023');
    expect(r('three months ago')).toBe('in February 2023');
    expect(r('five years ago')).toBe('in 2018');
    expect(r('last summer')).toBe('in summer 2022');
    expect(r('last winter')).toBe('in the winter of 2022–2023');
    expect(resolveRelativeDates('last summer', new Date('2023-10-01T00:00:00Z'))).toBe('in summer 2023');
  });

  it('crosses month and year boundaries', () => {
    const jan1 = new Date('2024-01-01T09:00:00Z');
    expect(resolveRelativeDates('yesterday', jan1)).toBe('on 31 December 2023');
    expect(resolveRelativeDates('last month', jan1)).toBe('in December 2023');
  });

  it('leaves text without relative dates alone', () => {
    expect(r('I live in Lisbon')).toBe('I live in Lisbon');
    expect(hasRelativeDate('I live in Lisbon')).toBe(false);
    expect(hasRelativeDate('I moved last year')).toBe(true);
    expect(r('forty days ago')).toBe('forty days ago');
  });

  it('formats days', () => {
    expect(formatDay(new Date('2023-05-07T23:59:00Z'))).toBe('7 May 2023');
  });
});
