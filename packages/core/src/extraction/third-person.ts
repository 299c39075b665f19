/**
 * First-person → third-person rewriting for the built-in extractor.
 *
 * "I'm a vegetarian" → "The user is a vegetarian."; "My sister lives in Porto" → "The user's sister
 * lives in Porto."; "I don't eat meat" → "The user does not eat meat.".
 *
 * Plain string/regex work only: deterministic and fast. All regexes are compiled once at module load.
 */
import { IRREGULAR_PASTS } from '../text/irregular-verbs';
import { conjugateCoordinated } from './coordinated-verbs';

/** Adverbs that may sit between "I" and its verb; they are kept before the conjugated verb. */
export const PRE_VERB_ADVERBS = new Set([
  'usually',
  'always',
  'often',
  'really',
  'also',
  'still',
  'never',
  'sometimes',
  'just',
  'actually',
  'mostly',
  'rarely',
  'generally',
  'normally',
  'typically',
  'definitely',
  'truly',
  'absolutely',
  'totally',
  'seriously',
  'honestly',
  'currently',
  'recently',
  'finally',
  'already',
  'even',
  'only',
  'basically',
  'literally',
  'now',
  'probably',
  'maybe',
  'seldom',
  'occasionally',
  'frequently',
  'barely',
  'hardly',
  'mainly',
  'kinda',
  'sorta',
  'ever',
  'once',
  'almost',
  'sure',
]);

/** Verbs that end in "-ly" like an adverb ("I apply", "I rely on"). */
const LY_VERB = /^(?:(?:re|mis)?apply|reply|(?:re)?supply|comply|imply|multiply|rely|fly|ally|rally|tally|bully|sully|dally)$/;

/**
 * Whether a word between "I" and its verb is an adverb kept before the verb: the listed ones, and any other
 * "-ly" word that is not a verb ("I eventually get", "I gradually moved"), lower case.
 */
export function isPreVerbAdverb(word: string): boolean {
  return PRE_VERB_ADVERBS.has(word) || (word.length >= 5 && word.endsWith('ly') && !LY_VERB.test(word));
}

const MODALS = new Set(['can', 'could', 'will', 'would', 'should', 'might', 'must', 'may', 'shall', 'cannot']);

/** Same form in present and past: conjugate unless a past time marker is present. */
export const AMBIGUOUS_PAST = new Set(['read', 'put', 'set', 'cut', 'hit', 'let', 'hurt', 'cost', 'beat', 'bet', 'shut', 'spread', 'lay', 'bore']);

/**
 * Past forms that must not be conjugated: the simple past of the irregular verbs whose past differs from their base
 * (text/irregular-verbs.ts: "I drew it" is not "draws"), less those that are also a common base verb ("lay", "bore"),
 * and a few regular ones kept from before.
 */
export const IRREGULAR_PAST: ReadonlySet<string> = new Set([
  ...[...IRREGULAR_PASTS].filter((past) => !AMBIGUOUS_PAST.has(past)),
  ...['used', 'born', 'moved', 'finished', 'graduated'],
]);

/**
 * Prefixes that make a new verb of an irregular one with the same past ("retook", "overslept", "withdrew"), less
 * the present verbs that only look so ("I resent the rules", "I relent", "I rebound quickly").
 */
const PAST_PREFIX = /^(?!(?:resent|relent|rebound)$)(?:re|over|under|out|mis|fore|with|up)(?=[a-z]{3})/;

/** "-ed" words that are really present-tense verbs. */
const EED_PRESENT = /^(?:need|feed|seed|bleed|breed|speed|proceed|exceed|succeed|heed|weed|shred|wed|embed)$/;

export function isPastForm(word: string): boolean {
  const w = word.toLowerCase();
  if (IRREGULAR_PAST.has(w) || IRREGULAR_PAST.has(w.replace(PAST_PREFIX, ''))) return true;
  if (w.length > 3 && w.endsWith('ed') && !EED_PRESENT.test(w)) return true;
  return false;
}

const ES_ENDING = /(?:s|sh|ch|x|z|o)$/i;
const CONSONANT_Y = /[^aeiou]y$/i;

/** Third-person singular present form of a base verb. */
export function conjugate(verb: string): string {
  const w = verb.toLowerCase();
  switch (w) {
    case 'be':
    case 'am':
    case 'are':
      return 'is';
    case 'have':
      return 'has';
    case 'do':
      return 'does';
    case 'go':
      return 'goes';
    case 'were':
      return 'was';
  }
  if (ES_ENDING.test(verb)) return verb + 'es';
  if (CONSONANT_Y.test(verb)) return verb.slice(0, -1) + 'ies';
  return verb + 's';
}

/** Spoken forms directly after "I" ("I wanna help", "I gotta go"), said in full; a bare "been" takes "has". */
const SPOKEN: ReadonlyMap<string, string> = new Map([
  ['wanna', 'wants to'],
  ['gotta', 'has to'],
  ['gonna', 'is going to'],
]);

/** Words that are no verb where one was expected ("I sure with your help" for "I'm sure"): left as written. */
const NOT_A_VERB = new Set(['with', 'in', 'on', 'at', 'to', 'for', 'of', 'from', 'about', 'the', 'a', 'an', 'and', 'but', 'or', 'so', 'too']);

/** Negative contractions directly after "I" (and after its adverbs). */
const NEGATIONS: Record<string, string> = {
  "don't": 'does not',
  dont: 'does not',
  "didn't": 'did not',
  didnt: 'did not',
  "can't": 'cannot',
  cant: 'cannot',
  "won't": 'will not',
  wont: 'will not',
  "haven't": 'has not',
  havent: 'has not',
  "hadn't": 'had not',
  hadnt: 'had not',
  "wasn't": 'was not',
  wasnt: 'was not',
  "wouldn't": 'would not',
  wouldnt: 'would not',
  "couldn't": 'could not',
  couldnt: 'could not',
  "shouldn't": 'should not',
  shouldnt: 'should not',
  "mustn't": 'must not',
  "ain't": 'is not',
  "aren't": 'is not',
  "weren't": 'was not',
};

const I_D_HAD_NEXT = /^(?:been|never|already|just|had|gone|done|seen|known|lived|worked|wanted|forgotten)$/i;

/** Split off leading word and trailing rest. */
export function firstWord(s: string): [string, string] {
  const m = /^(\S+)(\s*)([\s\S]*)$/.exec(s);
  if (!m) return ['', ''];
  return [m[1], m[3]];
}

/**
 * Given the text following an "I" subject, return the verb phrase in third person.
 * `hasPastMarker` helps with verbs like "read" that look the same in present and past.
 */
export function conjugatePredicate(rest: string, hasPastMarker: boolean): string {
  const out: string[] = [];
  let remaining = rest;
  // keep adverbs (including "kind of"/"sort of") before the verb
  for (let guard = 0; guard < 6; guard++) {
    const [w, r] = firstWord(remaining);
    if (!w) break;
    const lw = w.toLowerCase();
    if (isPreVerbAdverb(lw)) {
      out.push(w);
      remaining = r;
      continue;
    }
    if ((lw === 'kind' || lw === 'sort') && /^of\b/i.test(r)) {
      out.push(w, 'of');
      remaining = r.replace(/^of\s*/i, '');
      continue;
    }
    // "I no longer work at Acme" → "no longer works"
    if (lw === 'no' && /^longer\b/i.test(r)) {
      out.push(w, 'longer');
      remaining = r.replace(/^longer\s*/i, '');
      continue;
    }
    break;
  }
  const [word, after] = firstWord(remaining);
  if (!word) return out.join(' ');
  // a verb that ends the clause keeps its punctuation apart: "doing what I love." → "doing what the user loves."
  const ending = /^([a-z][a-z-]*)([.,;:!?…)]+)$/i.exec(word);
  const verb = ending ? ending[1] : word;
  const lv = verb.toLowerCase();
  let conj: string;
  let tail = after;
  /** Whether the verb was conjugated as a present ("brings"), not negated, spoken, modal or past. */
  let present = false;
  if (lv in NEGATIONS) {
    conj = NEGATIONS[lv];
  } else if (lv === 'been') {
    // "I just been busy" → "has just been busy"
    out.unshift('has');
    conj = verb;
  } else if (SPOKEN.has(lv)) {
    conj = SPOKEN.get(lv) as string;
  } else if (lv === 'do' && /^not\b/i.test(after)) {
    conj = 'does';
  } else if (MODALS.has(lv) || isPastForm(lv)) {
    conj = verb;
  } else if (AMBIGUOUS_PAST.has(lv)) {
    present = !hasPastMarker;
    conj = present ? conjugate(verb) : verb;
  } else if (lv === 'quit') {
    conj = verb;
  } else if (/^[a-z][a-z-]*$/i.test(verb) && !NOT_A_VERB.has(lv)) {
    present = true;
    conj = conjugate(verb);
  } else {
    conj = verb; // numbers, punctuation: leave alone
  }
  // "I bring a book and just chill": a present verb's coordinated second verb is conjugated too
  if (present) tail = conjugateCoordinated(tail, conjugate, isPreVerbAdverb);
  out.push(ending ? conj + ending[2] : conj);
  if (tail) out.push(tail);
  return out.join(' ');
}

// Subject forms at the very start of a clause.
const START_IM = /^(?:i'm|i am|im)\b\s*/i;
const START_IVE = /^(?:i've|ive)\b\s*/i;
const START_ILL = /^i'll\b\s*/i;
const START_ID = /^i'd\b\s*/i;
const START_I = /^i\b\s*/i;
const START_MY = /^my\b\s*/i;
const START_ME_AND = /^me and\b\s*/i;

// Later occurrences inside the clause.
const LATER_IM = /\b(and |or )?(?:I'm|I am|i'm|i am)\b/g;
const LATER_IVE = /\b(?:I've|i've)\b/g;
const LATER_ILL = /\b(?:I'll|i'll)\b/g;
const LATER_ID = /\b(?:I'd|i'd)\b/g;
/** "I" later in the clause with its verb, and up to two adverbs before it ("that I always forget", "when I eventually get"). */
const LATER_I = new RegExp(String.raw`\b(and |or |than )?[Ii]\b(?!'|\.e)(\s+)((?:(?:[a-z]+ly|${[...PRE_VERB_ADVERBS].join('|')})\s+){0,2}\S+)`, 'g');
/** A question's auxiliary before "I": "should I pack" → "should the user pack", "do I need" → "does the user need". */
const LATER_AUX_I = /\b(do|am|have|were|did|was|had|can|could|should|would|will|shall|may|might|must)\s+[Ii]\b(?!'|\.e)/gi;
const AUX_AGREE: Record<string, string> = { do: 'does', am: 'is', have: 'has', were: 'was' };
const LATER_I_END = /\b[Ii]\b(?!'|\.e)/g;
const LATER_MY = /\bmy\b/gi;
const LATER_ME = /\bme\b/gi;
const LATER_MYSELF = /\bmyself\b/gi;
const LATER_MINE = /\bmine\b/gi;

const TRAILING_PUNCT = /[\s.,;:!?…\-–—]+$/;

/** The speaker named anywhere in a text ("I", "me", "my", … also inside "I'm", "I've"). */
export const HAS_SELF = /\b(?:i|me|my|mine|myself)\b/i;

/** Marks where a subject the user shares ends ("my wife and I| keep"), for `withSharedSubject`. */
const SHARED = '\u0000';

/**
 * "We", "us" and "our" as "they", "them" and "their": after a subject the user shares with someone ("my wife Sarah
 * and I", "me and Sarah") they are that pair ("… keep bees in our garden" → "… keep bees in their garden"), and
 * after a "we" subject the group it named (pronouns.ts `rewriteWe`).
 */
export function firstPluralAsThird(s: string): string {
  return s
    .replace(/\bwe(?:'re|’re)\b/gi, 'they are')
    .replace(/\bwe(?:'ve|’ve)\b/gi, 'they have')
    .replace(/\bwe\b/gi, 'they')
    .replace(/\bourselves\b/gi, 'themselves')
    .replace(/\bours\b/gi, 'theirs')
    .replace(/\bour\b/gi, 'their')
    .replace(/\bus\b/g, 'them');
}

function withSharedSubject(s: string): string {
  const at = s.indexOf(SHARED);
  return at < 0 ? s : s.slice(0, at) + firstPluralAsThird(s.slice(at + 1).replaceAll(SHARED, ''));
}

/** First-person references anywhere in `s` rewritten to "the user" (see toThirdPerson for the subject). */
export function rewriteLater(s: string, hasPastMarker: boolean): string {
  if (!HAS_SELF.test(s)) return s;
  return withSharedSubject(rewriteFirstPerson(s, hasPastMarker));
}

function rewriteFirstPerson(s: string, hasPastMarker: boolean): string {
  let r = s;
  r = r.replace(LATER_IM, (_m, conj: string | undefined) => (conj ? `${conj}the user is` : 'the user is'));
  r = r.replace(LATER_IVE, 'the user has');
  r = r.replace(LATER_ILL, 'the user will');
  r = r.replace(LATER_ID, 'the user would');
  r = r.replace(LATER_AUX_I, (_m, aux: string) => {
    const v = AUX_AGREE[aux.toLowerCase()];
    return `${v ? (/^[A-Z]/.test(aux) ? v.charAt(0).toUpperCase() + v.slice(1) : v) : aux} the user`;
  });
  r = r.replace(LATER_I, (_m, conj: string | undefined, sp: string, next: string) => {
    // "my wife and I live" – plural verb stays, and "our" after it is the pair's
    if (conj) return `${conj}the user${conj === 'and ' ? SHARED : ''}${sp}${next}`;
    return `the user ${conjugatePredicate(next, hasPastMarker)}`;
  });
  r = r.replace(LATER_I_END, 'the user');
  r = r.replace(LATER_MYSELF, 'themselves');
  r = r.replace(LATER_MINE, "the user's");
  r = r.replace(LATER_MY, "the user's");
  r = r.replace(LATER_ME, 'the user');
  return r;
}

/**
 * Rewrite a clause that starts with a first-person subject into "The user …." form.
 * Returns null if the clause does not start with a first-person subject.
 */
export function toThirdPerson(clause: string, hasPastMarker = false, subject = 'The user'): string | null {
  const out = toUserForm(clause, hasPastMarker);
  return out === null ? null : renameUser(out, subject);
}

/** "The user" → the speaker's name ("The user's sister" → "Caroline's sister"). */
export function renameUser(text: string, subject: string): string {
  if (subject === 'The user') return text;
  return text.replace(/\b[Tt]he user\b/g, subject);
}

function toUserForm(clause: string, hasPastMarker: boolean): string | null {
  let s = clause.trim().replace(TRAILING_PUNCT, '');
  let head: string;
  let rest: string;
  let m: RegExpExecArray | null;
  if ((m = START_IM.exec(s))) {
    head = 'The user is';
    rest = s.slice(m[0].length);
    // "I'm into cars and love making models"; not after a participle ("I'm going to the shop and buy milk")
    if (!/^\S*ing\b/i.test(rest)) rest = conjugateCoordinated(rest, conjugate, isPreVerbAdverb);
  } else if ((m = START_IVE.exec(s))) {
    head = 'The user has';
    rest = s.slice(m[0].length).replace(/^got\s+(?!to\b)/i, '');
  } else if ((m = START_ILL.exec(s))) {
    head = 'The user will';
    rest = s.slice(m[0].length);
  } else if ((m = START_ID.exec(s))) {
    rest = s.slice(m[0].length);
    const [next] = firstWord(rest);
    head = I_D_HAD_NEXT.test(next) ? 'The user had' : 'The user would';
  } else if ((m = START_ME_AND.exec(s))) {
    head = 'The user and';
    // "me and Sarah renovated our kitchen": the pair's kitchen
    rest = firstPluralAsThird(s.slice(m[0].length));
  } else if ((m = START_MY.exec(s))) {
    head = "The user's";
    rest = s.slice(m[0].length);
  } else if ((m = START_I.exec(s))) {
    rest = s.slice(m[0].length);
    const pred = conjugatePredicate(rest, hasPastMarker);
    head = 'The user';
    rest = pred;
  } else {
    return null;
  }
  rest = rewriteLater(rest, hasPastMarker);
  s = rest ? `${head} ${rest}` : head;
  s = s.replace(/\s+/g, ' ').replace(TRAILING_PUNCT, '');
  return s + '.';
}
