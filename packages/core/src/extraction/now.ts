/**
 * Present time in a clause ("today", "just", "right now", "at the moment", "this morning", "currently"):
 * which clauses are momentary and dropped (`transient`), and how the others are anchored to the
 * conversation's date so that they still say when they were true when read months later.
 *
 * The cause: people tell an assistant what they did today or have right now while asking for something
 * ("I just finished The Nightingale today, can you suggest …"). Dropping every clause with a present-time
 * word lost those events and current values; keeping them without a date loses when they happened.
 *
 * | clause (norm, time words set aside)                              | outcome                                   |
 * |------------------------------------------------------------------|-------------------------------------------|
 * | a mood: "i am so tired (today)", "i feel sick (this morning)"   | transient                                  |
 * | whereabouts: "i am at the store", "i am on my way", "i am home"  | transient                                  |
 * | a bare activity: "i am cooking (dinner)", "i am going to the gym", "i am having pasta for dinner" | transient |
 * | a trivial "just": "i just woke up", "i just got home", "i just realized …" | transient                      |
 * | "i have a meeting / an exam / a headache" with no date to resolve | transient                                |
 * | a dated event: "I just finished The Nightingale today"           | "The user finished The Nightingale on 21 May 2023." ("just" dropped: the day says when) |
 * | a recent event: "I just got diagnosed with asthma"               | "The user just got diagnosed with asthma (as of 21 May 2023)." |
 * | a current value: "I have 3 sourdough starters right now"         | "The user has 3 sourdough starters (as of 21 May 2023)." ("right now" / "at the moment" / "atm" / "at present" replaced by the suffix; "currently", "these days" kept in the text) |
 * | a plan: "I'm volunteering at the shelter this weekend"           | "The user is volunteering at the shelter the weekend of 21 May 2023." |
 *
 * The suffix is written as "(as of now)" here and resolved by dates.ts with the other relative dates;
 * conflict detection (conflicts/claims.ts) ignores it when it compares claims.
 */
import { hasRelativeDate } from './dates';
import { PAST_MARKER, TRANSIENT_MOOD, TRANSIENT_STATE } from './lexicon';
import { AMBIGUOUS_PAST, isPastForm } from './third-person';

/** (norm) words that only say "at this time"; set aside before the mood/activity tests. */
const TIME_WORDS =
  /\b(?:right now|just now|at the moment|atm|rn|at present|as of (?:now|today)|at this point|for now|currently|these days|nowadays|today|tonight|this (?:morning|afternoon|evening)|later today|earlier today|for today)\b/g;

/** (norm) a state true now: the memory gets "(as of <date>)". */
const NOW_STATE = /\b(?:right now|at the moment|atm|rn|at present|as of (?:now|today)|at this point|currently|these days|nowadays|for now)\b/;
/** (raw) markers replaced by the suffix (the others stay in the text). */
const NOW_DROP = /,?\s*\b(?:right now|at the moment|atm|rn|at present|as of (?:now|today)|at this point(?: in time)?)\b,?/gi;
/** (norm) a day that dates.ts resolves to a calendar date. */
export const DAY_WORD = /\b(?:today|tonight|this (?:morning|afternoon|evening)|earlier today|yesterday|last night)\b/;

/** (norm) an activity in progress; momentary when at most two words follow it, or a meal does. */
const ACTIVITY =
  /^i am (?:(?:just|still|currently|about to be|busy) )*(?:cooking|eating|drinking|watching|driving|walking|sitting|waiting|making|having|going to|about to|heading|leaving|off to)\b(.*)$/;
const MEAL = /\bfor (?:lunch|dinner|breakfast|brunch|a snack)\b/;
/** (norm) "just" with nothing durable after it. */
const TRIVIAL_JUST =
  /^i (?:have )?just (?:woke|realized|realised|noticed|remembered|wanted|thought|wondered|saw your|read your)\b|^i (?:have )?just (?:got|gotten|arrived|came|left|ate|had|finished) ?(?:home|back|up|in|out|here|there|work|off work|from work|school|lunch|dinner|breakfast|a snack|coffee|my (?:shift|lunch|dinner|breakfast|workout))?$/;
/** (norm) appointments and ailments: momentary unless a date can be resolved ("… tomorrow"). */
const HAVE_APPOINTMENT = /^i (?:have|have got|got) (?:a|an) (?:[\w']+ ){0,2}(?:meeting|appointment|call|exam|test|interview|deadline|date|flight)\b/;
/** (norm) a date written out: "on 12 june", "in march", "on friday", "6/14". */
const CALENDAR_DATE =
  /\b(?:(?:on|in|by|for|before|after|until) (?:the )?(?:\d{1,2}(?:st|nd|rd|th)? (?:of )?)?(?:january|february|march|april|may|june|july|august|september|october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|\d{1,2}\/\d{1,2}(?:\/\d{2,4})?)\b/;
const HAVE_AILMENT = /^i (?:have|have got|got) (?:a|an) (?:headache|cold|fever|hangover|stomach ache|sore throat)\b/;
/** (norm) "i just <past verb>" / "i have just <participle>" ("i just hope …" is not an event). */
const JUST_EVENT = /^i (?:have |had )?just (?:(?:recently|finally|officially|about) )?(\w+)/;
const isJustEvent = (norm: string) => {
  const m = JUST_EVENT.exec(norm);
  return m !== null && (isPastForm(m[1]) || AMBIGUOUS_PAST.has(m[1]) || m[1] === 'been');
};

function words(s: string): number {
  const t = s.trim();
  return t ? t.split(/\s+/).length : 0;
}

/** True when a first-person clause (norm) only says how the user is or what they are doing at this moment. */
export function isMomentary(norm: string): boolean {
  const bare = norm.replace(TIME_WORDS, ' ').replace(/\s+/g, ' ').trim();
  if (TRANSIENT_MOOD.test(bare) || TRANSIENT_STATE.test(bare) || TRIVIAL_JUST.test(bare) || HAVE_AILMENT.test(bare)) return true;
  const activity = ACTIVITY.exec(bare);
  const what = activity ? activity[1].replace(/^\s*(?:to|for|out|off|into|on|at)\b/, '') : '';
  if (activity && (words(what) <= 2 || MEAL.test(what))) return true;
  return HAVE_APPOINTMENT.test(bare) && !hasRelativeDate(norm) && !CALENDAR_DATE.test(norm);
}

/**
 * The clause as written (`text`) with its present-time words adjusted, and whether the memory gets
 * "(as of <date>)"; `norm` is the normalised clause with any leading time phrase.
 */
export function anchorNow(text: string, norm: string): { text: string; asOf: boolean } {
  let out = text;
  let asOf = false;
  if (NOW_STATE.test(norm)) {
    out = out.replace(NOW_DROP, ' ').replace(/\s+([,.!?])/g, '$1').replace(/\s+/g, ' ').trim();
    asOf = true;
  }
  if (isJustEvent(norm.replace(/^(?:today|tonight|this (?:morning|afternoon|evening)|earlier today),? /, ''))) {
    // the day it happened is named: "just" adds nothing; another time ("last month") says when;
    // otherwise the conversation's date says "by when"
    if (DAY_WORD.test(norm)) out = out.replace(/\bjust\s+/i, '');
    else if (!hasRelativeDate(norm) && !PAST_MARKER.test(norm)) asOf = true;
  }
  return { text: out, asOf };
}

/** "Right now I'm …", "At the moment, I …": an opening that only says "now" (the memory gets "as of"). */
export const LEADING_NOW = /^(right now|at the moment|at present|currently|these days|nowadays|for now),?\s+(?=(?:i|i'm|i've|i'd|i'll|im|ive|my|we|we're|we've|our)\b)/i;

/** "The user has 3 starters." → "The user has 3 starters (as of now)." (dates.ts resolves "as of now"). */
export function withAsOf(content: string): string {
  return `${content.replace(/[\s.!]+$/, '')} (as of now).`;
}
