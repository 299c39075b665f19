/**
 * A relative date in a question, read as days on the calendar (docs/evidence-layer.md): "What did I buy 10 days
 * ago?", "Who did I go with last Saturday?", "What did I cook a couple of days ago?". Counted from when the
 * question is asked (the retrieve's `reference_time`, else the time of the request), in UTC days, with a few
 * days' room that grows with the distance ("two months ago" is not to the day). Only the spans that name a day
 * or a few are read: "last month", "this year" or "recently" name a span in which things are also said about
 * earlier events, so they are left to the words and to recency. A calendar date with its year ("on 19 August,
 * 2023", "in May 2023") names days too (`calendarWindow`).
 */
import { analyze } from '../text/terms';

const DAY = 86_400_000;
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const COUNTS: Record<string, number> = {
  a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  'a couple of': 2, 'a few': 3,
};
const COUNT = String.raw`a couple of|a few|an?|one|two|three|four|five|six|seven|eight|nine|ten|\d{1,3}`;

const AGO = new RegExp(String.raw`\b(${COUNT}) (day|week|month)s? ago\b`, 'i');
const LAST_WEEKDAY = new RegExp(String.raw`\b(?:last|this past) (${WEEKDAYS.join('|')})\b`, 'i');
const LAST_WEEKEND = /\b(?:last|this past) weekend\b/i;
const YESTERDAY = /\b(?:the day before )?yesterday\b/i;

/** Days the span may be off by, either way, for a distance of `days`. */
const room = (days: number) => (days <= 7 ? 1 : days <= 31 ? Math.ceil(days / 10) + 1 : Math.ceil(days / 4));

export interface DateWindow {
  /** First instant in the window (ms, UTC midnight). */
  from: number;
  /** First instant after it. */
  to: number;
  /** The words of the query that named it. */
  phrase: string;
  /**
   * Whether the words that named it are also matched against what was said: a calendar date is also written in
   * memories ("… on 24 October 2023"), a relative date ("10 days ago") is not.
   */
  keepWords?: boolean;
}

/** The days a relative date in `query` names, counted from `askedAt` (ms); null when it names none. */
export function relativeWindow(query: string, askedAt: number): DateWindow | null {
  if (!Number.isFinite(askedAt)) return null;
  const today = Math.floor(askedAt / DAY) * DAY;
  const around = (daysBack: number, phrase: string, slack = room(daysBack)): DateWindow => ({
    from: today - (daysBack + slack) * DAY,
    to: today - (daysBack - slack - 1) * DAY,
    phrase,
  });
  const ago = AGO.exec(query);
  if (ago) {
    const n = COUNTS[ago[1].toLowerCase()] ?? Number(ago[1]);
    const unit = ago[2].toLowerCase();
    const days = n * (unit === 'day' ? 1 : unit === 'week' ? 7 : 30);
    if (days > 0) return around(days, ago[0]);
  }
  const weekday = LAST_WEEKDAY.exec(query);
  if (weekday) {
    const dow = new Date(today).getUTCDay();
    const back = (dow - WEEKDAYS.indexOf(weekday[1].toLowerCase()) + 7) % 7 || 7;
    return around(back, weekday[0], 1);
  }
  const weekend = LAST_WEEKEND.exec(query);
  if (weekend) {
    // the Saturday of the last weekend that has begun before today, from the Friday evening to the Monday
    const dow = new Date(today).getUTCDay();
    const back = (dow - 6 + 7) % 7 || 7;
    return { from: today - (back + 1) * DAY, to: today - (back - 3) * DAY, phrase: weekend[0] };
  }
  const yesterday = YESTERDAY.exec(query);
  if (yesterday) return around(yesterday[0].toLowerCase().startsWith('the day before') ? 2 : 1, yesterday[0]);
  return null;
}

const MONTHS = 'january february march april may june july august september october november december'.split(' ');
const MONTH = MONTHS.join('|');
/** "on 19 August, 2023", "19th of August 2023", "August 19th, 2023", "in August 2023" (month names in full). */
const DAY_MONTH_YEAR = new RegExp(String.raw`\b(?:(?:on|as of) )?(\d{1,2})(?:st|nd|rd|th)? (?:of )?(${MONTH}),? (\d{4})\b`, 'i');
const MONTH_DAY_YEAR = new RegExp(String.raw`\b(?:(?:on|as of) )?(${MONTH}) (\d{1,2})(?:st|nd|rd|th)?,? (\d{4})\b`, 'i');
const MONTH_YEAR = new RegExp(String.raw`\b(?:(?:in|during|as of) )?(${MONTH}),? (\d{4})\b`, 'i');

/**
 * The days a calendar date with its year in `query` names: the day, with a day's room either way for time zones
 * ("What did Jon say on 19 August, 2023?"), or the month ("What did Gina do in May 2023?"). Null when it names
 * none, or a day that does not exist. A month or a day without its year ("in December", "on 3 May") is left to
 * the words: which year it means, and whether it is when the thing happened or when it was said, is not known.
 */
export function calendarWindow(query: string): DateWindow | null {
  const day = (d: number, m: number, y: number, phrase: string): DateWindow | null => {
    const at = Date.UTC(y, m, d);
    if (new Date(at).getUTCDate() !== d) return null;
    return { from: at - DAY, to: at + 2 * DAY, phrase, keepWords: true };
  };
  const dmy = DAY_MONTH_YEAR.exec(query);
  if (dmy) return day(Number(dmy[1]), MONTHS.indexOf(dmy[2].toLowerCase()), Number(dmy[3]), dmy[0]);
  const mdy = MONTH_DAY_YEAR.exec(query);
  if (mdy) return day(Number(mdy[2]), MONTHS.indexOf(mdy[1].toLowerCase()), Number(mdy[3]), mdy[0]);
  const my = MONTH_YEAR.exec(query);
  if (my) {
    const m = MONTHS.indexOf(my[1].toLowerCase());
    const y = Number(my[2]);
    return { from: Date.UTC(y, m, 1), to: Date.UTC(y, m + 1, 1), phrase: my[0], keepWords: true };
  }
  return null;
}

/** The months as the stemmer writes them ("januari", "septemb"), in calendar order. */
const MONTH_STEMS = MONTHS.map((m) => analyze(m)[0]);
const STEMMED_DAY = new RegExp(String.raw`(?:^| )(\d{1,2}) (${MONTH_STEMS.join('|')}) ((?:19|20)\d\d)(?= |$)`, 'g');
const SAME_DAY = /(?:^| )(?:today|tonight)(?: |$)/;
const DAY_BEFORE = /(?:^| )yesterday(?: |$)/;

/**
 * Whether an item tells of something that happened on a day within the window, from its stems and when it was
 * said (ms): a memory writes the day into its text ("The user planted 12 new tomato saplings on 21 April 2023":
 * extraction resolves "today", "last Saturday"), a passage says "today" or "tonight" on that day or "yesterday"
 * the day after. A question that names the day ("What did I plant two weeks ago?") asks about what happened
 * then, whatever words each uses; what was merely said on those days may be about anything.
 */
export function tellsOfDayWithin(stems: string, said: number, window: { from: number; to: number }): boolean {
  const within = (at: number) => at >= window.from && at < window.to;
  if (SAME_DAY.test(stems) && within(said)) return true;
  if (DAY_BEFORE.test(stems) && within(said - DAY)) return true;
  for (const m of stems.matchAll(STEMMED_DAY)) {
    if (within(Date.UTC(Number(m[3]), MONTH_STEMS.indexOf(m[2]), Number(m[1])))) return true;
  }
  return false;
}

/** `query` without the words that named the window (they name a date, not what the item says). */
export function withoutPhrase(query: string, window: DateWindow | null): string {
  if (!window || window.keepWords) return query;
  return query.replace(window.phrase, ' ').replace(/\s+/g, ' ').trim();
}
