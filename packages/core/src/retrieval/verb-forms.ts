/**
 * The forms of an irregular verb. A question asks with the base form after "did" ("What did I buy?", "Where did
 * she meet Anna?", "When did Nate win?"); the conversation tells it in the past ("I bought a smoker", "we met at
 * yoga in the park", "I won my third tournament"). The Snowball stemmer makes "buying" and "buys" one term with
 * "buy", but "bought", "met" and "won" stay apart, so BM25 never matched them. A query term that is a form of one
 * of these verbs also matches its other forms, at the weight of the query term itself (it is the same word).
 *
 * Only the verb's own forms, "purchase" as one more form of "buy" (the same act in a formal word: "What did I purchase
 * for the coop?" is answered by "I bought 20 pounds of scratch grains"; said the other way too), one paraphrase
 * (`BUYING`), and only verbs that carry the meaning of the sentence.
 * The light verbs ("get", "go", "come", "make", "take", "give", "say", "see", "know", "think", "find", "tell",
 * "feel", "keep", "leave", "mean") mostly serve other words in a question ("getting around Tokyo", "take a
 * cocktail class", "I was thinking", "publications I might find interesting"), and their past forms are in a large
 * part of all conversation, so joining them matched everything. Left out too are forms that are as often another
 * word, whose matches would mostly be wrong: "rose", "ground", "wound", "lay", "bore", "bit" ("a bit"), "shot" ("a
 * flu shot"), "dove", "ring", and the verbs whose forms are all alike ("put", "cut", "read").
 */
import { irregularVerb } from '../text/irregular-verbs';
import { analyze } from '../text/terms';

/** The verbs joined, by base form (their forms come from text/irregular-verbs.ts). */
const RANKED_VERBS = `
  become begin bend bleed blow break breed bring build burn buy catch choose deal dig draw dream drink drive eat fall
  feed fight flee fly forget forgive freeze grow hang hear hide hold lead learn lend light lose meet overcome pay ride
  run seek sell send shake shine sing sink sit sleep slide speak spend spin stand steal stick strike swim swing teach
  tear throw undergo understand wake wear weep win withdraw write`;

/** Words that join a verb's forms as one more of them: the same act in another word. */
const SAME_ACT: Readonly<Record<string, readonly string[]>> = { buy: ['purchase'] };

/** Stem → the stems of the verb's other forms. */
const FORMS: ReadonlyMap<string, readonly string[]> = (() => {
  const out = new Map<string, string[]>();
  for (const base of RANKED_VERBS.trim().split(/\s+/)) {
    const verb = irregularVerb(base);
    if (verb === undefined) throw new Error(`"${base}" is not in the irregular verb table`);
    const stems = [...new Set(analyze([base, ...verb.past, ...verb.participle, ...(SAME_ACT[base] ?? [])].join(' ')))];
    for (const s of stems) out.set(s, [...(out.get(s) ?? []), ...stems.filter((o) => o !== s)]);
  }
  return out;
})();

/** The other forms of the verb `stem` is a form of (stems), or none. */
export function otherForms(stem: string): readonly string[] {
  return FORMS.get(stem) ?? [];
}

/**
 * One way only: a question about buying also matches "got". People tell a purchase as "I got a smoker today", "we
 * just got a new router" far more often than with "bought" (in 13 of the 18 LongMemEval development questions
 * asking what was bought or purchased, the evidence says "got"), while a question with "get" or "got" is rarely
 * about buying, so "got" does not find "bought".
 */
const BUYING = new Set(analyze('buy bought purchase purchased'));
const GOT = analyze('got')[0];

/**
 * `terms` (stem → weight, as `bm25Scores` takes them) with every irregular verb form among them joined by the
 * verb's other forms, and a word for buying by "got", at the same weight; a stem already there keeps its own weight.
 */
export function withVerbForms(terms: ReadonlyMap<string, number>): Map<string, number> {
  const out = new Map(terms);
  for (const [stem, weight] of terms) {
    for (const form of otherForms(stem)) if (!out.has(form)) out.set(form, weight);
    if (BUYING.has(stem) && !out.has(GOT)) out.set(GOT, weight);
  }
  return out;
}
