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
 * | "I just got a new bike." … "It's a Trek Domane."                 | "The user's new bike is a Trek Domane."          |
 * | "I bought a standing desk last week and I'm really happy with it." | "The user is really happy with the user's standing desk." |
 * | "We adopted a cat last month." … "She's called Miso."           | "The user's cat is called Miso."                 |
 * | "I also got a new bookshelf." … "The new bookshelf is from IKEA." | "The user's new bookshelf is from IKEA."        |
 * | "I need to clean my old boots, I've been keeping them in the garage." | "The user has been keeping the user's old boots in the garage." |
 * | "I bought a new kayak. I keep it at the marina." | "The user keeps the user's new kayak at the marina." |
 * | "I ordered some house plants. I've been watering them daily." | "The user has been watering the user's house plants daily." |
 *
 * An antecedent is a "my <relation or pet> [Name]" or "a friend (named) Name" mention in the user's own
 * messages, at most two user messages back; "she" takes the latest female or unspecified one ("my friend",
 * "my boss"), "he" the latest male or unspecified one, "they" the latest plural one, else the latest
 * unspecified one. "We" takes a person named earlier in the same message, else the user's team when the clause
 * speaks of work, else the user's household.
 *
 * "It" takes a thing the user just said they got: "my new/old/current <thing>", "I bought / ordered / adopted
 * / built a <thing>" (a plural thing also with "some" or no article: "I bought new running shoes"), or "I got / received / switched to a new <thing>" (a pet also after "got a", and it is
 * then "she"/"he" too), in the same message or the user's message before; at most four words, cut at a time,
 * a preposition or a conjunction ("a standing desk last week" → "my standing desk"). It is resolved at the
 * start of a clause when a description follows ("It's a Trek Domane", "It has a 10-hour battery"), and as the
 * object of a verb of liking, using, keeping or handling or after "with" ("I love it", "I'm really happy with it",
 * "I keep it in the garage", "I'm selling it"). "It" that
 * stands for nothing stays: "it's been", "it's time", "it's hard to …", "it's great that …", "it's a great way to
 * …", "I love it when …", "I made it", "I got it". "Got a call / a chance / an email" is not a thing the user has,
 * nor is "a bunch / a pair of".
 */
import { isOccupation } from '../text/occupations';
import { conjugatePredicate, firstPluralAsThird } from './third-person';

type Gender = 'f' | 'm' | 'n';

export interface Antecedent {
  /** First-person phrase that can replace the pronoun: "my wife Sarah". */
  phrase: string;
  gender: Gender;
  plural: boolean;
  pet: boolean;
  /** The message it was mentioned in. */
  message: number;
  /** A thing ("my new bike"), only ever "it" (a pet is "it", "she" and "he"). */
  thing?: boolean;
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

/** A person's name after a relation, with a title if any: "Ana", "Luis Ortega", "Dr. Okafor". */
const NAME = String.raw`((?:(?:Dr|Mr|Mrs|Ms|Prof)\.? )?[A-Z][\p{L}'-]+(?: [A-Z][\p{L}'-]+)?)(?![\p{L}'-])`;
/** "my (little) sister (, Ana)", "my dog (named) Max": group 1 the relation, group 2 the name. */
const MY_MENTION = new RegExp(String.raw`\b[Mm]y ${ADJ}(${PLURAL}|${FEMALE}|${MALE}|${NEUTRAL}|${PET})\b(?:'s)?(?:,? (?:named |called )?${NAME})?`, 'gu');
/** "my dermatologist, Dr. Okafor", "my new physiotherapist": any occupation (text/occupations.ts) is a person too. */
const MY_OCCUPATION = new RegExp(String.raw`\b[Mm]y ${ADJ}([a-z]+)\b(?:,? (?:named |called )?${NAME})?`, 'gu');
/** The name a mention caught, without a capitalised word that opens the next clause ("my aunt Rosa And …"); none for "my boss. She …". */
function nameOf(caught: string | undefined): string | undefined {
  if (!caught || /^(?:I|And|But|So|The|He|She|They|We|It)$/.test(caught.split(' ')[0])) return undefined;
  return caught.split(' ').filter((w) => !/^(?:And|But|So|The)$/.test(w)).join(' ') || undefined;
}
/**
 * A professional the user went to: "I saw a new physiotherapist", "we hired an electrician named Ravi", "I've been
 * seeing a therapist", "I talked to a lawyer": the one the user sees is the user's ("He gave me exercises" → "The
 * user's physiotherapist gave …"). Only with the user as the subject of a verb of seeing, visiting, consulting or
 * hiring ("I want to become a nurse. She …", "I met a freelance writer", "the bank hired a lawyer" name nobody).
 */
const SAW_OCCUPATION = new RegExp(
  String.raw`\b(?:I|[Ww]e)(?:['’](?:ve|d|m)| have| had| am| was| were| just| finally| recently| also| then| first| been)* (?:saw|seen|seeing|visited|visiting|consulted|hired|booked|went to|talked to|spoke (?:to|with)|called) (?:a|an) (?:new )?([a-z]+(?: (?!named\b|called\b)[a-z]+)?)\b(?:,? (?:named |called )?${NAME})?`,
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

/**
 * Words that end a thing's name: times, prepositions, conjunctions, relative words, adverbs, verbs (a word of five
 * letters or more ending in "ed" is taken for a past verb: "crashed", "arrived"; "bed", "shed" and "used" are not).
 */
const THING_STOP =
  "and|or|but|so|because|since|when|while|after|before|until|last|yesterday|today|tonight|this|that|these|those|which|who|for|from|at|in|on|with|without|to|of|by|about|like|as|than|recently|just|ago|yet|already|too|also|again|online|there|here|now|it|a|an|the|my|is|are|was|were|be|been|has|have|had|will|would|can|could|should|does|did|do|keeps?|needs?|works?|looks?|feels?|runs?|gets?|got|makes?|came|comes|broke|cost|costs|\\p{L}{3,}ed";
/** A thing's words: at most four, none of them a stop word, a verb or a possessive ("my new car's" → "new car"). */
const THING_WORDS = String.raw`((?:(?!(?:${THING_STOP})(?![\p{L}\d'-]))[\p{L}\d][\p{L}\d-]*(?:\s|(?=['’]s\b)|(?![\p{L}\d'’-]))){1,4})`;
const STRONG_GET = String.raw`bought|purchased|ordered|adopted|rescued|built|assembled|installed|treated myself to|got myself`;
const WEAK_GET = String.raw`got|received|picked up|switched to|upgraded to|started using|brought home`;
/**
 * "my new bike", "I bought a standing desk", "I bought new running shoes", "I got a new laptop", "we adopted a
 * cat". Groups: "my <adj> <thing>" 1–2; a strong verb's article, "new" and thing 3–5; a weak verb's "new" and thing
 * 6–7, or its pet 8.
 */
const THING_MENTION = new RegExp(
  String.raw`\b(?:my (new|old|current) ${THING_WORDS}|(?:i|we)(?:'ve| have)? (?:just |recently |finally |also |actually )?(?:${STRONG_GET}) (?:(a|an|my|some) )?(?:(new) )?${THING_WORDS}|(?:i|we)(?:'ve| have)? (?:just |recently |finally |also |actually )?(?:${WEAK_GET}) (?:a|an|my) (?:(new) ${THING_WORDS}|(${PET})\b))`,
  'giu',
);
/** What one gets that is not a thing one has: "got a call", "got a chance", "got an email". */
const NOT_A_THING = /^(?:bunch|pair|set|kind|sort|type|variety|number|ton|handful|piece|selection|range|call|chance|feeling|sense|text|message|email|e-mail|letter|note|reply|response|answer|question|idea|lot|bit|couple|few|ticket|fine|raise|promotion|job|offer|cold|flu|headache|degree|grade|score|discount|refund|deal|quote|haircut|massage|tattoo|glimpse|look|taste|way|minute|moment|break|day|week|month|year)s?$/i;

/** The things (and pets) a user's sentence says they got or have, in order: antecedents for "it". */
function thingMentions(text: string, message: number): { at: number; a: Antecedent }[] {
  const out: { at: number; a: Antecedent }[] = [];
  for (const m of text.matchAll(THING_MENTION)) {
    const pet = m[8] ? m[8].toLowerCase() : null;
    const adj = (m[1] ?? m[4] ?? m[6] ?? '').toLowerCase();
    const words = (pet ?? m[2] ?? m[5] ?? m[7] ?? '').trim().split(/\s+/).filter(Boolean);
    const head = words.at(-1);
    if (!head || NOT_A_THING.test(words[0]) || NOT_A_THING.test(head)) continue;
    // without "a/an/my" (or with "some"), only a plural thing: "I bought new running shoes", not "I built trust"
    const pluralForm = /[^s]s$/i.test(head);
    if (m[5] !== undefined && (m[3] === undefined || m[3].toLowerCase() === 'some') && !pluralForm) continue;
    // "my new boss" is a person (mentions reads it as one)
    const headWord = head.toLowerCase();
    if (!pet && [PLURAL, FEMALE, MALE, NEUTRAL].some((list) => isIn(list, headWord))) continue;
    const isPet = pet !== null || (words.length === 1 && isIn(PET, headWord));
    // a plural thing ("my old sneakers") is only ever "them"
    const plural = pluralForm && !isPet;
    const name = `${adj ? `${adj} ` : ''}${words.join(' ')}`;
    out.push({ at: m.index ?? 0, a: { phrase: `my ${name}`, gender: 'n', plural, pet: isPet, thing: !isPet, message } });
  }
  return out;
}

/** The people (and pets) a sentence of the user mentions, in order, and the things they say they got. */
export function mentions(text: string, message: number): Antecedent[] {
  if (!/\b(?:my|a|an|some|new)\b/i.test(text)) return [];
  const found: { at: number; a: Antecedent }[] = [...thingMentions(text, message)];
  // `relations`: lists whose words MY_MENTION reads instead (after "a", only the family's: "a therapist" is read here)
  const occupation = (at: number, word: string, name: string | undefined, relations = [PLURAL, FEMALE, MALE, NEUTRAL, PET]) => {
    const job = word.toLowerCase();
    if (isOccupation(job) && !relations.some((list) => isIn(list, job))) found.push({ at, a: antecedentOf(job, nameOf(name), message) });
  };
  for (const m of text.matchAll(MY_MENTION)) {
    found.push({ at: m.index ?? 0, a: antecedentOf(m[1], nameOf(m[2]), message) });
  }
  for (const m of text.matchAll(MY_OCCUPATION)) occupation(m.index ?? 0, m[1], m[2]);
  for (const m of text.matchAll(SAW_OCCUPATION)) {
    // "a family doctor": the second word is the occupation when it is one; else it is no part of the mention, nor
    // is a name after it ("a dentist since March")
    const words = m[1].split(' ');
    const job = words.length === 2 && isOccupation(words[1]) ? words[1] : words[0];
    occupation(m.index ?? 0, job, job === words.at(-1) ? m[2] : undefined, [PLURAL, FEMALE, MALE, PET]);
  }
  for (const m of text.matchAll(A_FRIEND)) found.push({ at: m.index ?? 0, a: antecedentOf(m[1], m[2], message) });
  return found.sort((x, y) => x.at - y.at).map((f) => f.a);
}

/** How far back (in user messages) a pronoun may look for its antecedent. */
const WINDOW = 2;

const PRONOUN_START = /^(she|he|they)(?:'s|’s|'re|’re|'ve|’ve|'ll|’ll|'d|’d)?\b|^(her|his|their)\s+(?=[a-z])/i;
const HAS_PARTICIPLE = /^(?:been|got|gotten|gone|had|done|made|seen|taken|given|become|[a-z]+ed)\b/i;
/** Participles read as a state after "'s": "she's called Miso", "he's married", "it's based in Lyon". */
const STATE_PARTICIPLE = /^(?:called|named|married|engaged|divorced|retired|located|based|interested|excited|obsessed|scared|tired|bored|worried|thrilled|pleased|supposed|used|made|built|designed|painted|finished|broken|sold|booked|scheduled|priced|rated|signed|vaccinated|neutered|spayed|trained)\b/i;
/** "'s" as "has" only before these when "it" is the subject: "it's got", "it's been" (else "is": "it's made of oak"). */
const IT_HAS = /^(?:been|got|gotten|had|become|gone|stopped|started|helped|changed|lasted|saved|taken)\b/i;
const hasOrIs = (rest: string) => (HAS_PARTICIPLE.test(rest) && !STATE_PARTICIPLE.test(rest) ? 'has' : 'is');

function pick(antecedents: Antecedent[], pronoun: string, userMessage: number, recentUser: (i: number) => number): Antecedent | null {
  const p = pronoun.toLowerCase();
  for (let i = antecedents.length - 1; i >= 0; i--) {
    const a = antecedents[i];
    if (userMessage - recentUser(a.message) > WINDOW) break;
    if (a.thing) continue;
    if ((p === 'she' || p === 'her') && !a.plural && (a.gender === 'f' || a.gender === 'n')) return a;
    if ((p === 'he' || p === 'his') && !a.plural && (a.gender === 'm' || a.gender === 'n')) return a;
    if ((p === 'they' || p === 'their') && a.plural) return a;
  }
  if (p === 'they' || p === 'their') {
    for (let i = antecedents.length - 1; i >= 0; i--) {
      const a = antecedents[i];
      if (userMessage - recentUser(a.message) > WINDOW) break;
      if (a.gender === 'n' && !a.pet && !a.thing) return a;
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
  const it = resolveIt(text, antecedents, message, ordinal) ?? resolveDefinite(text, antecedents, message, ordinal) ?? resolveThem(text, antecedents, message);
  if (it) return it;
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
      predicate = `${hasOrIs(rest)} ${rest}`;
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

/** How far back (in user messages) "it" may look: the same message or the one before. */
const IT_WINDOW = 1;
/** "It's a Trek Domane", "It has a 10-hour battery", "It was a gift": "it" then a description of it. */
const IT_START = /^it(?:'s|’s| is| was| has| had)\s+/i;
/**
 * "it" standing for nothing: "it's been a while", "it's time", "it's raining", "it's hard to …", "it's great that
 * …", and a verdict on doing something rather than a description of a thing: "it's a great way to …", "it was a
 * good idea to …".
 */
const IT_EMPTY =
  /^it(?:'s|’s| is| was)\s+(?:a|an|the)\s+(?:[\w-]+\s+){0,2}(?:way|idea|place|time|thing|chance|opportunity|relief|shame|pity|pleasure|step|start)\s+(?:to|that|for)\b|^it(?:'s|’s| is| was| has| had)\s+(?:been|time|raining|snowing|getting|going|like|about|just me|not (?:that|like)|(?:(?:so|really|very|pretty|quite|too|a bit|kind of|sort of|always|never|also|still)\s+)*[\w-]+\s+(?:to|that|how|when|if|because|for me to|for us to)\b)|^it(?:'s|’s| is| was)\s+(?:(?:so|really|very|pretty|quite|too)\s+)*(?:okay|ok|fine|alright|all right|true|funny|weird|crazy|amazing|nice|good|great|cool|hard|easy|tough|possible|important|interesting|fun|awesome|wonderful|fantastic|sad|strange)[.!]*$/i;
/**
 * "I love it", "I'm really happy with it", "I use it every day", "I've been keeping it in the garage" (not "I love it
 * when …", "I made it", "I got it", "play it safe"); "keep/store it" only before a place, a state or an -ing
 * ("keep it in the garage", "keep it safe", "keep it looking new"; not "keep it simple / digital / in mind / around $50").
 */
const IT_OBJECT =
  /\b(?:(?:with|love|loved|like|liked|enjoy|enjoyed|use|used|using|wear|wore|wearing|ride|rode|riding|drive|drove|driving|recommend|recommended|adore|named|call|called|take care of|taking care of|walk|walked|feed|fed|clean|cleaning|cleaned|wash|washing|washed|charge|charging|charged|fix|fixing|fixed|repair|repairing|repaired|sell|selling|sold|return|returning|returned)\s+it\b(?!\s+(?:when|if|that|to|so|how|up|down|simple|short|real|together|going|in mind|quiet|secret|safe|cool|by ear)\b)|(?:keep|keeping|kept|store|storing|stored)\s+it\b(?=\s+(?:in|at|on|under|inside|outside|near|behind|beside|next to|somewhere|safe|clean|dry|[a-z]+ing)\b)(?!\s+(?:in mind|going)\b))(?!['’])/i;

/**
 * The thing "it" stands for: a mention in `before` (the clause up to the "it"), else the latest within IT_WINDOW
 * user messages.
 */
function itAntecedent(before: string, antecedents: Antecedent[], message: number, ordinal: (i: number) => number): Antecedent | null {
  const inClause = before ? thingMentions(before, message).filter((t) => !t.a.plural).at(-1)?.a : undefined;
  if (inClause) return inClause;
  for (let i = antecedents.length - 1; i >= 0; i--) {
    const a = antecedents[i];
    if (ordinal(message) - ordinal(a.message) > IT_WINDOW) break;
    if ((a.thing && !a.plural) || a.pet) return a;
  }
  return null;
}

/**
 * "It's a Trek Domane" → "my new bike is a Trek Domane"; "I'm really happy with it" → "I'm really happy with
 * my standing desk"; null when the clause has no "it" to resolve or nothing to resolve it to.
 */
function resolveIt(text: string, antecedents: Antecedent[], message: number, ordinal: (i: number) => number): string | null {
  const start = IT_START.exec(text);
  if (start) {
    if (IT_EMPTY.test(text)) return null;
    const a = itAntecedent('', antecedents, message, ordinal);
    if (!a) return null;
    const rest = text.slice(start[0].length).trim();
    const verb = start[0].slice(2).trim().replace(/^['’]s$/, IT_HAS.test(rest) ? 'has' : 'is');
    return `${a.phrase} ${verb} ${rest}`;
  }
  if (!/^(?:i|i'm|i’m|i've|i’ve|i'd|i’d|i'll|i’ll|i am|we|we're|we’re|we've|we’ve)\b/i.test(text)) return null;
  const object = IT_OBJECT.exec(text);
  if (!object) return null;
  // one "it" only: with two, which is which is a guess
  if ((text.match(/\bit\b/gi) ?? []).length > 1) return null;
  const at = (object.index ?? 0) + object[0].length - 2;
  const a = itAntecedent(text.slice(0, at), antecedents, message, ordinal);
  if (!a) return null;
  return `${text.slice(0, at)}${a.phrase}${text.slice(at + 2)}`;
}

/**
 * "The new bookshelf is from IKEA" after "I also got a new bookshelf": a clause that opens with "the" and the
 * words of a thing (or pet) the user said they got or have, within WINDOW user messages, is about the user's
 * one ("my new bookshelf is from IKEA"). Only the same words: "the new season is out" stays as it is.
 */
function resolveDefinite(text: string, antecedents: Antecedent[], message: number, ordinal: (i: number) => number): string | null {
  const m = /^the (?:(new|old|current) )?\S/i.exec(text);
  if (!m) return null;
  const adjective = m[1]?.toLowerCase();
  const lower = text.toLowerCase();
  for (let i = antecedents.length - 1; i >= 0; i--) {
    const a = antecedents[i];
    if (ordinal(message) - ordinal(a.message) > WINDOW) break;
    if (!a.thing && !a.pet) continue;
    // "my new bookshelf" matches "the new bookshelf" and "the bookshelf"; its words, then the end of the phrase
    const name = a.phrase.replace(/^my /, '');
    const bare = name.replace(/^(?:new|old|current) /, '');
    for (const words of adjective ? [name] : [name, bare]) {
      const said = `the ${words}`.toLowerCase();
      if (adjective && !said.startsWith(`the ${adjective} `)) continue;
      if (lower.startsWith(said) && /^(?:,|\s+(?!of\b)\S|$)/.test(text.slice(said.length))) return `my ${words}${text.slice(said.length)}`;
    }
  }
  return null;
}

/** Verbs whose object "them" is a plural thing the user has: "I've been keeping them under my bed". */
const THEM_OBJECT =
  /\b(?:keep|keeping|kept|store|storing|stored|wear|wearing|wore|use|using|used|love|loved|like|liked|clean|cleaning|cleaned|wash|washing|washed|charge|charging|charged|water|watering|watered|feed|feeding|fed|fix|fixing|fixed|repair|repairing|repaired|sell|selling|sold|return|returning|returned)\s+them\b(?!['’])/i;

/**
 * "I need to take care of my old sneakers, I've been keeping them under my bed": "them" after a verb of keeping or
 * using is the plural thing mentioned before it in the same message (the latest), never a person.
 */
function resolveThem(text: string, antecedents: Antecedent[], message: number): string | null {
  if (!/^(?:i|i'm|i’m|i've|i’ve|i'd|i’d|i am|we|we're|we’re|we've|we’ve)\b/i.test(text)) return null;
  const object = THEM_OBJECT.exec(text);
  if (!object || (text.match(/\bthem\b/gi) ?? []).length > 1) return null;
  let a: Antecedent | undefined;
  for (let i = antecedents.length - 1; i >= 0 && antecedents[i].message === message; i--) {
    if (antecedents[i].thing && antecedents[i].plural) {
      a = antecedents[i];
      break;
    }
    // a person mentioned after the thing may be who "them" is
    if (!antecedents[i].thing) return null;
  }
  if (!a) return null;
  const at = (object.index ?? 0) + object[0].length - 4;
  return `${text.slice(0, at)}${a.phrase}${text.slice(at + 4)}`;
}

const WE_START = /^(we|our)(?:'re|’re|'ve|’ve|'ll|’ll|'d|’d)?\b/i;
const WORK = /\b(?:team|company|startup|office|project|sprint|client|clients|customers|product|codebase|deploy|deployed|release|launch|launched|quarter|department|colleagues?|coworkers?|employees?|hiring|hired|revenue|platform|business|firm|org|organization|organisation|stakeholders)\b/i;

/** Who "we" is: "The user and the user's brother", "The user and their team", "The user and their household". */
/** "We can learn from history", "we should all recycle": "we" as people in general, not the user's circle. */
export const GENERIC_WE = /^we (?:all |humans |as a society |as people )?(?:can|could|should|need to|must|might|may|have to|tend to|often|all)\b/i;

export function weSubject(text: string, antecedents: Antecedent[], message: number): string {
  const same = antecedents.filter((a) => a.message === message && !a.thing);
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
  const later = firstPluralAsThird(rest);
  // "our house" is the user's house, whoever else shares it
  if (m[1].toLowerCase() === 'our') return `The user's ${later}`;
  const verb = { "'re": 'are', "'ve": 'have', "'ll": 'will', "'d": HAS_PARTICIPLE.test(rest) ? 'had' : 'would' }[contraction];
  return `${subject}${verb ? ` ${verb}` : ''} ${later}`;
}
