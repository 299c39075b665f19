/**
 * Who "she", "he", "they" and "we" are in a user's statement, for the built-in extractor (unnamed user only).
 *
 * The cause: people name someone once ("my wife Sarah") and then go on with pronouns ("She's allergic to
 * shellfish."); a clause that starts with "she" was skipped as "no self-reference", and a "we" clause was
 * kept as an unreadable quote ("The user said that we've got …").
 *
 * | statement (after a mention)                                     | memory                                          |
 * |-----------------------------------------------------------------|-------------------------------------------------|
 * | "My wife Sarah is planning a party." … "She's allergic to shellfish." | "The user's wife Sarah is allergic to shellfish." |
 * | "I have a friend named Alex." … "He moved to Chicago."          | "The user's friend Alex moved to Chicago."       |
 * | "My parents are retired." … "They live in Ohio."                | "The user's parents live in Ohio."               |
 * | "Her name is Luna." after "my cat"                               | "The user's cat's name is Luna."                 |
 * | "My brother and I …" … "We've been climbing for years."         | "The user and the user's brother have been climbing for years." |
 * | "We just shipped the new release." (work words, no one named)   | "The user and their team just shipped the new release." |
 * | "We've got 20 dozen eggs in the fridge." (no one named)         | "The user and their household have got 20 dozen eggs in the fridge." |
 * | "Our landlord raised the rent."                                  | "The user's landlord raised the rent."           |
 *
 * An antecedent is a "my <relation or pet> [Name]" or "a friend (named) Name" mention in the user's own
 * messages, at most two user messages back; "she" takes the latest female or unspecified one ("my friend",
 * "my boss"), "he" the latest male or unspecified one, "they" the latest plural one, else the latest
 * unspecified one. "It" is never resolved (it is usually a thing). "We" takes a person named earlier in the
 * same message, else the user's team when the clause speaks of work, else the user's household.
 */
import { conjugatePredicate } from './third-person';

type Gender = 'f' | 'm' | 'n';

export interface Antecedent {
  /** First-person phrase that can replace the pronoun: "my wife Sarah". */
  phrase: string;
  gender: Gender;
  plural: boolean;
  pet: boolean;
  /** The message it was mentioned in. */
  message: number;
}

const FEMALE =
  'wife|girlfriend|fianc[eé]e|mother|mom|mum|mommy|mummy|mother-in-law|sister|daughter|grandma|grandmother|granny|granddaughter|aunt|niece|stepdaughter|stepmom|stepmother|ex-wife|ex-girlfriend|sister-in-law|daughter-in-law';
const MALE =
  'husband|boyfriend|fianc[eé]|father|dad|daddy|father-in-law|brother|son|grandpa|grandfather|grandson|uncle|nephew|stepson|stepdad|stepfather|ex-husband|ex-boyfriend|brother-in-law|son-in-law';
const PLURAL =
  'parents|kids|children|in-laws|grandparents|friends|sons|daughters|brothers|sisters|siblings|cousins|colleagues|coworkers|co-workers|roommates|flatmates|neighbors|neighbours|twins|grandkids|grandchildren|dogs|cats|teammates|students|clients';
const NEUTRAL =
  'partner|spouse|best friend|friend|boss|colleague|coworker|co-worker|manager|roommate|flatmate|housemate|neighbor|neighbour|mentor|teammate|cousin|kid|child|baby|toddler|teenager|doctor|therapist|landlord|tutor|coach|student|client';
const PET = 'dog|cat|puppy|kitten|pet|parrot|rabbit|hamster|horse';
const ADJ = String.raw`(?:(?:older|younger|little|big|elder|oldest|youngest|best|baby|twin|new|old|late|step|dear|close|[0-9]+-year-old|[a-z]+-year-old|teenage) )*`;

/** "my (little) sister (, Ana)", "my dog (named) Max": group 1 the relation, group 2 the name. */
const MY_MENTION = new RegExp(
  String.raw`\b[Mm]y ${ADJ}(${PLURAL}|${FEMALE}|${MALE}|${NEUTRAL}|${PET})\b(?:'s)?(?:,? (?:named |called )?([A-Z][\p{L}'-]+(?: [A-Z][\p{L}'-]+)?)(?![\p{L}'-]))?`,
  'gu',
);
/** "a (close) friend (of mine) (named) Alex". */
const A_FRIEND = /\ba (?:good |close |dear |old )?(friend|colleague|coworker|neighbou?r|mentor|classmate) (?:of mine )?(?:named |called )?([A-Z][\p{L}'-]+)/gu;

const isIn = (list: string, word: string) => new RegExp(`^(?:${list})$`).test(word);

function antecedentOf(relation: string, name: string | undefined, message: number): Antecedent {
  const rel = relation.toLowerCase();
  const plural = isIn(PLURAL, rel);
  const pet = isIn(PET, rel);
  const gender: Gender = isIn(FEMALE, rel) ? 'f' : isIn(MALE, rel) ? 'm' : 'n';
  return { phrase: `my ${rel}${name ? ` ${name}` : ''}`, gender, plural, pet, message };
}

/** The people (and pets) a sentence of the user mentions, in order. */
export function mentions(text: string, message: number): Antecedent[] {
  if (!/\b(?:my|a)\b/i.test(text)) return [];
  const found: { at: number; a: Antecedent }[] = [];
  for (const m of text.matchAll(MY_MENTION)) {
    const name = m[2] && !/^(?:I|And|But|So|The|He|She|They|We|It)$/.test(m[2].split(' ')[0]) ? m[2].split(' ').filter((w) => !/^(?:And|But|So|The)$/.test(w)).join(' ') : undefined;
    found.push({ at: m.index ?? 0, a: antecedentOf(m[1], name || undefined, message) });
  }
  for (const m of text.matchAll(A_FRIEND)) found.push({ at: m.index ?? 0, a: antecedentOf(m[1], m[2], message) });
  return found.sort((x, y) => x.at - y.at).map((f) => f.a);
}

/** How far back (in user messages) a pronoun may look for its antecedent. */
const WINDOW = 2;

const PRONOUN_START = /^(she|he|they)(?:'s|’s|'re|’re|'ve|’ve|'ll|’ll|'d|’d)?\b|^(her|his|their)\s+(?=[a-z])/i;
const HAS_PARTICIPLE = /^(?:been|got|gotten|gone|had|done|made|seen|taken|given|become|[a-z]+ed)\b/i;

function pick(antecedents: Antecedent[], pronoun: string, userMessage: number, recentUser: (i: number) => number): Antecedent | null {
  const p = pronoun.toLowerCase();
  for (let i = antecedents.length - 1; i >= 0; i--) {
    const a = antecedents[i];
    if (userMessage - recentUser(a.message) > WINDOW) break;
    if ((p === 'she' || p === 'her') && !a.plural && (a.gender === 'f' || a.gender === 'n')) return a;
    if ((p === 'he' || p === 'his') && !a.plural && (a.gender === 'm' || a.gender === 'n')) return a;
    if ((p === 'they' || p === 'their') && a.plural) return a;
  }
  if (p === 'they' || p === 'their') {
    for (let i = antecedents.length - 1; i >= 0; i--) {
      const a = antecedents[i];
      if (userMessage - recentUser(a.message) > WINDOW) break;
      if (a.gender === 'n' && !a.pet) return a;
    }
  }
  return null;
}

/**
 * A clause that starts with "she"/"he"/"they"/"her"/"his"/"their" rewritten with its antecedent as a
 * first-person statement ("She's allergic to shellfish" → "my wife Sarah is allergic to shellfish"), or null.
 * `ordinal(i)` is the position among the user's messages of message i (the window counts user messages).
 */
export function resolvePronoun(text: string, antecedents: Antecedent[], message: number, ordinal: (i: number) => number): string | null {
  const m = PRONOUN_START.exec(text);
  if (!m || antecedents.length === 0) return null;
  const pronoun = m[1] ?? m[2];
  const a = pick(antecedents, pronoun, ordinal(message), ordinal);
  if (!a) return null;
  const rest = text.slice(m[0].length).trim();
  if (m[2]) return `${a.phrase}'s ${rest}`;
  const contraction = m[0].slice(pronoun.length).replace('’', "'").toLowerCase();
  let predicate: string;
  switch (contraction) {
    case "'s":
      predicate = `${HAS_PARTICIPLE.test(rest) ? 'has' : 'is'} ${rest}`;
      break;
    case "'re":
      predicate = `${a.plural ? 'are' : 'is'} ${rest}`;
      break;
    case "'ve":
      predicate = `${a.plural ? 'have' : 'has'} ${rest}`;
      break;
    case "'ll":
      predicate = `will ${rest}`;
      break;
    case "'d":
      predicate = `${HAS_PARTICIPLE.test(rest) ? 'had' : 'would'} ${rest}`;
      break;
    default:
      // singular "they" takes a singular verb: "they live" → "lives"
      predicate = pronoun.toLowerCase() === 'they' && !a.plural ? conjugatePredicate(rest, false) : rest;
  }
  return `${a.phrase} ${predicate}`;
}

const WE_START = /^(we|our)(?:'re|’re|'ve|’ve|'ll|’ll|'d|’d)?\b/i;
const WORK = /\b(?:team|company|startup|office|project|sprint|client|clients|customers|product|codebase|deploy|deployed|release|launch|launched|quarter|department|colleagues?|coworkers?|employees?|hiring|hired|revenue|platform|business|firm|org|organization|organisation|stakeholders)\b/i;

/** Who "we" is: "The user and the user's brother", "The user and their team", "The user and their household". */
/** "We can learn from history", "we should all recycle": "we" as people in general, not the user's circle. */
export const GENERIC_WE = /^we (?:all |humans |as a society |as people )?(?:can|could|should|need to|must|might|may|have to|tend to|often|all)\b/i;

export function weSubject(text: string, antecedents: Antecedent[], message: number): string {
  const same = antecedents.filter((a) => a.message === message);
  const companion = same[same.length - 1];
  if (companion) return `The user and the user's ${companion.phrase.replace(/^my /, '')}`;
  return WORK.test(text) ? 'The user and their team' : 'The user and their household';
}

/**
 * A clause that starts with "we"/"our" rewritten with the user as part of the subject, or null:
 * "We've got 20 dozen eggs in the fridge" → "The user and their household have got 20 dozen eggs in the fridge".
 * Later "we/us/our" in the clause become "they/them/their"; first-person words are left to rewriteLater.
 */
export function rewriteWe(text: string, subject: string): string | null {
  const m = WE_START.exec(text);
  if (!m) return null;
  const rest = text.slice(m[0].length).trim();
  const contraction = m[0].slice(m[1].length).replace('’', "'").toLowerCase();
  const later = rest
    .replace(/\bwe(?:'re|’re)\b/gi, 'they are')
    .replace(/\bwe(?:'ve|’ve)\b/gi, 'they have')
    .replace(/\bwe\b/gi, 'they')
    .replace(/\bourselves\b/gi, 'themselves')
    .replace(/\bours\b/gi, 'theirs')
    .replace(/\bour\b/gi, 'their')
    .replace(/\bus\b/g, 'them');
  // "our house" is the user's house, whoever else shares it
  if (m[1].toLowerCase() === 'our') return `The user's ${later}`;
  const verb = { "'re": 'are', "'ve": 'have', "'ll": 'will', "'d": HAS_PARTICIPLE.test(rest) ? 'had' : 'would' }[contraction];
  return `${subject}${verb ? ` ${verb}` : ''} ${later}`;
}
