/**
 * A holiday said instead of a date keeps its name and gains the day it fell on, as the conversation's date
 * places it: "the fundraising dinner I volunteered at back on Valentine's Day", said on 2 April 2023 →
 * "… back on Valentine's Day (14 February 2023)". A question asks "When did I volunteer …?" and expects the day;
 * a question about February, or about the weeks before a date, finds it too (retrieval/when.ts reads the date).
 *
 * Only holidays whose day is the same wherever they are kept (by the Gregorian calendar), and Easter (its Western
 * date; "Orthodox Easter" is left as said): New Year's Day and Eve, Valentine's Day, St. Patrick's Day, Halloween,
 * Christmas Eve, Christmas (Day), Boxing Day, Easter (Sunday). Thanksgiving, Mother's Day, Father's Day and
 * national days fall on other days in other countries, so they are left as said.
 *
 * The holiday must follow a preposition of time or "last / this / next" ("on Christmas Eve", "for Halloween",
 * "since New Year's Day", "last Easter"), optionally with a part of the day after it ("on Christmas morning"); a
 * holiday that names a thing or a stretch of time ("for Christmas gifts", "before Christmas break", "around
 * Christmas time", "the Halloween party") is left alone, and so is a holiday that comes back every year ("My
 * birthday is on Christmas Eve", "we always go out on New Year's Eve"). The year: one written after it
 * ("Christmas 2021"); else the latest before the conversation's day after "last" and the first after it after
 * "next"; the latest not after it after "since" and the first not before it
 * after "by", "until" and "till"; a year said after it ("for Christmas this year"); the first not before the
 * conversation's day when the text speaks of a plan ("will", "going to", "planning", "can't wait", …), the latest
 * not after it when it tells of the past ("volunteered", "went", "was"; not "is excited"), read first in the
 * holiday's own clause ("thinking of a game night, like the Scattergories we played on New Year's Eve": the
 * past); otherwise the one nearest the conversation's day (the earlier when two are as near).
 */
import { isPastForm } from './third-person';

type Day = [month: number, day: number];

/** Month (0-based) and day of the holidays with a fixed day, by their lower-case names without punctuation. */
const FIXED: Record<string, Day> = {
  "new year's day": [0, 1],
  "valentine's day": [1, 14],
  "st patrick's day": [2, 17],
  "saint patrick's day": [2, 17],
  halloween: [9, 31],
  'christmas eve': [11, 24],
  christmas: [11, 25],
  'christmas day': [11, 25],
  'boxing day': [11, 26],
  "new year's eve": [11, 31],
};

const NAMES = String.raw`new year['’]s (?:day|eve)|valentine['’]?s day|(?:st\.?|saint) patrick['’]s day|halloween|christmas(?: eve| day)?|boxing day|easter(?: sunday)?`;
const PART_OF_DAY = String.raw`(?: (?:morning|afternoon|evening|night|dinner|lunch|brunch|weekend))?`;
/** What a holiday names when it is no day: "Christmas gifts", "Easter break", "Halloween costumes". */
const THING_AFTER = String.raw`(?! (?:time|times|break|holidays?|season|vacation|party|parties|tree|trees|shopping|cards?|gifts?|presents?|decorations?|lights|markets?|movies?|songs?|carols?|sweaters?|jumpers?|costumes?|candy|cookies|eggs?|bunny|baskets?|egg hunt|sales?|spirit|music|menu)\b)`;
/**
 * A holiday said as a day: [1] the word before it, [2] its name, [3] a year written after it ("Christmas 2021") or
 * [4] a year said after it, left in the text ("for Christmas in 2023": dates.ts wrote "this year" so).
 */
export const HOLIDAY = new RegExp(
  String.raw`(?<!\b(?:is|are|falls?) )\b(on|at|for|over|since|before|after|until|till|by|around|during|last|this|next|this past|this coming) ((?<!orthodox )(?:${NAMES}))${PART_OF_DAY}(?:,? (\d{4}))?${THING_AFTER}(?![\w'’-])(?! \(\d)(?=(?:,? in (\d{4})\b)?)`,
  'gi',
);
/** A habit: every year's holiday is meant, not one day. */
const HABIT = /\b(?:always|usually|normally|typically|traditionally|annually|every year|each year|every (?:christmas|easter|halloween)|tend to)\b/i;
/** A plan or a wish: the holiday to come is meant. */
const FUTURE =
  /\b(?:will|shall|['’]ll|might|may|going to|gonna|about to|plans?|planning|want(?:s|ed)? to|wanting to|needs? to|hopes? to|hoping to|would like to|thinking (?:of|about)|excited (?:to|for|about)|getting ready|preparing|can['’]t wait|looking forward|is (?:hosting|having|going|travell?ing|flying|visiting))\b/i;

/** Western Easter Sunday of a year (the anonymous Gregorian computus). */
export function easterSunday(year: number): Date {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return new Date(Date.UTC(year, month - 1, day));
}

/** The holiday's day in a year, or null for a name that is none of them. */
function holidayIn(name: string, year: number): Date | null {
  const key = name.toLowerCase().replace(/’/g, "'").replace(/^st\. /, 'st ').replace(/^valentines day$/, "valentine's day");
  if (key.startsWith('easter')) return easterSunday(year);
  const fixed = FIXED[key];
  return fixed ? new Date(Date.UTC(year, fixed[0], fixed[1])) : null;
}

/** Words after which an "-ed" word is an adjective: "is excited", "feel tired", "so stressed". */
const BEFORE_ADJECTIVE = new Set(['is', 'are', 'am', 'be', 'been', 'being', 'was', 'were', 'feel', 'feels', 'felt', 'get', 'gets', 'so', 'very', 'really', 'too', 'more', 'most', 'quite', 'pretty']);

/** A verb in the past tense in the text: "The user volunteered at …", "we went …". */
function saidOfThePast(text: string): boolean {
  const words = text.toLowerCase().match(/[a-z']+/g) ?? [];
  return words.some((w, i) => (w === 'was' || w === 'were' || w === 'did' || w === 'had' || isPastForm(w)) && !BEFORE_ADJECTIVE.has(words[i - 1] ?? ''));
}

type Tense = 'past' | 'future' | 'unknown';

/** Which year's holiday the words before it mean, as seen from `day` (a UTC midnight), told with `tense`. */
function pick(word: string, name: string, day: Date, tense: Tense): Date | null {
  const y = day.getUTCFullYear();
  const years = [y - 1, y, y + 1].map((c) => holidayIn(name, c)).filter((d): d is Date => d !== null);
  const t = day.getTime();
  const w = word.toLowerCase();
  if (w === 'last' || w === 'this past') return years.filter((d) => d.getTime() < t).at(-1) ?? null;
  if (w === 'next' || w === 'this coming') return years.find((d) => d.getTime() > t) ?? null;
  if (w === 'since' || (tense === 'past' && w !== 'by' && w !== 'until' && w !== 'till')) return years.filter((d) => d.getTime() <= t).at(-1) ?? null;
  if (tense === 'future') return years.find((d) => d.getTime() >= t) ?? null;
  if (w === 'by' || w === 'until' || w === 'till') return years.find((d) => d.getTime() >= t) ?? null;
  // the nearest; on a tie the earlier one (said of what happened more often than of plans)
  return years.reduce<Date | null>((best, d) => (best === null || Math.abs(d.getTime() - t) < Math.abs(best.getTime() - t) ? d : best), null);
}

/** The day a holiday match of `HOLIDAY` in `text` means, as seen from `day` (a UTC midnight), or null. */
export function holidayDay(m: RegExpExecArray, day: Date, text: string): Date | null {
  const [, word, name, written, said] = m;
  const year = written ?? said;
  if (!year && HABIT.test(text)) return null;
  if (year) return holidayIn(name, Number(year));
  return pick(word, name, day, tenseOf(clauseBefore(text, m.index)) ?? tenseOf(text) ?? 'unknown');
}

/** Where the clause that holds the holiday opens: after the last comma, bracket, dash or relative word before it. */
const CLAUSE_OPENING = /.*(?:[,;:(]|\s[-–—]\s|\b(?:which|that|when|where|and|but|because|since|so)\b)/s;

/** The words from the opening of the holiday's clause up to the holiday. */
function clauseBefore(text: string, at: number): string {
  const before = text.slice(0, at);
  const opening = CLAUSE_OPENING.exec(before);
  return opening ? before.slice(opening[0].length) : before;
}

/** A plan's or the past's tense in `words`, or null when they show neither. */
function tenseOf(words: string): Tense | null {
  return FUTURE.test(words) ? 'future' : saidOfThePast(words) ? 'past' : null;
}
