/**
 * The built-in, rule-based extraction provider: fast (well under 1 ms for a short conversation),
 * deterministic, no external services and no NLP libraries.
 *
 * Pipeline: user messages → sentences (. ! ? newlines) → clauses (", and I", " and I ", "; ",
 * " but I ", comma splices that start a new first-person subject) → skip filters → third-person
 * rewrite ("I'm a vegetarian" → "The user is a vegetarian.") → category, importance, confidence.
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
import { isSupportReport } from '../domains/support-patterns';
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
  TRANSIENT_JUST,
  TRANSIENT_MOOD,
  TRANSIENT_STATE,
  TRANSIENT_TIME,
  ABBREVIATION_END,
} from './lexicon';
import { resolveRelativeDates } from './dates';
import { nounPhrases } from './entities';
import { AMBIGUOUS_PAST, PRE_VERB_ADVERBS, isPastForm, renameUser, rewriteLater, toThirdPerson } from './third-person';
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
  | 'addressed_to_assistant';

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

const SUBJ = String.raw`(?:i|i'm|i’m|i've|i’ve|i'd|i’d|i'll|i’ll|im|ive|my)\b(?!\.)`;
/** ", and I" / " and I " / " but I " / ", so I" / comma splice ", I …". */
const CLAUSE_BOUNDARY = new RegExp(String.raw`\s*,?\s+(?:and|but|so|and also|but also|plus)\s+(?=${SUBJ})|\s*,\s+(?=${SUBJ})`, 'gi');
const SEMICOLON = /\s*;\s+/;
/** Inside a question sentence: ", what should I cook?" starts the question part. */
const QUESTION_BOUNDARY =
  /\s*,\s*(?=(?:so |and |but )?(?:can|could|would|will|what|whats|what's|how|why|when|where|who|which|do|does|did|is|are|should|any|thoughts|ideas)\b)/i;
const MY_HAS_VERB =
  /\b(?:is|are|was|were|has|had|have|lives|live|works|work|loves|likes|died|passed|got|gets|goes|went|does|did|will|can|'s)\b/i;

interface Clause {
  text: string;
  question: boolean;
}

function leftAllowsSplit(left: string, comma: boolean): boolean {
  const l = left.trim().replace(LEADING_FILLER, '');
  const startsFirst = FIRST_PERSON_START.test(l);
  const startsMy = /^(?:my|me and)\b/i.test(l);
  if (startsMy) return MY_HAS_VERB.test(l.replace(/^my\s+\S+/i, ''));
  if (startsFirst) return l.split(/\s+/).length >= 2;
  if (comma) return false;
  return l.split(/\s+/).length >= 3;
}

export function splitClauses(sentence: Sentence): Clause[] {
  const parts: string[] = [];
  let questionTail: string | null = null;
  let body = sentence.text;
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
  const clauses: Clause[] = parts.map((t) => t.trim()).filter(Boolean).map((text) => ({ text, question: false }));
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
    s = s.replace(LEADING_FILLER, '');
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

export function categorise(norm: string): MemoryCategory {
  if (REL_SUBJECT.test(norm)) return 'relationship';
  if (!/\bborn\b/.test(norm) && PAST_MARKER.test(norm) && firstVerbIsPast(norm)) return 'event';
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

function isTransient(norm: string): boolean {
  return TRANSIENT_TIME.test(norm) || TRANSIENT_MOOD.test(norm) || TRANSIENT_STATE.test(norm) || TRANSIENT_JUST.test(norm);
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
  if (!addressee) return text;
  return text
    .replace(/\byou(?:'re| are)\b/gi, `${addressee} is`)
    .replace(/\byou(?:'ve| have)\b/gi, `${addressee} has`)
    .replace(/\byou were\b/gi, `${addressee} was`)
    .replace(/\byou'll\b/gi, `${addressee} will`)
    .replace(/\byou'd\b/gi, `${addressee} would`)
    .replace(/\byours\b/gi, `${addressee}'s`)
    .replace(/\byour\b/gi, `${addressee}'s`)
    .replace(/\byourself\b/gi, addressee)
    .replace(/\byou\b/gi, addressee);
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
}

export function analyseClause(clause: Clause, voice: Voice = DEFAULT_VOICE, opts: ClauseOptions = {}): ClauseOutcome {
  const raw = clause.text.trim();
  if (REDACTED.test(raw)) return { kind: 'skip', reason: 'redacted_secret' };
  if (isSmallTalk(raw)) return { kind: 'skip', reason: 'small_talk' };
  const stripped = stripFillers(raw);
  const { hedged } = stripped;
  let text = stripped.text;
  if (!text || (text !== raw && isSmallTalk(text))) return { kind: 'skip', reason: 'small_talk' };
  let timePrefix = '';
  const lead = LEADING_TIME.exec(text);
  if (lead) {
    timePrefix = lead[1];
    text = text.slice(lead[0].length);
  }
  const norm = normalise(text);
  if (clause.question || QUESTION_START.test(norm)) return { kind: 'skip', reason: 'question' };
  if (FIRST_PERSON_SMALL_TALK.test(norm)) return { kind: 'skip', reason: 'small_talk' };
  if (wordCount(norm) < 3) return { kind: 'skip', reason: 'too_short' };
  const pastMarker = Boolean(timePrefix) || PAST_MARKER.test(norm);
  const hedgedAny = hedged || HEDGE.test(norm);
  if (!FIRST_PERSON_START.test(text)) {
    // Statements about others and shared events: every informative one from a named speaker, and
    // without a name those about named people or "we".
    const support = Boolean(opts.supportReports) && isSupportReport(text);
    const keep = voice.named ? wordCount(norm) >= 4 : REPORTED_START.test(text) || namedSubject(text) || support;
    if (!keep) return { kind: 'skip', reason: 'no_self_reference' };
    const category = support ? 'event' : REL_ANY.test(norm) ? 'relationship' : pastMarker ? 'event' : 'fact';
    return {
      kind: 'memory',
      content: withTime(reported(text, voice, pastMarker), timePrefix),
      category,
      importance: Math.min(importanceOf(norm, category, text), 0.6),
      confidence: hedgedAny ? 0.5 : 0.75,
      refersBack: NEEDS_CONTEXT.test(text),
    };
  }
  if (!voice.named && isTransient(norm)) return { kind: 'skip', reason: 'transient' };
  if (!voice.named && ADDRESSES_ASSISTANT.test(norm)) return { kind: 'skip', reason: 'addressed_to_assistant' };
  let content = toThirdPerson(text, pastMarker, voice.subject);
  if (!content) return { kind: 'skip', reason: 'no_self_reference' };
  if (voice.named) content = rewriteAddressee(content, voice.addressee);
  const category = categorise(norm);
  return {
    kind: 'memory',
    content: withTime(content, timePrefix),
    category,
    importance: importanceOf(norm, category, text.replace(/[.!]+$/, '')),
    confidence: hedgedAny ? 0.5 : 0.9,
    refersBack: NEEDS_CONTEXT.test(text),
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
  input.messages.forEach((message, index) => {
    if (message.role !== 'user') {
      bump(message.role === 'assistant' ? 'assistant_turn' : 'system_turn');
      return;
    }
    if (typeof message.content !== 'string' || !message.content.trim()) return;
    const name = message.name?.trim();
    const voice: Voice = name ? { subject: name, addressee: addresseeOf(input.messages, index), named: true } : DEFAULT_VOICE;
    const { text, captions } = splitCaptions(message.content);
    let context: ReplyContext | null | undefined;
    for (const sentence of splitSentences(text)) {
      sentencesConsidered++;
      for (const clause of splitClauses(sentence)) {
        const outcome = analyseClause(clause, voice, clauseOptions);
        if (outcome.kind === 'skip') {
          bump(outcome.reason);
          continue;
        }
        const { refersBack, ...memory } = outcome;
        if (context === undefined && (refersBack || voice.named)) context = replyContext(input.messages, index);
        // between people every answer keeps its question; to an assistant, only a statement that refers back
        const needs = context != null && (refersBack || (voice.named && context.questions.length > 0));
        keep(index, { ...memory, content: needs && context ? withContext(memory.content, context) : memory.content });
      }
    }
    for (const caption of captions) {
      keep(index, { content: captionMemory(caption, voice), category: 'event', importance: 0.4, confidence: 0.9 });
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
