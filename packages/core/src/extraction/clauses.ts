/**
 * Sentence and clause splitting for the built-in extractor: a message becomes sentences (. ! ? …, newlines, bullets),
 * a sentence becomes clauses at ", and I", " but I ", "; ", comma splices that open a new first-person or "we"
 * subject, a question's statement part, a leading role ("As a nurse, …") and an elided second verb
 * ("I'm exhausted today, just got back from a 10K" → "I just got back …").
 */
import { FIRST_PERSON_START, LEADING_FILLER, ABBREVIATION_END } from './lexicon';
import { companionFirst, roleOf } from './disclosures';
import { isPastForm } from './third-person';


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
/** A subject that opens a clause, not a noun phrase ("…: my own dance studio"). */
const PRONOUN_SUBJ = String.raw`(?:i|i'm|i’m|i've|i’ve|i'd|i’d|i'll|i’ll|we|we're|we’re|we've|we’ve)\b(?!\.)`;
/**
 * ", so" after a comma as a conjunction: what follows is a consequence with a subject of its own ("I'm planning to stay
 * on Oahu, so the parks you named sound perfect"). Not "so that" (a purpose), "so much / many / far / long", "so as to".
 */
const CONSEQUENCE = String.raw`(?<consequence>\s*,\s+so\s+(?!(?:that|much|many|far|long|as|to|too|very|on|forth)\b)(?=[a-z"“'‘]))`;
/**
 * ", and I" / " and I " / " but I " / ", so I" / comma splice ", I …" / a colon before "I" ("Here's the thing: I …") /
 * ", so" before any other consequence (`CONSEQUENCE`).
 */
const CLAUSE_BOUNDARY = new RegExp(
  String.raw`\s*,?\s+(?:and|but|so|and also|but also|plus)\s+(?=${SUBJ})|\s*,\s+(?=${SUBJ})|\s*:\s+(?=${PRONOUN_SUBJ})|${CONSEQUENCE}|` +
    // a request to keep in mind what was just said: "I'm allergic to peanuts, so please keep that in mind"
    String.raw`\s*,\s*(?:so\s+|and\s+)?(?=please\s+(?:keep|bear|remember|note|take)\s+(?:that|this|it)\b)`,
  'gi',
);
/** A name before a colon labels someone else's words in a pasted transcript ("TED FISCHER: We define …"). */
const SPEAKER_LABEL = /^(?:[A-Z][\p{L}.'’-]*\s+){0,2}[A-Z][\p{L}.'’-]*$/u;
/** A short announcement before a colon, with no word about the speaker: "Here's the thing", "Evan, some big news". */
const ANNOUNCEMENT = /^(?:\S+\s+){0,4}\S+$/;
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
const HAS_SELF = /\b(?:i|me|my|mine|myself|we|us|our)\b/i;
const MY_HAS_VERB =
  /\b(?:is|are|was|were|has|had|have|lives|live|works|work|loves|likes|died|passed|got|gets|goes|went|does|did|will|can|'s)\b/i;

export interface Clause {
  text: string;
  question: boolean;
  /** Opened by ", so" before a subject other than the speaker (`CONSEQUENCE`): a statement about the speaker only where it names them. */
  consequence?: boolean;
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

/** Whether a clause opens with the speaker as its subject ("I …", "My parents …", "We …"). */
function startsWithSubject(text: string): boolean {
  const l = text.trim().replace(LEADING_FILLER, '');
  return FIRST_PERSON_START.test(l) || /^(?:we|we're|we've|our)\b/i.test(l);
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
  const parts: { text: string; consequence: boolean }[] = [];
  let questionTail: string | null = null;
  // "As a nurse, how can I …" / "As someone who loves hiking, I …": the role is a statement of its own
  const role = roleOf(sentence.text.replace(LEADING_FILLER, ''));
  // "Alex and I …" is read as "me and Alex …" before it is split at "and I"
  let body = companionFirst(role ? role.rest : sentence.text);
  if (sentence.question) {
    const m = QUESTION_BOUNDARY.exec(body);
    if (m) {
      questionTail = body.slice(m.index + m[0].length);
      body = body.slice(0, m.index);
    }
  }
  for (const semi of body.split(SEMICOLON)) {
    let start = 0;
    let consequence = false;
    CLAUSE_BOUNDARY.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = CLAUSE_BOUNDARY.exec(semi))) {
      const left = semi.slice(start, m.index);
      const comma = !/\b(?:and|but|so|plus)\s*$/i.test(m[0]);
      // a colon after an announcement ("Here's the thing: I don't eat meat"); after a statement of the user's own it
      // stays, the first half being the second's topic ("My writing is going well: I'm in the middle of a novel";
      // builtin.ts `colonClaim` keeps a claim after it apart)
      const colon = m[0].includes(':');
      if (left.trim() && (colon ? !startsWithSubject(left) && !SPEAKER_LABEL.test(left.trim()) : leftAllowsSplit(left, comma))) {
        // a short announcement says nothing of its own ("Evan, some big news: I'm on a diet")
        if (!(colon && ANNOUNCEMENT.test(left.trim()) && !HAS_SELF.test(left))) parts.push({ text: left, consequence });
        start = m.index + m[0].length;
        // ", so I …" is matched by the first alternative: only another subject is a consequence
        consequence = m.groups?.consequence !== undefined;
      }
      if (m[0].length === 0) CLAUSE_BOUNDARY.lastIndex++;
    }
    parts.push({ text: semi.slice(start), consequence });
  }
  const clauses: Clause[] = role ? [{ text: role.statement, question: false }] : [];
  for (const part of parts) {
    const t = part.text.trim();
    if (!t) continue;
    for (const piece of splitEllipsis(t)) clauses.push(part.consequence ? { text: piece, question: false, consequence: true } : { text: piece, question: false });
  }
  if (questionTail !== null) clauses.push({ text: questionTail.trim(), question: true });
  else if (sentence.question && clauses.length > 0) clauses[clauses.length - 1].question = true;
  return clauses;
}
