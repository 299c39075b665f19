/**
 * Relative time expressions resolved against the conversation's date (the source event's `observed_at`),
 * so a memory read months later still says when something happened:
 * "I went to a support group yesterday" said on 8 May 2023 → "… on 7 May 2023".
 *
 * Dates are computed in UTC from `observed_at` (a tenant who needs a local calendar day sends
 * `observed_at` with the user's offset already applied to the day they mean).
 *
 * | expression                                   | becomes                               |
 * |----------------------------------------------|---------------------------------------|
 * | as of now / as of today (the marker builtin.ts writes for "right now", "at the moment") | as of 8 May 2023 |
 * | today, this morning/afternoon/evening, tonight | on 8 May 2023                        |
 * | today / tomorrow … as a clause's subject ("Today is …", "Tomorrow's gonna be …") | 8 May 2023 is … / 9 May 2023 is … |
 * | yesterday, last night                        | on 7 May 2023                          |
 * | the day before yesterday                     | on 6 May 2023                          |
 * | tomorrow                                     | on 9 May 2023                          |
 * | N days ago (N ≤ 31, digits or words)         | on <date − N>                          |
 * | a few / a couple of / several days ago       | a few days before 8 May 2023           |
 * | last week / a week ago / N weeks ago         | the week before 8 May 2023 / around <date − 7N> |
 * | this week / next week                        | the week of 8 May 2023 / the week after 8 May 2023 |
 * | last weekend / this weekend / next weekend   | the weekend before / of / after 8 May 2023 |
 * | last <weekday> (also "last Fri")             | on Friday, 5 May 2023 (the latest one before the date) |
 * | next/this/on <weekday> said of the future    | "next"/"this": on <the next one after the date> |
 * | last month / this month / next month / N months ago | in April 2023 / in May 2023 / in June 2023 / in <month> |
 * | last year / this year / next year / N years ago | in 2022 / in 2023 / in 2024 / in <year − N> |
 * | last summer/winter/spring/fall/autumn        | in summer 2022 (the latest such season that ended before the date) |
 * | on / since / by / until / before / after / from 5/2 (or 5/2/2023) | on 2 May 2023 (month first; the year nearest the date, before it after "since", after it after "by"/"until") |
 * | on / for / since / last … Valentine's Day, Halloween, Christmas, Easter … | on Valentine's Day (14 February 2023) (holidays.ts) |
 */

import { HOLIDAY, holidayDay } from './holidays';

const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const WEEKDAY_ABBR: Record<string, number> = {
  sun: 0, sunday: 0, mon: 1, monday: 1, tue: 2, tues: 2, tuesday: 2, wed: 3, wednesday: 3,
  thu: 4, thur: 4, thurs: 4, thursday: 4, fri: 5, friday: 5, sat: 6, saturday: 6,
};
const NUMBER_WORDS: Record<string, number> = {
  a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, twenty: 20, thirty: 30,
};

export function formatDay(d: Date): string {
  return `${d.getUTCDate()} ${MONTH_NAMES[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

const addDays = (d: Date, n: number) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + n));
const monthOffset = (d: Date, n: number) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 1));
const monthLabel = (d: Date) => `${MONTH_NAMES[d.getUTCMonth()]} ${d.getUTCFullYear()}`;

function num(word: string): number | null {
  if (/^\d+$/.test(word)) return Number(word);
  return NUMBER_WORDS[word.toLowerCase()] ?? null;
}

interface Rule {
  re: RegExp;
  /** `text`: the whole text the expression is in. */
  to: (m: RegExpExecArray, d: Date, text: string) => string | null;
}

const NUM = String.raw`(\d{1,2}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|twenty|thirty)`;
// a full weekday name never takes the dot after it (that dot ends the sentence); an abbreviation may ("Fri.")
const WD = String.raw`(sunday|monday|tuesday|wednesday|thursday|friday|saturday|(?:sun|mon|tues?|wed|thur?s?|fri|sat)(?![a-z])\.?)`;

function weekdayBefore(d: Date, target: number): Date {
  let back = (d.getUTCDay() - target + 7) % 7;
  if (back === 0) back = 7;
  return addDays(d, -back);
}

function weekdayAfter(d: Date, target: number): Date {
  let fwd = (target - d.getUTCDay() + 7) % 7;
  if (fwd === 0) fwd = 7;
  return addDays(d, fwd);
}

const onDay = (d: Date) => `on ${WEEKDAYS[d.getUTCDay()]}, ${formatDay(d)}`;

/** The day a one-word day name means. */
const DAY_WORD_OFFSET: Record<string, number> = { yesterday: -1, today: 0, tonight: 0, tomorrow: 1 };

/** Ordered: longer expressions first, so "the day before yesterday" is not read as "yesterday". */
const RULES: Rule[] = [
  // the day as the subject, at a clause's start: "Tomorrow's gonna be a big night", "Today is my birthday" → "9 May
  // 2023 is …" (not "On 9 May 2023's gonna be …"); "'s" is "is" only before a word a possessive's noun cannot be
  // ("gonna", "the", "so" …): "tomorrow's game" is left to the rules below
  {
    re: /(?<=^|[,;:.!?]\s*|\b(?:that|and|but|because|since|so|knows?|thinks?|hopes?|guess|believes?)\s)(yesterday|today|tonight|tomorrow)(?:['’]s(?=\s+(?:gonna|going|been|a|an|the|my|our|so|really|finally|just|not|another|supposed|also|definitely|all)\b)|\s+(is|was|will be|would be|has been)\b)/gi,
    to: (m, d) => `${formatDay(addDays(d, DAY_WORD_OFFSET[m[1].toLowerCase()]))} ${m[2] ?? (m[1].toLowerCase() === 'yesterday' ? 'was' : 'is')}`,
  },
  { re: /\bthe day before yesterday\b/gi, to: (_m, d) => `on ${formatDay(addDays(d, -2))}` },
  { re: /\b(?:yesterday|last night)\b/gi, to: (_m, d) => `on ${formatDay(addDays(d, -1))}` },
  { re: /\bas of (?:now|today|right now)\b/gi, to: (_m, d) => `as of ${formatDay(d)}` },
  // "today's world", "tonight's game": a possessive is not a date
  { re: /\b(?:today|tonight|this (?:morning|afternoon|evening))\b(?!['’]s\b)/gi, to: (_m, d) => `on ${formatDay(d)}` },
  { re: /\btomorrow\b/gi, to: (_m, d) => `on ${formatDay(addDays(d, 1))}` },
  { re: /\b(?:a few|a couple of|a couple|several|few) days ago\b/gi, to: (_m, d) => `a few days before ${formatDay(d)}` },
  {
    re: new RegExp(String.raw`\b${NUM} days? ago\b`, 'gi'),
    to: (m, d) => {
      const n = num(m[1]);
      return n !== null && n <= 31 ? `on ${formatDay(addDays(d, -n))}` : null;
    },
  },
  { re: /\b(?:last|past) week\b/gi, to: (_m, d) => `the week before ${formatDay(d)}` },
  {
    re: new RegExp(String.raw`\b${NUM} weeks? ago\b`, 'gi'),
    to: (m, d) => {
      const n = num(m[1]);
      return n !== null && n <= 12 ? `around ${formatDay(addDays(d, -7 * n))}` : null;
    },
  },
  { re: /\bthis week\b/gi, to: (_m, d) => `the week of ${formatDay(d)}` },
  { re: /\bnext week\b/gi, to: (_m, d) => `the week after ${formatDay(d)}` },
  { re: /\blast weekend\b/gi, to: (_m, d) => `the weekend before ${formatDay(d)}` },
  { re: /\bthis weekend\b/gi, to: (_m, d) => `the weekend of ${formatDay(d)}` },
  { re: /\bnext weekend\b/gi, to: (_m, d) => `the weekend after ${formatDay(d)}` },
  { re: new RegExp(String.raw`\blast ${WD}(?![a-z])`, 'gi'), to: (m, d) => onDay(weekdayBefore(d, WEEKDAY_ABBR[m[1].toLowerCase().replace('.', '')])) },
  { re: new RegExp(String.raw`\b(?:next|this coming|this) ${WD}(?![a-z])`, 'gi'), to: (m, d) => onDay(weekdayAfter(d, WEEKDAY_ABBR[m[1].toLowerCase().replace('.', '')])) },
  { re: /\blast month\b/gi, to: (_m, d) => `in ${monthLabel(monthOffset(d, -1))}` },
  { re: /\bthis month\b/gi, to: (_m, d) => `in ${monthLabel(d)}` },
  { re: /\bnext month\b/gi, to: (_m, d) => `in ${monthLabel(monthOffset(d, 1))}` },
  {
    re: new RegExp(String.raw`\b${NUM} months? ago\b`, 'gi'),
    to: (m, d) => {
      const n = num(m[1]);
      return n !== null && n <= 24 ? `in ${monthLabel(monthOffset(d, -n))}` : null;
    },
  },
  { re: /\blast year\b/gi, to: (_m, d) => `in ${d.getUTCFullYear() - 1}` },
  { re: /\bthis year\b/gi, to: (_m, d) => `in ${d.getUTCFullYear()}` },
  { re: /\bnext year\b/gi, to: (_m, d) => `in ${d.getUTCFullYear() + 1}` },
  {
    re: new RegExp(String.raw`\b${NUM} years? ago\b`, 'gi'),
    to: (m, d) => {
      const n = num(m[1]);
      return n !== null && n <= 80 ? `in ${d.getUTCFullYear() - n}` : null;
    },
  },
  { re: /\blast (summer|winter|spring|fall|autumn)\b/gi, to: (m, d) => seasonBefore(m[1], d) },
  // "on 2/15", "since 3/27", "by 12/1/2023": a day written in numbers after a preposition of time
  { re: /\b(on|since|by|until|till|before|after|from) (\d{1,2})\/(\d{1,2})(?:\/(\d{4}|\d{2}))?(?![\d/])(?! of\b)/gi, to: (m, d) => numericDay(m, d) },
  // "back on Valentine's Day" → "back on Valentine's Day (14 February 2023)" (holidays.ts)
  {
    re: HOLIDAY,
    to: (m, d, text) => {
      const date = holidayDay(m, d, text);
      return date ? `${m[0]} (${formatDay(date)})` : null;
    },
  },
];

/**
 * A day written month first ("2/15", as in American English), or day first when the first number cannot be a
 * month ("15/2"); without a year, the year that puts it nearest the conversation's date ("on 12/20" said in January
 * is the December before), the latest one not after it after "since" ("since 3/27" said on 3 March is last March) and
 * the first one not before it after "by", "until" or "till". "24/7" is no date; neither is a day its month does not have, nor a fraction ("on 2/3 of the days").
 */
function numericDay(m: RegExpExecArray, d: Date): string | null {
  const [a, b] = [Number(m[2]), Number(m[3])];
  if (a === 24 && b === 7) return null;
  const [month, day] = a <= 12 ? [a, b] : [b, a];
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  const at = (y: number) => Date.UTC(y, month - 1, day);
  const valid = (y: number) => new Date(at(y)).getUTCMonth() === month - 1;
  let year: number;
  if (m[4]) year = m[4].length === 2 ? 2000 + Number(m[4]) : Number(m[4]);
  else {
    const y = d.getUTCFullYear();
    const prep = m[1].toLowerCase();
    // "since" looks back, "by" and "until" forward; the others take the nearest
    const years = [y - 1, y, y + 1].filter((c) => valid(c) && (prep !== 'since' || at(c) <= d.getTime()) && (!/^(?:by|until|till)$/.test(prep) || at(c) >= d.getTime()));
    if (years.length === 0) return null;
    year = years.reduce((best, c) => (Math.abs(at(c) - d.getTime()) < Math.abs(at(best) - d.getTime()) ? c : best));
  }
  if (!valid(year)) return null;
  return `${m[1]} ${formatDay(new Date(at(year)))}`;
}

function seasonBefore(season: string, d: Date): string {
  const s = season.toLowerCase();
  const month = d.getUTCMonth(); // 0-based
  const year = d.getUTCFullYear();
  switch (s) {
    case 'summer': // Jun–Aug
      return `in summer ${month >= 8 ? year : year - 1}`;
    case 'spring': // Mar–May
      return `in spring ${month >= 5 ? year : year - 1}`;
    case 'fall':
    case 'autumn': // Sep–Nov
      return `in ${s} ${month >= 11 ? year : year - 1}`;
    default: {
      // winter Dec–Feb: the one that ended before the date
      const endYear = month >= 2 ? year : year - 1;
      return `in the winter of ${endYear - 1}–${endYear}`;
    }
  }
}

/** Keeps a leading capital when the replaced expression started a sentence. */
function matchCase(original: string, replacement: string): string {
  return /^[A-Z]/.test(original) ? replacement.charAt(0).toUpperCase() + replacement.slice(1) : replacement;
}

/** Replaces every relative time expression in `text` with its date as of `observedAt`. */
export function resolveRelativeDates(text: string, observedAt: Date): string {
  if (Number.isNaN(observedAt.getTime())) return text;
  const day = new Date(Date.UTC(observedAt.getUTCFullYear(), observedAt.getUTCMonth(), observedAt.getUTCDate()));
  let out = text;
  for (const rule of RULES) {
    rule.re.lastIndex = 0;
    const before = out;
    out = out.replace(rule.re, (...args) => {
      const m = Object.assign(args.slice(0, -2), { index: args[args.length - 2] as number }) as unknown as RegExpExecArray;
      const to = rule.to(m, day, before);
      return to === null ? m[0] : matchCase(m[0], to);
    });
  }
  return out;
}

/** True when the text has an expression `resolveRelativeDates` would change. */
export function hasRelativeDate(text: string): boolean {
  return RULES.some((r) => {
    r.re.lastIndex = 0;
    return r.re.test(text);
  });
}
