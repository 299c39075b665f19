/**
 * Two facts about one person joined by "and" with the subject said once: "I live in Lisbon and work as a pediatric
 * nurse", "I'm vegetarian and live in Berlin", "My sister lives in Boston and works as a teacher", "I live in Ghent
 * and teach maths". Kept as one memory, the statement carries no claim (a memory carries at most one,
 * docs/conflicts.md), so a later "Actually I moved to Porto" could not supersede the residence, and a supersession of
 * either fact would take the other with it. When the first half, read alone, is a claim of a single value, the
 * clause is read as two clauses (and the second verb gets its person: "… and works as …", "… and teaches maths") if
 * the second half is a claim about another attribute, or a verb phrase of its own that does not name the first
 * half's thing again. Anything else stays one clause: "I like tea and coffee", "I moved out of Leeds and moved to
 * York" (one attribute, its new value), "I went to the market and bought apples" (the first half is no claim), "I
 * live in Berlin and love the city" (it refers back: one memory that carries the first half's claim), "I work in
 * research and development" (a noun, not a verb). A claim after a colon is kept apart too (`colonHalves`: "I switched
 * jobs: I'm a school nurse now").
 */
import nlp from 'compromise';
import { type Claim, detectClaim, isMultiValued } from '../conflicts/claims';

/** The subject said once at the start: "I", "I'm", "My sister", "Our daughter Mia", "We". */
const SUBJECT = /^((?:[Ii]|[Ww]e)\b|(?:[Mm]y|[Oo]ur) [a-z]+(?: [A-Z][\p{L}'-]+)?)(?:'m|’m|'ve|’ve|'re|’re)?\s/u;
/** Where a second predicate may start: "and" (with or without its comma) before a lower-case word. */
const AND = /,?\s+and\s+(?=[a-z])/g;
/** A word that opens a new subject or a noun phrase, not a verb: those halves are not a second predicate. */
const NOT_A_VERB = /^(?:i|we|you|he|she|they|it|my|our|your|his|her|their|its|the|a|an|this|that|these|those|some|many|most|all|also|then|now|so|not)\b/i;

/**
 * The clause as two clauses with the subject repeated, for each "and" that may join two predicates, with where the
 * second predicate starts in the clause.
 */
export function compoundCandidates(clause: string): [left: string, right: string, restAt: number][] {
  const subject = SUBJECT.exec(clause);
  if (!subject) return [];
  const who = subject[1];
  const out: [string, string, number][] = [];
  for (const m of clause.matchAll(AND)) {
    const at = m.index ?? 0;
    const rest = clause.slice(at + m[0].length);
    if (at <= subject[0].length || NOT_A_VERB.test(rest)) continue;
    out.push([clause.slice(0, at), `${who} ${rest}`, at + m[0].length]);
  }
  return out;
}

/** A colon before a first-person subject: "I switched jobs: I'm a school nurse now". */
const COLON = /:\s+(?=(?:I|I'm|I’m|I've|I’ve|I'd|I’d|I'll|I’ll|My|my|We|we|We're|we're|Our|our)\s)/;

/**
 * A clause whose statement after a colon opens with a first-person subject, as its two halves: read alone, the second
 * half may be a claim a later statement replaces (builtin.ts keeps it apart then; otherwise the clause stays whole,
 * its first half the topic of the second).
 */
export function colonHalves(clause: string): [left: string, right: string] | null {
  const m = COLON.exec(clause);
  if (!m || m.index === 0) return null;
  return [clause.slice(0, m.index), clause.slice(m.index + m[0].length)];
}

/** Nouns a tagger may read as verbs after "and" ("research and development"). */
const NOUN_SUFFIX = /(?:ment|tion|sion|ness|ity|ance|ence|ship|ism)s?$/i;

/**
 * Whether the word at `at` opens a verb phrase of its own: read in the whole clause by compromise's tagger as a verb
 * in its base or past form ("and teach maths", "and moved to York"; not "my wife and kids in Oslo", "a nurse and
 * midwife in Leeds"), with more words after it ("and cycle to work"; not "guitar and drum").
 */
export function opensVerbPhrase(clause: string, at: number): boolean {
  if (!/^\S+\s+\S/.test(clause.slice(at))) return false;
  const doc = nlp(clause).json({ offset: true }) as { terms: { text: string; tags: string[]; offset: { start: number } }[] }[];
  for (const sentence of doc) {
    for (const term of sentence.terms) {
      if (term.offset.start !== at) continue;
      const tags = new Set(term.tags);
      return tags.has('Verb') && (tags.has('Infinitive') || tags.has('PastTense')) && !NOUN_SUFFIX.test(term.text);
    }
  }
  return false;
}

/**
 * A second half that names the first half's thing again: "… and love it", "… and like the city", "… and work there",
 * "… and want music for those sessions"; a bare "that" is mostly a relative pronoun ("a school that opened in 2020").
 */
const REFERS_BACK =
  /\b(?:it|its|it's|there|here|this|these|those|them|they|(?:the|that) (?:same|city|town|village|place|area|country|neighbou?rhood|job|company|team|role|position|office|school))\b/i;

/**
 * How a compound whose first half is a claim of a single value (`first`: one a later statement replaces — a residence,
 * an employer, a wake-up time; not a like or a language, which never replace each other) is read:
 * - `two` facts: the second half is a claim of a single value about a different attribute or person, or else
 *   (`opensVerb`, asked only then) a verb phrase of its own that does not refer back to the first ("… and teach
 *   maths", "… and love cooking");
 * - `one` fact about the first half's thing, its second verb a phrase that refers back ("lives in Berlin and loves
 *   the city"), kept as one memory that carries the first half's claim, so a later move replaces it whole;
 * - or neither (`as-is`). A first half that is a like never gets here (`singleValueClaim`): it would split noun
 *   phrases read as verbs ("… the self-acceptance and love theme", "… devotionals, and study resources").
 */
export function compoundReading(first: Claim, b: string, opensVerb: () => boolean): 'two' | 'one' | 'as-is' {
  const second = detectClaim(b);
  if (second?.subject === first.subject) return 'as-is';
  if (second && !isMultiValued(second.subject)) return 'two';
  if (!opensVerb()) return 'as-is';
  return REFERS_BACK.test(b) ? 'one' : 'two';
}

/**
 * Two statements about one subject as one: "The user lives in Berlin." and "The user loves the city." → "The user
 * lives in Berlin and loves the city." (the subject is what the two share up to a word's end).
 */
export function joinPredicates(a: string, b: string): string {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  const subject = a.slice(0, n).lastIndexOf(' ') + 1;
  return `${a.replace(/[.\s]+$/, '')} and ${b.slice(subject)}`;
}

/** The claim of a single value a statement makes, or null. */
export function singleValueClaim(statement: string): Claim | null {
  const claim = detectClaim(statement);
  return claim && !isMultiValued(claim.subject) ? claim : null;
}
