/**
 * The built-in, rule-based extraction provider: fast (well under 1 ms for a short conversation),
 * deterministic, no external services; noun phrases come from compromise (entities.ts), everything else is rules.
 *
 * Pipeline: user messages → sentences (. ! ? newlines) → clauses (", and I", " and I ", "; ",
 * " but I ", comma splices that start a new first-person or "we" subject, a question's statement part,
 * a leading "As a nurse," role) → openers set aside (fillers, topics, scenes: disclosures.ts) → pronouns
 * resolved (pronouns.ts) → skip filters → present time anchored (now.ts) → third-person rewrite
 * ("I'm a vegetarian" → "The user is a vegetarian.") → category, importance, confidence. A skipped
 * question or request still gives what it states on the side (disclosures.ts), and a short fragment
 * answering the assistant's question about the user is kept with that question (answers.ts).
 * The rules and their causes: docs/memory-model.md, "The built-in extractor".
 *
 * Category rules (first match wins, checked on the normalised clause):
 *
 * | order | category     | triggers                                                                                  |
 * |-------|--------------|-------------------------------------------------------------------------------------------|
 * | 1     | relationship | subject is "my <relation>" (wife, husband, partner, kids, mom, sister, friend, boss, …)   |
 * | 2     | event        | "I <past-tense verb> …" plus a time marker (yesterday, last week, in 2019, on Monday, ago)|
 * |       |              | except "I was born …" (fact)                                                              |
 * | 3     | goal         | want to, plan to, hope to, going to <verb>, trying to, training for, saving for, my goal, |
 * |       |              | aim to, would like/love to, need to, "I'll be moving … next year"                         |
 * | 4     | preference   | love, like, enjoy, hate, prefer, dislike, can't stand, don't like, favourite/favorite,    |
 * |       |              | "I'm a fan of", "I'm into", "I'd rather"                                                  |
 * | 5     | expertise    | "years of experience", "I know <skill>", "I'm good at", "I'm an expert", "I speak",       |
 * |       |              | "fluent in", "I've been <verb>ing … for N years", degrees. A bare profession ("I work as  |
 * |       |              | a nurse", "I'm a teacher") is a fact; it is expertise only with skills/experience.        |
 * | 6     | procedure    | usually, always, every day/morning, each week, daily, routine, habit, "I tend to"         |
 * | 7     | relationship | "my <relation>" anywhere, "I have two kids", "I'm married"                                |
 * | 8     | fact         | everything else durable: location, diet, allergies, age, pets, job, name, health          |
 *
 * Importance: health/allergy 0.9; diet/identity/family 0.85; location/job 0.8; goal 0.7;
 * expertise 0.65; event 0.6; preference 0.55; procedure 0.5; other facts 0.5.
 * Confidence: 0.9 for plain assertions, 0.5 when hedged (maybe, I think, probably, kind of, …);
 * the statement itself stays faithful (only a leading "I think"/"maybe" is dropped to find the subject).
 *
 * Skip reasons (metadata.skipped): assistant_turn, system_turn, redacted_secret, small_talk, question,
 * too_short, no_self_reference, transient, addressed_to_assistant.
 */
import { isSupportReport } from './support-patterns';
import type { MemoryCategory } from '../categories';
import {
  ADDRESSES_ASSISTANT,
  DIET,
  EXPERTISE,
  EXPERTISE_DURATION,
  FAMILY_ANY,
  FIRST_PERSON_SMALL_TALK,
  FIRST_PERSON_START,
  FUTURE_PLAN,
  GOAL,
  HEALTH,
  HEDGE,
  IDENTITY,
  JOB,
  LEADING_FILLER,
  LEADING_HEDGE,
  LOCATION,
  NOT_SKILL,
  PAST_MARKER,
  PREFERENCE,
  PROCEDURE,
  QUESTION_START,
  REDACTED,
  REL_ANY,
  REL_HAVE,
  REL_STATUS,
  REL_SUBJECT,
  SMALL_TALK_WORDS,
  TRAILING_FILLER,
  ABBREVIATION_END,
} from './lexicon';
import { resolveRelativeDates } from './dates';
import { answerMemory, isShortAnswer, questionAboutUser } from './answers';
import {
  CONDITIONAL_FRAME,
  LEADING_FRAME,
  LEADING_FRAME_NO_COMMA,
  LEADING_TOPIC,
  embeddedStatements,
  plainRequest,
  questionSpeaksOfUser,
  roleOf,
} from './disclosures';
import { nounPhrases } from './entities';
import { isInstruction, overridesInstructions } from './instructions';
import { DAY_WORD, LEADING_NOW, anchorNow, isMomentary, withAsOf } from './now';
import { type Antecedent, GENERIC_WE, mentions, resolvePronoun, rewriteWe, weSubject } from './pronouns';
import { AMBIGUOUS_PAST, PRE_VERB_ADVERBS, isPastForm, renameUser, rewriteLater, toAddressee, toThirdPerson } from './third-person';
import type { ExtractedMemory, ExtractionInput, ExtractionProvider, ExtractionResult } from './types';

export type SkipReason =
  | 'assistant_turn'
  | 'system_turn'
  | 'redacted_secret'
  | 'small_talk'
  | 'question'
  | 'too_short'
  | 'no_self_reference'
  | 'transient'
  | 'addressed_to_assistant'
  | 'instruction';

// ---------------------------------------------------------------------------------------------
// Sentence and clause splitting
// ---------------------------------------------------------------------------------------------

const LINE_SPLIT = /\r?\n+/;
const SENTENCE_SPLIT = /(?<=[.!?…]["”’')\]]?)\s+/;
const BULLET = /^(?:[-*•>]+|\d+[.)])\s+/;
const ENDS_WITH_QUESTION = /\?[\s"'”’)\]]*$/;

interface Sentence {
  text: string;
  question: boolean;
}

export function splitSentences(content: string): Sentence[] {
  const out: Sentence[] = [];
  for (const rawLine of content.split(LINE_SPLIT)) {
    const line = rawLine.trim().replace(BULLET, '');
    if (!line) continue;
    const pieces = line.split(SENTENCE_SPLIT);
    let pending = '';
    for (const piece of pieces) {
      const p = pending ? `${pending} ${piece}` : piece;
      if (ABBREVIATION_END.test(p)) {
        pending = p;
        continue;
      }
      pending = '';
      const t = p.trim();
      if (t) out.push({ text: t, question: ENDS_WITH_QUESTION.test(t) });
    }
    if (pending.trim()) out.push({ text: pending.trim(), question: ENDS_WITH_QUESTION.test(pending) });
  }
  return out;
}

const SUBJ = String.raw`(?:i|i'm|i’m|i've|i’ve|i'd|i’d|i'll|i’ll|im|ive|my|we|we're|we’re|we've|we’ve|our)\b(?!\.)`;
/** ", and I" / " and I " / " but I " / ", so I" / comma splice ", I …". */
const CLAUSE_BOUNDARY = new RegExp(String.raw`\s*,?\s+(?:and|but|so|and also|but also|plus)\s+(?=${SUBJ})|\s*,\s+(?=${SUBJ})`, 'gi');
const SEMICOLON = /\s*;\s+/;
/**
 * Inside a question sentence the question part starts at a comma, a dash, a colon or a semicolon before a
 * question word (", what should I cook?", " — what are the differences?"), or at "but/so/and" before one
 * ("I'm thinking of getting a puppy but is it a good idea?"); what comes before is a statement.
 */
const QUESTION_WORDS = String.raw`(?:can|could|would|will|what|whats|what's|how|why|when|where|who|which|do|does|did|is|are|should|any|thoughts|ideas|(?:have|had|were|was|don't|didn't|aren't|isn't|wasn't) (?:you|it|anyone|there)\b)\b`;
const QUESTION_BOUNDARY = new RegExp(
  String.raw`\s*(?:,|;|:|\s[-–—]+|[–—])\s*(?=(?:so |and |but )?${QUESTION_WORDS})|\s+(?=(?:so|and|but) (?:can|could|would|what|how|which|is|are|do|does|should)\b)|` +
    String.raw`\s*,?\s+(?=(?:and|but|so) (?:i )?(?:was|am|i'm|i’m) (?:just )?(?:wondering|curious|hoping you)\b)`,
  'i',
);
/** A second verb with the subject left out: "I'm exhausted today, just got back from a 10K" → "I just got back …". */
const ELLIPSIS = /,\s+(?:and\s+)?(?=(?:just|also|then|recently|finally)\s+([a-z]+)\b)/gi;
const MY_HAS_VERB =
  /\b(?:is|are|was|were|has|had|have|lives|live|works|work|loves|likes|died|passed|got|gets|goes|went|does|did|will|can|'s)\b/i;

interface Clause {
  text: string;
  question: boolean;
}

function leftAllowsSplit(left: string, comma: boolean): boolean {
  const l = left.trim().replace(LEADING_FILLER, '');
  const startsFirst = FIRST_PERSON_START.test(l) || /^(?:we|we're|we've)\b/i.test(l);
  const startsMy = /^(?:my|our|me and)\b/i.test(l);
  if (startsMy) return MY_HAS_VERB.test(l.replace(/^(?:my|our)\s+\S+/i, ''));
  if (startsFirst) return l.split(/\s+/).length >= 2;
  if (comma) return false;
  return l.split(/\s+/).length >= 3;
}

function splitEllipsis(text: string): string[] {
  if (!FIRST_PERSON_START.test(text.replace(LEADING_FILLER, ''))) return [text];
  const out: string[] = [];
  let start = 0;
  let subject = '';
  ELLIPSIS.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = ELLIPSIS.exec(text))) {
    if (!isPastForm(m[1])) continue;
    out.push(subject + text.slice(start, m.index));
    start = m.index + m[0].length;
    subject = 'I ';
  }
  out.push(subject + text.slice(start));
  return out;
}

export function splitClauses(sentence: Sentence): Clause[] {
  const parts: string[] = [];
  let questionTail: string | null = null;
  // "As a nurse, how can I …" / "As someone who loves hiking, I …": the role is a statement of its own
  const role = roleOf(sentence.text.replace(LEADING_FILLER, ''));
  let body = role ? role.rest : sentence.text;
  if (sentence.question) {
    const m = QUESTION_BOUNDARY.exec(body);
    if (m) {
      questionTail = body.slice(m.index + m[0].length);
      body = body.slice(0, m.index);
    }
  }
  for (const semi of body.split(SEMICOLON)) {
    let start = 0;
    CLAUSE_BOUNDARY.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = CLAUSE_BOUNDARY.exec(semi))) {
      const left = semi.slice(start, m.index);
      const comma = !/\b(?:and|but|so|plus)\s*$/i.test(m[0]);
      if (left.trim() && leftAllowsSplit(left, comma)) {
        parts.push(left);
        start = m.index + m[0].length;
      }
      if (m[0].length === 0) CLAUSE_BOUNDARY.lastIndex++;
    }
    parts.push(semi.slice(start));
  }
  const clauses: Clause[] = role ? [{ text: role.statement, question: false }] : [];
  for (const part of parts) {
    const t = part.trim();
    if (t) for (const piece of splitEllipsis(t)) clauses.push({ text: piece, question: false });
  }
  if (questionTail !== null) clauses.push({ text: questionTail.trim(), question: true });
  else if (sentence.question && clauses.length > 0) clauses[clauses.length - 1].question = true;
  return clauses;
}

// ---------------------------------------------------------------------------------------------
// Normalisation
// ---------------------------------------------------------------------------------------------

const CURLY = /[’‘]/g;
const CONTRACTIONS: Record<string, string> = {
  "i'm": 'i am',
  im: 'i am',
  "i've": 'i have',
  ive: 'i have',
  "i'll": 'i will',
  "i'd": 'i would',
  "can't": 'cannot',
  cant: 'cannot',
  'can not': 'cannot',
  "won't": 'will not',
  wont: 'will not',
  "don't": 'do not',
  dont: 'do not',
  "doesn't": 'does not',
  doesnt: 'does not',
  "didn't": 'did not',
  didnt: 'did not',
  "haven't": 'have not',
  havent: 'have not',
  "wasn't": 'was not',
  wasnt: 'was not',
  "isn't": 'is not',
  isnt: 'is not',
  "what's": 'whats',
  "let's": 'lets',
};
/** One pass over all contractions (single regex + lookup: much faster than a chain of replaces). */
const CONTRACTION_RE =
  /\b(?:i'm|im|i've|ive|i'll|i'd|can't|cant|can not|won't|wont|don't|dont|doesn't|doesnt|didn't|didnt|haven't|havent|wasn't|wasnt|isn't|isnt|what's|let's|([a-z]+)n't)\b/g;
const TRAILING_STOP = /[.!?…]+$/;
const MULTI_SPACE = /\s+/g;

export function normalise(text: string): string {
  let s = text.toLowerCase().replace(CURLY, "'").trim();
  s = s.replace(CONTRACTION_RE, (m: string, stem: string | undefined) => CONTRACTIONS[m] ?? `${stem} not`);
  s = s.replace(TRAILING_STOP, '').replace(MULTI_SPACE, ' ');
  return s.trim();
}

const WORD_RE = /[a-z0-9']+/g;

/** True when every word is a greeting/acknowledgement word (stops at the first other word). */
function isSmallTalk(raw: string): boolean {
  if (raw.length > 80) return false;
  const lower = raw.toLowerCase().replace(CURLY, "'");
  WORD_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = WORD_RE.exec(lower))) {
    if (!SMALL_TALK_WORDS.has(m[0].replace(/'/g, ''))) return false;
  }
  return true; // only small-talk words, or punctuation / emoji only
}

function stripFillers(text: string): { text: string; hedged: boolean } {
  let s = text.replace(CURLY, "'").trim();
  let hedged = false;
  for (let i = 0; i < 3; i++) {
    const before = s;
    s = s.replace(LEADING_FILLER, '').replace(LEADING_TOPIC, '');
    const h = s.replace(LEADING_HEDGE, '');
    if (h !== s) {
      hedged = true;
      s = h;
    }
    if (s === before) break;
  }
  s = s.replace(TRAILING_FILLER, '').trim();
  return { text: s, hedged };
}

// ---------------------------------------------------------------------------------------------
// Classification
// ---------------------------------------------------------------------------------------------


function firstVerbIsPast(norm: string): boolean {
  const m = /^i (.*)$/.exec(norm);
  if (!m) return false;
  const words = m[1].split(' ');
  for (const w of words) {
    if (PRE_VERB_ADVERBS.has(w)) continue;
    if (w === 'used' || w === 'would' || w === 'had') return false;
    return isPastForm(w) || AMBIGUOUS_PAST.has(w);
  }
  return false;
}

export function categorise(norm: string, past = PAST_MARKER.test(norm)): MemoryCategory {
  if (REL_SUBJECT.test(norm)) return 'relationship';
  if (!/\bborn\b/.test(norm) && past && firstVerbIsPast(norm)) return 'event';
  if (GOAL.test(norm) || FUTURE_PLAN.test(norm)) return 'goal';
  if (PREFERENCE.test(norm)) return 'preference';
  if (EXPERTISE.test(norm) || (EXPERTISE_DURATION.test(norm) && !NOT_SKILL.test(norm))) return 'expertise';
  if (PROCEDURE.test(norm)) return 'procedure';
  if (REL_ANY.test(norm) || REL_HAVE.test(norm) || REL_STATUS.test(norm)) return 'relationship';
  return 'fact';
}

const BASE_IMPORTANCE: Record<MemoryCategory, number> = {
  fact: 0.5,
  preference: 0.55,
  goal: 0.7,
  expertise: 0.65,
  relationship: 0.8,
  procedure: 0.5,
  event: 0.6,
};

/** "I'm Ana." — a bare name is identity. */
const SELF_NAME = /^[Ii](?:'m| am|m) [A-Z][a-z]+$/;

export function importanceOf(norm: string, category: MemoryCategory, raw = ''): number {
  let imp = BASE_IMPORTANCE[category];
  if (SELF_NAME.test(raw)) imp = Math.max(imp, 0.85);
  if (HEALTH.test(norm)) imp = Math.max(imp, 0.9);
  if (DIET.test(norm) && category !== 'procedure') imp = Math.max(imp, 0.85);
  if (category === 'fact' || category === 'relationship') {
    if (IDENTITY.test(norm)) imp = Math.max(imp, 0.85);
    if (FAMILY_ANY.test(norm)) imp = Math.max(imp, 0.85);
  }
  if ((category === 'fact' || category === 'expertise') && (LOCATION.test(norm) || JOB.test(norm))) {
    imp = Math.max(imp, 0.8);
  }
  return imp;
}

function wordCount(norm: string): number {
  return norm.split(' ').filter((w) => /[a-z0-9]/.test(w)).length;
}

// ---------------------------------------------------------------------------------------------
// Extraction
// ---------------------------------------------------------------------------------------------

type ClauseOutcome =
  | { kind: 'skip'; reason: SkipReason }
  | { kind: 'memory'; content: string; category: MemoryCategory; importance: number; confidence: number; refersBack: boolean };

/**
 * Who is speaking. Without a message `name` the speaker is "The user" and only first-person statements
 * (and statements about named people, see REPORTED) are kept. With a `name` (several people talking,
 * docs/memory-model.md) statements are attributed to that person, "you" is the other speaker, and every
 * informative statement of the turn is kept: what people tell each other is what later questions ask.
 */
export interface Voice {
  subject: string;
  addressee: string | null;
  named: boolean;
}

const DEFAULT_VOICE: Voice = { subject: 'The user', addressee: null, named: false };

/** A leading time phrase ("Yesterday I …", "Last weekend, I …") is moved in front of the rewritten clause. */
const LEADING_TIME = new RegExp(
  String.raw`^((?:yesterday|today|tonight|last night|the other day|recently|lately|earlier today|` +
    String.raw`this (?:morning|afternoon|evening|week|weekend|month|year)|` +
    String.raw`last (?:week|weekend|month|year|summer|winter|spring|fall|autumn|sunday|monday|tuesday|wednesday|thursday|friday|saturday|sun|mon|tue|tues|wed|thu|thurs|fri|sat)|` +
    String.raw`(?:a few|a couple of|several|\d+|one|two|three|four|five|six|seven|eight|nine|ten) (?:days?|weeks?|months?|years?) ago|a (?:day|week|month|year) ago)),?\s+(?=(?:i|i'm|i've|i'd|i'll|my|me and)\b)`,
  'i',
);

/** Sentences about other people or shared events that are worth keeping without a named speaker. */
const REPORTED_START = /^(?:we|we're|we've|we'd|our)\b/i;
/** "Tom got promoted", "Anna and Luis moved to Porto": a capitalised subject followed by a verb-like word. */
const NAMED_SUBJECT = /^([A-Z][\p{L}'-]+)(?: (?:and|&) [A-Z][\p{L}'-]+)? (?:is|was|has|had|got|gets|will|just|also|still|loves|likes|lives|works|moved|started|said|told|went|came|took|made|bought|won|lost|passed|died|married|[a-z]+ed|[a-z]+s)\b/u;
const NOT_A_NAME = new Set([
  'the', 'this', 'that', 'these', 'those', 'it', 'its', 'there', 'here', 'what', 'which', 'who', 'when', 'where', 'why',
  'how', 'he', 'she', 'they', 'you', 'your', 'his', 'her', 'their', 'everything', 'everyone', 'nothing', 'something',
  'someone', 'anyone', 'life', 'today', 'yesterday', 'sounds', 'looks', 'seems', 'thanks', 'thank', 'so', 'and', 'but',
  'or', 'if', 'then', 'also', 'just', 'wow', 'yeah', 'yes', 'no', 'oh', 'hey', 'hi', 'well', 'all', 'some', 'most',
  'many', 'each', 'every', 'both', 'a', 'an', 'one', 'being', 'having', 'doing', 'going', 'getting', 'making',
]);
/** Words that open a reported clause in lower case ("Melanie said that the sign was …"). */
const LOWERCASE_OPENER = new Set([...NOT_A_NAME, 'we', "we're", "we've", "we'd", 'our', 'my', 'to', 'for', 'in', 'on', 'at', 'after', 'before', 'since', 'being']);

function namedSubject(text: string): boolean {
  const m = NAMED_SUBJECT.exec(text);
  return m !== null && !NOT_A_NAME.has(m[1].toLowerCase());
}

/** "you"/"your" addressed to the other speaker, rewritten to their name. */
function rewriteAddressee(text: string, addressee: string | null): string {
  return addressee ? toAddressee(text, addressee) : text;
}

function reported(text: string, voice: Voice, pastMarker: boolean): string {
  let body = renameUser(rewriteLater(text, pastMarker), voice.subject);
  body = rewriteAddressee(body, voice.addressee).replace(/[\s.,;:!?…\-–—]+$/, '');
  const first = body.split(/\s/, 1)[0].toLowerCase().replace(/[^a-z']/g, '').replace(/'(?:s|re|ve|ll|d|m)$/, '');
  if (LOWERCASE_OPENER.has(first)) body = body.charAt(0).toLowerCase() + body.slice(1);
  return `${voice.subject} said that ${body}${/[.!?]["”’)]$/.test(body) ? '' : '.'}`;
}

export interface ClauseOptions {
  /** Customer Support: keep problem, resolution and escalation reports that are not about the user. */
  supportReports?: boolean;
  /** Unnamed user: a clause that starts with she/he/they rewritten with its antecedent (pronouns.ts), or null. */
  resolvePronoun?: (text: string) => string | null;
  /** Unnamed user: who "we" is (pronouns.ts); without it a "we" clause is reported as said. */
  we?: (text: string) => string;
}

/**
 * "The play I saw was …", "The bike we bought is …": a subject that names something of the user's (a noun
 * with a first-person relative clause, then the main verb). "The app crashes when I upload …" is not one.
 */
const OWN_SUBJECT =
  /^(?:the|this|that|these|those|one of the)\s+(?:(?!(?:is|are|was|were|i|we|more|less|better|worse|longer|sooner|harder|when|if|because|after|before|while|since|as|until|and|but|so)\b)[\w'-]+\s+){1,4}?(?:(?:that|which|who)\s+)?(?:i|i've|i'd|i'm|we|we've|we'd)\s+[^,.;:!?]*?\b(?:is|was|are|were|has|had|will|turned out|ended up|costs?)\b/i;
const WE_OR_OUR = /^(?:we|we're|we’re|we've|we’ve|we'd|we’d|we'll|we’ll|our)\b/i;

/** "we" read as "i" for the first-person tests ("we're heading out" is as momentary as "i am heading out"). */
function asSelf(text: string): string {
  return text
    .replace(/^we(?:'re|’re)\b/i, 'I am')
    .replace(/^we(?:'ve|’ve)\b/i, 'I have')
    .replace(/^we(?:'d|’d)\b/i, 'I would')
    .replace(/^we(?:'ll|’ll)\b/i, 'I will')
    .replace(/^we\b/i, 'I')
    .replace(/^our\b/i, 'my');
}

/** A scene-setting prefix written about the speaker: "During my trip" → "During the user's trip". */
function framePrefix(prefix: string, voice: Voice, past: boolean): string {
  if (!prefix) return prefix;
  const p = renameUser(rewriteLater(prefix, past), voice.subject);
  return voice.named ? rewriteAddressee(p, voice.addressee) : p;
}

function endSentence(text: string): string {
  const t = text.replace(/\s+/g, ' ').replace(/[\s.,;:!…\-–—]+$/, '');
  return `${t.charAt(0).toUpperCase()}${t.slice(1)}${/[?"”’)]$/.test(t) ? '' : '.'}`;
}

export function analyseClause(clause: Clause, voice: Voice = DEFAULT_VOICE, opts: ClauseOptions = {}): ClauseOutcome {
  const raw = clause.text.trim();
  if (REDACTED.test(raw)) return { kind: 'skip', reason: 'redacted_secret' };
  if (isSmallTalk(raw)) return { kind: 'skip', reason: 'small_talk' };
  const stripped = stripFillers(raw);
  const { hedged } = stripped;
  let text = stripped.text;
  if (!text || (text !== raw && isSmallTalk(text))) return { kind: 'skip', reason: 'small_talk' };
  // a leading time ("Last weekend I …") or scene ("During my trip to Kyoto, I …") goes in front of the memory
  let timePrefix = '';
  let timeLed = false;
  let conditional = false;
  const nowLead = LEADING_NOW.exec(text);
  if (nowLead) text = text.slice(nowLead[0].length);
  const time = LEADING_TIME.exec(text);
  const lead = time ?? LEADING_FRAME_NO_COMMA.exec(text) ?? LEADING_FRAME.exec(text);
  const rest = lead ? text.slice(lead[0].length) : text;
  // a scene is set aside only before a statement this speaker's rewriting handles ("I …", or "we …" of the user)
  if (lead && (time !== null || FIRST_PERSON_START.test(rest) || (opts.we && WE_OR_OUR.test(rest)))) {
    timePrefix = lead[1];
    timeLed = time !== null;
    conditional = CONDITIONAL_FRAME.test(timePrefix);
    text = rest;
  }
  const resolved = opts.resolvePronoun?.(text);
  if (resolved) text = resolved;
  const norm = normalise(text);
  if (clause.question || QUESTION_START.test(norm)) return { kind: 'skip', reason: 'question' };
  if (FIRST_PERSON_SMALL_TALK.test(norm)) return { kind: 'skip', reason: 'small_talk' };
  if (wordCount(norm) < 3) return { kind: 'skip', reason: 'too_short' };
  const we = Boolean(opts.we) && WE_OR_OUR.test(text) && !GENERIC_WE.test(text);
  const self = we ? normalise(asSelf(text)) : norm;
  // the tests for time read the opening too ("Right now I …", "This morning I …")
  const selfAll = [nowLead ? normalise(nowLead[1]) : '', timePrefix ? normalise(timePrefix) : '', self].filter(Boolean).join(' ');
  const pastMarker = timeLed || PAST_MARKER.test(selfAll) || DAY_WORD.test(selfAll);
  const hedgedAny = hedged || conditional || HEDGE.test(norm);
  const prefix = framePrefix(timePrefix, voice, pastMarker);
  if (!we && !FIRST_PERSON_START.test(text)) {
    // Statements about others and shared events: every informative one from a named speaker, and
    // without a name those about named people, "we", or something of the user's ("The play I saw …").
    const support = Boolean(opts.supportReports) && isSupportReport(text);
    const own = !voice.named && OWN_SUBJECT.test(text);
    const keep = voice.named ? wordCount(norm) >= 4 : REPORTED_START.test(text) || namedSubject(text) || support || own;
    if (!keep) return { kind: 'skip', reason: 'no_self_reference' };
    const category = support ? 'event' : REL_ANY.test(norm) ? 'relationship' : pastMarker ? 'event' : 'fact';
    return {
      kind: 'memory',
      content: withTime(own ? endSentence(rewriteLater(text, pastMarker)) : reported(text, voice, pastMarker), prefix),
      category,
      importance: Math.min(importanceOf(norm, category, text), 0.6),
      confidence: hedgedAny ? 0.5 : 0.75,
      refersBack: refersBack(text),
    };
  }
  if (!voice.named && isMomentary(selfAll)) return { kind: 'skip', reason: 'transient' };
  if (!voice.named && ADDRESSES_ASSISTANT.test(norm)) return { kind: 'skip', reason: 'addressed_to_assistant' };
  const now = anchorNow(text, selfAll);
  let content =
    we && opts.we
      ? endSentence(rewriteLater(rewriteWe(now.text, opts.we(text)) ?? now.text, pastMarker))
      : toThirdPerson(now.text, pastMarker, voice.subject);
  if (!content) return { kind: 'skip', reason: 'no_self_reference' };
  if (voice.named) content = rewriteAddressee(content, voice.addressee);
  if (now.asOf) content = withAsOf(content);
  const category = categorise(self, pastMarker);
  const importance = importanceOf(self, category, asSelf(text).replace(/[.!]+$/, ''));
  return {
    kind: 'memory',
    content: withTime(content, prefix),
    category,
    importance: we ? Math.min(importance, 0.7) : importance,
    confidence: hedgedAny ? 0.5 : we ? 0.85 : 0.9,
    refersBack: refersBack(text),
  };
}

/** "Yesterday" + "Caroline went to a support group." → "Yesterday, Caroline went to a support group." */
function withTime(content: string, timePrefix: string): string {
  if (!timePrefix) return content;
  const t = timePrefix.charAt(0).toUpperCase() + timePrefix.slice(1);
  // "The user" is lower-cased after the comma; a name stays as it is
  return `${t}, ${content.replace(/^The user\b/, 'the user')}`;
}

/** A shared photo's caption inside a message: "[shares a photo: a dog on a couch]", "[image: …]", "[photo: …]". */
const CAPTION = /\[(?:shares? (?:a |an )?(?:photo|picture|image|pic)|photo|image|picture|pic)\s*:\s*([^\]]+)\]/gi;
const CAPTION_LEAD = /^(?:a |an )?(?:photo|photograph|photography|picture|image|pic|snapshot|screenshot)(?: of)?\s+/i;

export function splitCaptions(content: string): { text: string; captions: string[] } {
  const captions: string[] = [];
  const text = content.replace(CAPTION, (_m, caption: string) => {
    const c = caption.trim();
    if (c) captions.push(c);
    return ' ';
  });
  return { text: text.replace(/\s+/g, ' ').trim(), captions };
}

function captionMemory(caption: string, voice: Voice): string {
  const what = caption.replace(CAPTION_LEAD, '').replace(/[\s.]+$/, '');
  return `${voice.subject} shared a photo of ${what}.`;
}

/** A reference a statement cannot be read without: "I painted this", "it was amazing", "we did it there". */
const NEEDS_CONTEXT = /\b(?:this|that|it|these|those|they|them|there)\b/i;
/** "these days", "this week": times, not references back. */
const DEICTIC_TIME = /\b(?:these days|this (?:morning|afternoon|evening|week|weekend|month|year))\b/gi;
const refersBack = (text: string) => NEEDS_CONTEXT.test(text.replace(DEICTIC_TIME, ''));

/**
 * What a reply is about, from the message it answers (the previous message, when another speaker or the
 * assistant wrote it): that message's questions and its noun phrases. A memory that refers back ("I painted
 * this …") carries it, and so does, between named speakers, every answer to a question, so a memory can be
 * found and read on its own:
 * "Caroline painted this after Caroline visited a LGBTQ center (in reply to Melanie: "What inspired it?";
 * about a great painting, the art show)."
 */
interface ReplyContext {
  who: string;
  questions: string[];
  about: string[];
}

function replyContext(messages: ExtractionInput['messages'], index: number): ReplyContext | null {
  const prev = messages[index - 1];
  const me = messages[index];
  if (!prev || typeof prev.content !== 'string') return null;
  const other = me.name ? prev.name !== undefined && prev.name !== me.name : prev.role === 'assistant';
  if (!other) return null;
  const text = splitCaptions(prev.content).text;
  const questions = splitSentences(text)
    .filter((x) => x.question && x.text.length <= 160)
    .map((x) => stripFillers(x.text).text)
    .filter((q) => q.split(/\s+/).length >= 2)
    .slice(-2);
  const about = nounPhrases(text, me.name ? [me.name] : []).slice(0, 5);
  if (questions.length === 0 && about.length === 0) return null;
  return { who: prev.name ?? 'the assistant', questions, about };
}

function withContext(content: string, ctx: ReplyContext): string {
  const parts: string[] = [];
  if (ctx.questions.length) parts.push(`in reply to ${ctx.who}: ${ctx.questions.map((q) => `"${q}"`).join(' ')}`);
  if (ctx.about.length) parts.push(`${ctx.questions.length ? '' : `in reply to ${ctx.who} `}about ${ctx.about.join(', ')}`);
  return `${content.replace(/[.!?]+$/, '')} (${parts.join('; ')}).`;
}

/** The other speaker nearest to message `index` (the previous one, else the next), for "you". */
function addresseeOf(messages: ExtractionInput['messages'], index: number): string | null {
  const me = messages[index].name;
  for (let i = index - 1; i >= 0; i--) if (messages[i].name && messages[i].name !== me) return messages[i].name ?? null;
  for (let i = index + 1; i < messages.length; i++) if (messages[i].name && messages[i].name !== me) return messages[i].name ?? null;
  return null;
}

/** A question or request that speaks of the user's own things: "The user asked: how often should the user water …?" */
function askedMemory(question: string): Omit<ExtractedMemory, 'messageIndices'> {
  const q = rewriteLater(plainRequest(stripFillers(question).text), false).replace(/\s+/g, ' ').trim();
  const body = q.replace(/[\s.,;:!…]+$/, '');
  return {
    content: `The user asked: ${body.charAt(0).toLowerCase()}${body.slice(1)}${/[?"”’)]$/.test(body) ? '' : '?'}`,
    category: 'fact',
    importance: 0.4,
    confidence: 0.75,
  };
}

const YES_NO_ANSWER = /^(?:yes|yeah|yep|yup|no|nope|not really|not yet|never|sometimes|always|of course|definitely)\b/i;
const YES_NO_QUESTION = /^(?:do|does|did|are|is|have|has|were|was|can|could|will|would)\b/i;

/** A fragment that answers the assistant's question about the user (answers.ts), or null. */
function shortAnswer(messages: ExtractionInput['messages'], index: number): Omit<ExtractedMemory, 'messageIndices'> | null {
  const prev = messages[index - 1];
  const content = messages[index].content;
  if (prev?.role !== 'assistant' || typeof prev.content !== 'string' || typeof content !== 'string' || !isShortAnswer(content)) return null;
  const question = questionAboutUser(
    prev.content,
    splitSentences(prev.content)
      .filter((x) => x.question)
      .map((x) => stripFillers(x.text).text),
  );
  if (!question) return null;
  if (isSmallTalk(content) && !(YES_NO_ANSWER.test(content.trim()) && YES_NO_QUESTION.test(question))) return null;
  return { content: answerMemory(question, content), category: 'fact', importance: 0.5, confidence: 0.8 };
}

export function extractMemories(input: ExtractionInput): ExtractionResult {
  const skipped: Record<string, number> = {};
  const bump = (reason: string) => {
    skipped[reason] = (skipped[reason] ?? 0) + 1;
  };
  const byContent = new Map<string, ExtractedMemory>();
  let sentencesConsidered = 0;
  const keep = (index: number, m: Omit<ExtractedMemory, 'messageIndices'>) => {
    const content = resolveRelativeDates(m.content, input.observedAt);
    const key = content.toLowerCase();
    const existing = byContent.get(key);
    if (existing) {
      if (!existing.messageIndices.includes(index)) {
        existing.messageIndices.push(index);
        existing.messageIndices.sort((a, b) => a - b);
      }
      existing.importance = Math.max(existing.importance, m.importance);
      existing.confidence = Math.max(existing.confidence, m.confidence);
      return;
    }
    byContent.set(key, { ...m, content, messageIndices: [index] });
  };

  const clauseOptions: ClauseOptions = { supportReports: input.domain === 'customer_support' };
  // people and pets the user has mentioned, for "she/he/they/we" (pronouns.ts); the window counts user messages
  const antecedents: Antecedent[] = [];
  const userOrdinal: number[] = [];
  let users = 0;
  for (const m of input.messages) userOrdinal.push(m.role === 'user' ? users++ : users);
  const ordinal = (i: number) => userOrdinal[i] ?? 0;

  input.messages.forEach((message, index) => {
    if (message.role !== 'user') {
      bump(message.role === 'assistant' ? 'assistant_turn' : 'system_turn');
      return;
    }
    if (typeof message.content !== 'string' || !message.content.trim()) return;
    const name = message.name?.trim();
    const voice: Voice = name ? { subject: name, addressee: addresseeOf(input.messages, index), named: true } : DEFAULT_VOICE;
    const opts: ClauseOptions = voice.named
      ? clauseOptions
      : {
          ...clauseOptions,
          resolvePronoun: (t) => resolvePronoun(t, antecedents, index, ordinal),
          we: (t) => weSubject(t, antecedents, index),
        };
    const { text, captions } = splitCaptions(message.content);
    // a message that tries to replace the assistant's instructions is skipped whole (instructions.ts)
    const override = overridesInstructions(text);
    let context: ReplyContext | null | undefined;
    let kept = 0;
    const keepOutcome = (outcome: Extract<ClauseOutcome, { kind: 'memory' }>) => {
      const { refersBack, kind: _kind, ...memory } = outcome;
      if (context === undefined && (refersBack || voice.named)) context = replyContext(input.messages, index);
      // between people every answer keeps its question; to an assistant, only a statement that refers back
      const needs = context != null && (refersBack || (voice.named && context.questions.length > 0));
      keep(index, { ...memory, content: needs && context ? withContext(memory.content, context) : memory.content });
      kept++;
    };
    for (const sentence of splitSentences(text)) {
      sentencesConsidered++;
      if (override || isInstruction(sentence.text)) {
        bump('instruction');
        continue;
      }
      for (const clause of splitClauses(sentence)) {
        const outcome = analyseClause(clause, voice, opts);
        if (!voice.named) antecedents.push(...mentions(clause.text, index));
        if (outcome.kind === 'memory') {
          keepOutcome(outcome);
          continue;
        }
        bump(outcome.reason);
        if (outcome.reason !== 'question' && outcome.reason !== 'no_self_reference') continue;
        // a question or request that states something on the side (disclosures.ts)
        let side = 0;
        for (const statement of embeddedStatements(clause.text)) {
          const o = analyseClause({ text: statement, question: false }, voice, opts);
          if (o.kind === 'memory') {
            keepOutcome(o);
            side++;
          }
        }
        if (side === 0 && outcome.reason === 'question' && !voice.named && questionSpeaksOfUser(clause.text)) {
          keep(index, askedMemory(clause.text));
          kept++;
        }
      }
    }
    for (const caption of override ? [] : captions) {
      keep(index, { content: captionMemory(caption, voice), category: 'event', importance: 0.4, confidence: 0.9 });
      kept++;
    }
    if (kept === 0 && !voice.named && !override) {
      const answer = shortAnswer(input.messages, index);
      if (answer) keep(index, answer);
    }
  });

  return {
    memories: [...byContent.values()],
    metadata: {
      provider: 'builtin',
      sentences_considered: sentencesConsidered,
      skipped,
      compositional_pass_attempted: false,
      compositional_pass_used: false,
      compositional_entities: 0,
      compositional_relationships: 0,
      compositional_error: null,
    },
  };
}

export class BuiltinExtractor implements ExtractionProvider {
  readonly name = 'builtin';

  async extract(input: ExtractionInput): Promise<ExtractionResult> {
    return extractMemories(input);
  }
}
