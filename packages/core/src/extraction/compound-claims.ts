/**
 * Two facts about one person joined by "and" with the subject said once: "I live in Lisbon and work as a pediatric
 * nurse", "I'm vegetarian and live in Berlin", "My sister lives in Boston and works as a teacher". Kept as one
 * memory, the statement carries no claim (a memory carries at most one, docs/conflicts.md), so a later "Actually I
 * moved to Porto" could not supersede the residence, and a supersession of either fact would take the other with
 * it. When each half, read with the subject repeated, is a claim of its own and the two claims are about different
 * attributes, the clause is read as two clauses (and the second verb gets its person: "… and works as …").
 * Anything else stays one clause: "I like tea and coffee", "I moved out of Leeds and moved to York" (one attribute,
 * its new value), "I went to the market and bought apples" (no claims), "I live in Berlin and love the city" (a like
 * is no single value: `separateClaims`).
 */
import { type Claim, detectClaim, isMultiValued } from '../conflicts/claims';

/** The subject said once at the start: "I", "I'm", "My sister", "Our daughter Mia", "We". */
const SUBJECT = /^((?:[Ii]|[Ww]e)\b|(?:[Mm]y|[Oo]ur) [a-z]+(?: [A-Z][\p{L}'-]+)?)(?:'m|’m|'ve|’ve|'re|’re)?\s/u;
/** Where a second predicate may start: "and" (with or without its comma) before a lower-case word. */
const AND = /,?\s+and\s+(?=[a-z])/g;
/** A word that opens a new subject or a noun phrase, not a verb: those halves are not a second predicate. */
const NOT_A_VERB = /^(?:i|we|you|he|she|they|it|my|our|your|his|her|their|its|the|a|an|this|that|these|those|some|many|most|all|also|then|now|so|not)\b/i;

/** The clause as two clauses with the subject repeated, for each "and" that may join two predicates. */
export function compoundCandidates(clause: string): [string, string][] {
  const subject = SUBJECT.exec(clause);
  if (!subject) return [];
  const who = subject[1];
  const out: [string, string][] = [];
  for (const m of clause.matchAll(AND)) {
    const at = m.index ?? 0;
    const rest = clause.slice(at + m[0].length);
    if (at <= subject[0].length || NOT_A_VERB.test(rest)) continue;
    out.push([clause.slice(0, at), `${who} ${rest}`]);
  }
  return out;
}

/**
 * Whether two statements are each a claim of a single value — one a later statement replaces (a residence, an
 * employer, a wake-up time; not a like or a language, which never replace each other) — about different attributes
 * or people. Likes would split noun phrases read as verbs: "… the self-acceptance and love theme", "… devotionals,
 * and study resources"; and a like often names the other half's thing again ("live in Berlin and love the city").
 */
export function separateClaims(a: string, b: string): boolean {
  const first = singleValueClaim(a);
  const second = first && singleValueClaim(b);
  return Boolean(second) && first!.subject !== second!.subject;
}

/** The claim of a single value a statement makes, or null. */
export function singleValueClaim(statement: string): Claim | null {
  const claim = detectClaim(statement);
  return claim && !isMultiValued(claim.subject) ? claim : null;
}
