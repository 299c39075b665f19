import { describe, expect, it } from 'vitest';
import { formatDay, hasRelativeDate, resolveRelativeDates } from './dates';

// Monday, 8 May 2023, 13:56 UTC (LoCoMo conv-26 session 1)
const at = new Date('2023-05-08T13:56:00Z');
const r = (s: string) => resolveRelativeDates(s, at);

describe('resolveRelativeDates', () => {
  it('writes a day given in numbers after a preposition of time in words, month first', () => {
    expect(r('I saw the exhibition on 4/22 with my aunt')).toBe('I saw the exhibition on 22 April 2023 with my aunt');
    // the year nearest the conversation's date: 8 May 2023 is nearer December 2022 than December 2023
    expect(r('we met on 12/30')).toBe('we met on 30 December 2022');
    expect(r('my lease ends on 6/1/2024')).toBe('my lease ends on 1 June 2024');
    expect(r('the deadline is by 5/3/24')).toBe('the deadline is by 3 May 2024');
    // "since" looks back, "until" and "by" forward
    expect(r("I've been swimming since 5/20")).toBe("I've been swimming since 20 May 2022");
    expect(r("I'm away until 5/2")).toBe("I'm away until 2 May 2024");
    // the first number cannot be a month: day first
    expect(r('I arrived on 17/4')).toBe('I arrived on 17 April 2023');
  });

  it('leaves numbers that are no day as they are', () => {
    for (const s of ['I ate 1/2 of the cake', 'aim for a 60/40 split', 'support on 24/7 call', 'on 2/30 nothing happened', 'on 13/13', 'I ran on 2/3 of the days']) expect(r(s)).toBe(s);
  });

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

  it('writes a day that is the subject of its clause as a date, without "on"', () => {
    expect(r("Tomorrow's gonna be a long night at the bakery")).toBe('9 May 2023 is gonna be a long night at the bakery');
    expect(r('Today is my last shift before the holidays')).toBe('8 May 2023 is my last shift before the holidays');
    expect(r('Yesterday was the first warm day, so I biked to work')).toBe('7 May 2023 was the first warm day, so I biked to work');
    expect(r("I think tomorrow's the day the results come out")).toBe('I think 9 May 2023 is the day the results come out');
    // elsewhere the day stays a time: "what I did today was fun" is not "8 May 2023 was fun"
    expect(r('what I did today was fun')).toBe('what I did on 8 May 2023 was fun');
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
