/**
 * A clause whose "I" was left out, as chat often does: "Been practising every morning", "Gonna move to Berlin in
 * May", "Gotta renew my passport", "Just got back from Yosemite", "Started a pottery class last week", "Had a
 * tough week at work". Read without its subject such a clause is about nobody: without a speaker's name it was
 * skipped as having no self-reference (the plan to move was lost), and from a named speaker it was reported as
 * said ("John said that Been practising …"). The subject is put back so the clause is read as the speaker's own
 * statement, with its tense, category and claim.
 *
 * Only openings that can be nothing but a first-person statement: the spoken forms ("been", "gonna", "gotta"),
 * "Can't wait to …" (unless it waits for the other speaker's news: "Can't wait to hear about it") and a
 * past form of a verb of doing (a past tense is no imperative; its object may open with a quote or a count: "Just
 * finished "Dune"", "Ran 5 miles"), optionally after "just", "finally" and the like;
 * "Did" before its object ("Did a 10K"; not "Did you …?", "Did the film …"), "Will" before a base verb and its
 * object ("Will send the photos tonight"; not "Will do!" nor "Will you …?"),
 * "Love", "Adore" or "Hate" before an activity ("Love experimenting with spices": said of an activity, a liking is
 * no wish), and "Haven't" before a participle ("Haven't tried the ramen place yet"; not "Haven't talked in a
 * while", a greeting). Not another present verb ("Keep going" is an imperative, "Enjoy exploring the old town" a
 * wish, "Love the new haircut" may be said of the other's), not an "-ing" form ("Working on my album" and
 * "Working with kids is rewarding" read alike), not an "-ed" word that is mostly an adjective ("Excited to see
 * you"), not a verb of saying or thinking ("Thought so", "Told you"), and not a past whose object is the person
 * spoken to or the thing just said ("Got it", "Made my day", "Took me ages", "Got Anna's back"): those are
 * reactions with an "it" or "that" left out, not news about the speaker. Nor a past followed by a subject or a
 * name ("Had they been allowed, …": a condition; "Visited Anna in Leeds" is lost with it), nor a participle before
 * its agent or place ("Made by the council", "Built in 1850"), nor a clause that opens in lower case (a fragment of a
 * pasted text more often than chat: "been disagreed to) to move …").
 */
import { TIME_SPAN } from './lexicon';
import { isReaction } from './reactions';
import { IRREGULAR_PAST } from './third-person';
import { COMMON_VERBS, DOING_PASTS } from './verbs';

/** Past forms read as the speaker's own: the irregular ones, less those that open a reaction or a report. */
const NOT_OWN_PAST = new Set([
  ...['was', 'were', 'did', 'born', 'said', 'told', 'thought', 'knew', 'meant', 'understood', 'saw', 'heard'],
  // as often a participle or another word: "used to identify forms", "Left hand", "Ground 1"
  ...['used', 'left', 'ground', 'bound', 'wound', 'lit', 'fed', 'bit'],
]);


const ADVERB = String.raw`(?:(?:just|finally|recently|also|actually|already|never|once|even|still|really|literally)\s+)?`;
/** The clause's first word, capitalised (a sentence's start, not a fragment of one), then a space. */
const OPENING = new RegExp(String.raw`^(${ADVERB})([A-Za-z]+(?:n['’]?t)?)(\s+)(.*)$`, 'is');
/**
 * A participle before its agent, place or purpose ("Made by …", "Built in 312 BC", "Paid for by …"), or a label
 * ("Founded 1999", "Updated: …"). An opening quote or a count of things is an object ("Finished "Dune" last
 * night", "Ran 5 miles this morning"); a year is not a count.
 */
const PARTICIPLE_NEXT =
  /^(?:(?:by|with|in|for|as|from|on|at|under|within|during|per|via)\b|(?!["“‘']\p{L}|\d{1,3}(?:[.,]\d+)?\s+\p{L})[^\p{L}])/u;

/** What follows the verb when the clause is a reaction: an object that is the listener or the thing just said. */
const REACTION_OBJECT = /^(?:(?:me|you|ya|him|her|us|them|it|that|this|yourself|your|my day)\b|[A-Z][\p{L}-]*['’]s\b|[A-Z][\p{L}-]* \w+ing\b)/u;
/** A subject after the verb: an inverted condition ("Had they been allowed, …", "Had Jones intercepted it, …"). */
const SUBJECT_AFTER = /^(?:(?:i|he|she|we|they|there)\b|(?!(?:The|A|An|My|Our|This|These|Some)\b)[A-Z][\p{L}-]*\b)/u;
/** "Been a while since we talked", "Been ages": how long it has been, a greeting (lexicon.ts `LEADING_PHATIC`). */
const BEEN_TIME_SPAN = new RegExp(String.raw`^${TIME_SPAN}\b`, 'i');
/** "Took some trial and error", "Took a while": what something took, not something the speaker took. */
const TOOK_EFFORT =
  /^(?:some (?:time|work|effort|trial|getting used|practice|doing)|a (?:bit|little|lot) of (?:work|time|effort|practice)|a while|time|ages|forever|guts|courage|patience|practice)\b/;

/** Verbs of liking that take an activity ("Love experimenting with spices"); "Enjoy" is as often a wish. */
const LIKING = /^(?:love|adore|hate)$/;
/** A participle after "Haven't", not of talking or seeing each other ("Haven't talked in a while"). */
const HAVENT_DONE = /^(?:(?:yet|ever|really|even|actually)\s+)?(?!(?:talked|chatted|spoken|seen|heard|caught)\b)(?:[a-z]+ed|been|done|gone|had|made|taken|got|gotten|found|bought|tried|read|met|started|finished|decided|written|eaten|driven|ridden|flown|won|lost|left|kept|spent|told)\b/;

/**
 * A base verb and its object after "Will": the speaker's promise ("Will do that soon", "Will send it tonight"); "Will
 * do!" alone is an acknowledgement.
 */
function promisesToDo(rest: string): boolean {
  const [verb, ...after] = rest.replace(/^(?:definitely|probably|also|def|totally|surely)\s+/, '').split(/\s+/);
  return COMMON_VERBS.has(verb) && /\w/.test(after.join(' '));
}
/**
 * "Did" before an object that cannot be a subject ("Did an analysis", "Did a 10K"); "Did the film …" and "Did my
 * mom …" ask a question even without its question mark.
 */
const DID_OBJECT = /^(?:a|an|some|\d+)\b/;

/** "Can't wait to …", "Cannot wait for …", capitalised: a sentence's start. */
const CANT_WAIT = /^(?:Can['’]?t|Cannot|Can not) wait (?:to|for|till|until)\b/;

function isOwnPast(verb: string): boolean {
  return (IRREGULAR_PAST.has(verb) && !NOT_OWN_PAST.has(verb)) || DOING_PASTS.has(verb);
}

/** `text` with "I" (or "I've", "I'm") put back when it opens with a verb whose subject can only be the speaker. */
export function withDroppedSubject(text: string): string {
  // "Can't wait to start the course": only the speaker can't wait; waiting to hear the other's news is a reaction
  if (CANT_WAIT.test(text) && !isReaction(text)) return `I ${text.charAt(0).toLowerCase()}${text.slice(1)}`;
  const m = /^[A-Z]/.test(text) ? OPENING.exec(text) : null;
  if (!m) return text;
  const [, adverb, word, space, rest] = m;
  const verb = word.toLowerCase();
  const opening = `${adverb.toLowerCase()}${verb}`;
  if (verb === 'been') return BEEN_TIME_SPAN.test(rest) ? text : `I've ${opening}${space}${rest}`;
  if (verb === 'gonna') return `I'm ${adverb.toLowerCase()}going to${space}${rest}`;
  if (verb === 'gotta') return `I ${adverb.toLowerCase()}have to${space}${rest}`;
  // "Love experimenting with spices": a liking said of an activity is the speaker's own, never a wish
  if (LIKING.test(verb) && /^[a-z]+ing\b/.test(rest)) return `I ${opening}${space}${rest}`;
  // "Haven't tried prosciutto yet"; "Haven't talked in ages" is a greeting
  if (/^haven['’]?t$/.test(verb) && HAVENT_DONE.test(rest)) return `I ${opening}${space}${rest}`;
  // "Will do that soon!": a promise, and "Did an analysis of the poem": "did" before its object; "Will you …?",
  // "Will Smith …" and "Did you …?" are not
  const asks = /\?\s*$/.test(text);
  const promiseOrDeed = (verb === 'will' && promisesToDo(rest)) || (verb === 'did' && DID_OBJECT.test(rest));
  if (promiseOrDeed && !asks) return `I ${opening}${space}${rest}`;
  if (!rest || !isOwnPast(verb)) return text;
  // "Took some trial and error" is "It took …"; "Got it" is an acknowledgement
  // (a quoted "it" too: 'Got "it"')
  const object = rest.replace(/^["“‘]/, '');
  if (REACTION_OBJECT.test(object) || SUBJECT_AFTER.test(rest) || PARTICIPLE_NEXT.test(rest)) return text;
  if (verb === 'took' && TOOK_EFFORT.test(rest)) return text;
  return `I ${opening}${space}${rest}`;
}
