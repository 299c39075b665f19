/**
 * One clause of a user's message → a memory or a skip reason: openers set aside, skip filters (small talk,
 * questions, too short, no self-reference, transient, addressed to the assistant), present time anchored,
 * the third-person rewrite in the speaker's voice ("I'm a vegetarian" → "The user is a vegetarian."),
 * category, importance and confidence (classify.ts). Used by builtin.ts for every clause.
 */
import { isSupportReport } from './support-patterns';
import type { MemoryCategory } from '../categories';
import {
  ADDRESSES_ASSISTANT,
  ANNOUNCES_QUESTION,
  FIRST_PERSON_SMALL_TALK,
  FIRST_PERSON_START,
  HEDGE,
  PAST_MARKER,
  QUESTION_START,
  REDACTED,
  REL_ANY,
} from './lexicon';
import { CONDITIONAL_FRAME, LEADING_FRAME, LEADING_FRAME_NO_COMMA } from './disclosures';
import { DAY_WORD, LEADING_NOW, anchorNow, isMomentary, withAsOf } from './now';
import { GENERIC_WE, rewriteWe } from './pronouns';
import { toAddressee } from './addressee';
import { HAS_SELF, renameUser, rewriteLater, toThirdPerson } from './third-person';
import { type Clause } from './clauses';
import { isSmallTalk, normalise, stripFillers } from './normalise';
import { categorise, importanceOf, wordCount } from './classify';
import { isReaction } from './reactions';
import { withDroppedSubject } from './dropped-subject';

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
  | 'instruction'
  | 'reaction';


export type ClauseOutcome =
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

export const DEFAULT_VOICE: Voice = { subject: 'The user', addressee: null, named: false };

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
/**
 * "Tom got promoted", "Anna and Luis moved to Porto", "Dr. Patel prescribed …", "Maria Lopez moved …": a capitalised
 * subject (a title, a surname) followed by a verb-like word.
 */
const NAMED_SUBJECT = /^((?:(?:Dr|Mr|Mrs|Ms|Prof)\.? )?[A-Z][\p{L}'-]+)(?: [A-Z][\p{L}'-]+)?(?: (?:and|&) [A-Z][\p{L}'-]+)? (?:is|was|has|had|got|gets|will|just|also|still|loves|likes|lives|works|moved|started|said|told|went|came|took|made|bought|won|lost|passed|died|married|[a-z]+ed|[a-z]+s)\b/u;
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

/**
 * A leading reason whose body is the speaker's own statement: "Since I've been …", "Because my …", "Now that I …"
 * ("Since we were discussing …" is about the conversation: not kept).
 */
const REASON_FRAME = /^(?:since|because|as|now that)\s+((?:i|i'm|i’m|i've|i’ve|my)\s.+)$/i;

export function analyseClause(clause: Clause, voice: Voice = DEFAULT_VOICE, opts: ClauseOptions = {}): ClauseOutcome {
  const raw = clause.text.trim();
  if (REDACTED.test(raw)) return { kind: 'skip', reason: 'redacted_secret' };
  if (isSmallTalk(raw)) return { kind: 'skip', reason: 'small_talk' };
  const stripped = stripFillers(raw);
  const { hedged } = stripped;
  // "Been busy with the garden", "Gonna move in May": the left-out "I" put back (dropped-subject.ts)
  let text = withDroppedSubject(stripped.text);
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
  // the pronouns like the one resolved name the same thing again ("… keeping them under my bed, and they're …")
  const sameReferent = resolved ? resolvedPronouns(text, resolved) : null;
  if (resolved) text = resolved;
  const norm = normalise(text);
  if (ANNOUNCES_QUESTION.test(norm)) {
    // "Since I've been taking classes for a while, I'm curious, …": the reason is the statement
    const reason = REASON_FRAME.exec(timePrefix);
    return reason ? analyseClause({ text: reason[1], question: false }, voice, opts) : { kind: 'skip', reason: 'small_talk' };
  }
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
    // "…, so the parks you named sound perfect for me": a consequence is about the user only where it names them
    const own = !voice.named && (OWN_SUBJECT.test(text) || (Boolean(clause.consequence) && HAS_SELF.test(text)));
    const keep = voice.named ? wordCount(norm) >= 4 : REPORTED_START.test(text) || namedSubject(text) || support || own;
    if (!keep) return { kind: 'skip', reason: 'no_self_reference' };
    // "Wow, that looks awesome", "Congrats on the new job": a reaction to the other speaker (reactions.ts)
    if (voice.named && isReaction(text)) return { kind: 'skip', reason: 'reaction' };
    const category = support ? 'event' : REL_ANY.test(norm) ? 'relationship' : pastMarker ? 'event' : 'fact';
    return {
      kind: 'memory',
      content: withTime(own ? endSentence(rewriteLater(text, pastMarker)) : reported(text, voice, pastMarker), prefix),
      category,
      importance: Math.min(importanceOf(norm, category, text), 0.6),
      confidence: hedgedAny ? 0.5 : 0.75,
      refersBack: refersBack(text, sameReferent),
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
    refersBack: refersBack(text, sameReferent),
  };
}

/** "Yesterday" + "Caroline went to a support group." → "Yesterday, Caroline went to a support group." */
function withTime(content: string, timePrefix: string): string {
  if (!timePrefix) return content;
  const t = timePrefix.charAt(0).toUpperCase() + timePrefix.slice(1);
  // "The user" is lower-cased after the comma; a name stays as it is
  return `${t}, ${content.replace(/^The user\b/, 'the user')}`;
}

/** A reference a statement cannot be read without: "I painted this", "it was amazing", "we did it there". */
const NEEDS_CONTEXT = /\b(?:this|that|it|these|those|they|them|there)\b/i;
/** "these days", "this week": times, not references back. */
const DEICTIC_TIME = /\b(?:these days|this (?:morning|afternoon|evening|week|weekend|month|year))\b/gi;
/** "there is / are / was …": something exists, no place the other speaker named. */
const EXISTENTIAL_THERE = /\bthere(?:['’]s|['’]re| is| are| was| were| will be| would be| has been| have been| had been| might be| may be| seems? to be| used to be)\b/gi;
/**
 * "I heard that there …", "so that I …": "that" opens a clause of the statement itself and points at nothing. At
 * the end ("I heard that.") it is the thing the other speaker said.
 */
const CLAUSE_THAT =
  /\b(?:think|thinks|thought|know|knows|knew|hear|heard|find|finds|found|feel|feels|felt|believe[sd]?|reali[sz]e[sd]?|notice[sd]?|hope[sd]?|say|says|said|learn(?:s|ed|t)?|read|glad|sure|seems?|seemed|means?|meant|figured?|decided?|understand|understood|remember(?:s|ed)?|guess(?:ed)?|wish(?:es|ed)?|so|now|given|except|such|proud|happy|grateful|thankful|aware|amazed|surprised)\s+that\b(?=\s+\w)/gi;
/** The personal pronouns of the message's own things: "they"/"them" of a plural, "it" of a singular. */
const PLURAL_PRONOUN = /\b(?:they|them)\b/gi;
const SINGULAR_PRONOUN = /\bit\b/gi;
const count = (text: string, re: RegExp) => text.match(re)?.length ?? 0;

/**
 * The pronouns a resolution replaced (`resolvePronoun` named their antecedent, said earlier by the user): the
 * same pronoun later in the clause names the same thing, not something the other speaker said.
 */
function resolvedPronouns(before: string, after: string): RegExp | null {
  if (count(after, PLURAL_PRONOUN) < count(before, PLURAL_PRONOUN)) return PLURAL_PRONOUN;
  if (count(after, SINGULAR_PRONOUN) < count(before, SINGULAR_PRONOUN)) return SINGULAR_PRONOUN;
  return null;
}

/** Whether the statement points at something the other speaker said; `own`: pronouns that name the user's own referent. */
export const refersBack = (text: string, own: RegExp | null = null) => {
  const rest = text.replace(DEICTIC_TIME, '').replace(EXISTENTIAL_THERE, '').replace(CLAUSE_THAT, '');
  return NEEDS_CONTEXT.test(own ? rest.replace(own, '') : rest);
};
