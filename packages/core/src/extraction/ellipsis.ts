/**
 * A count that leaves out what it counts, for the built-in extractor: "I've been knitting scarves lately. I've
 * knitted three so far." The second sentence alone became "The user has knitted three so far.", a memory that
 * never says scarves, so "How many scarves have I knitted?" could not find it by its words, and a later "I've
 * finished five scarves" did not share the thing counted with it.
 *
 * | earlier in the same message                | clause                           | read as                                       |
 * |--------------------------------------------|----------------------------------|-----------------------------------------------|
 * | "I've been knitting scarves lately."       | "I've knitted three so far"      | "I've knitted three scarves so far"           |
 * | "I've been collecting vinyl records, and"  | "I've got 120 of them now"       | "I've got 120 vinyl records now"              |
 * | "… a goal for a certain number of loaves?" | "I've baked nine already"        | "I've baked nine loaves already"              |
 *
 * The clause must be the speaker's own ("I …"), its verb not one that takes an age or a score of its own ("I
 * turned 30 this year", "I am 40 now"), and the number followed by "of them / those / these", by a phrase of
 * a count up to now ("so far", "now", "already", "to date", "in total", "this year", "since …") or by the end of
 * the clause ("one" is left alone: "I have one" stands for a thing, not a count). What is counted is the last
 * noun said before it in the same message (compromise's tags; dates and pronouns aside) when that noun is plural,
 * with one word in front of it when that word is a noun or an adjective that is not an "-ing" form ("vinyl
 * records", not "knitting scarves"). Without such a noun the clause is left as it is.
 */
import nlp from 'compromise';

const NUMBER = String.raw`(?:(?!1\b)\d+(?:,\d{3})*|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|a hundred|a dozen|a couple|a few|several|dozens|hundreds)`;
const TO_DATE = String.raw`(?:so far|now|already|to date|in total|total|altogether|by now|until now|at this point|this (?:year|month|week|season|summer|winter|spring|fall|autumn)|since\b)`;
/** Verbs whose number is not a count of something said before: age, time, score, weight (an ordinal such as
 * "finished 2nd" is no count either, and NUMBER does not match it). */
const NOT_COUNT = /^(?:am|was|were|be|been|is|turned|turn|turning|aged|woke|wake|scored|score|weigh|weighed)$/i;
const ELLIPTIC = new RegExp(
  String.raw`^(I(?:'ve| have| had|'d)?(?: (?:already|now|just|finally|even|also|actually|managed to|been able to))* ([a-z]+) )(${NUMBER})( (?:of them|of those|of these))?(?![\d,.]*\d)(?=(?: ${TO_DATE}| ?[,.;!](?!\d)| ?$))`,
  'i',
);

/** The thing last counted in the plural in `earlier` ("vinyl records"), or null. */
export function lastPluralNoun(earlier: string): string | null {
  if (!earlier.trim()) return null;
  type Term = { normal: string; tags: string[] };
  const terms: Term[] = nlp(earlier)
    .terms()
    .json()
    .map((t: { terms: Term[] }) => t.terms[0]);
  for (let i = terms.length - 1; i >= 0; i--) {
    const t = terms[i];
    // the last noun said, not counting dates ("per month") and pronouns, must be the plural: after "tips on
    // cleaning my figure collection", "I've got 13 of them" counts the collection's figures, not the tips
    if (!t.tags.includes('Noun') || t.tags.includes('Pronoun') || t.tags.includes('Possessive') || t.tags.includes('Date')) continue;
    if (!t.tags.includes('Plural') || !/^[a-z-]+$/.test(t.normal)) return null;
    const before = terms[i - 1];
    const modifies =
      before !== undefined &&
      /^[a-z-]+$/.test(before.normal) &&
      !before.normal.endsWith('ing') &&
      before.tags.some((tag) => tag === 'Adjective' || tag === 'Noun') &&
      !before.tags.some((tag) => tag === 'Pronoun' || tag === 'Possessive');
    return modifies ? `${before.normal} ${t.normal}` : t.normal;
  }
  return null;
}

/** `clause` with the thing it counts put back after its number, when it left it out (see above). */
export function restoreCountedNoun(clause: string, earlier: string): string {
  const m = ELLIPTIC.exec(clause);
  if (!m || NOT_COUNT.test(m[2])) return clause;
  const noun = lastPluralNoun(earlier);
  if (!noun) return clause;
  return `${m[1]}${m[3]} ${noun}${clause.slice(m[0].length)}`;
}
