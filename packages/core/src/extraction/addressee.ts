/**
 * The person spoken to: "you" and "your" in another speaker's words rewritten to that person's name, or to "the
 * user" in a question put to them.
 */
import { conjugatePredicate, firstWord, isPreVerbAdverb } from './third-person';

/** "Do you" → "Does X": the question's auxiliary agrees with a third-person subject. */
const INVERTED: Record<string, string> = { do: 'does', are: 'is', have: 'has', were: 'was' };
/** Only a question's inverted auxiliary: at the start, or after a question word ("How long have you …"), not "to have you". */
const QUESTION_AUX_YOU = /(^|[.?!]\s+|\b(?:what|how|where|when|why|which|who|whom|whose)(?:\s+[\w']+){0,2}\s+)(do|are|have|were) you\b/gi;

/**
 * "you" as the subject of a verb: at the start, after punctuation, a connective ("if you need a hand", "how you
 * use it", "what you mean") or a verb of thinking ("I hope you get better", "make sure you keep going", "Dave bets
 * you feel proud").
 */
const SUBJECT_YOU =
  /(^|[.!?,;:–—]\s*|\b(?:and|but|or|so|if|when|whenever|that|how|because|since|while|where|what|why|whether|once|until|hopes?|thinks?|bets?|guess(?:es)?|sure|glad)\s+)you\s+(?=[a-z])/gi;
/** Words after a subject "you" that are no verb of it ("you guys", "you too", "you all"). */
const NOT_YOUR_VERB = new Set(
  `guys all both two folks people alone too again later soon now there here back so very as more first next and or but not
  well up out off over down right`.split(/\s+/),
);

/**
 * "you" as a subject, with its present verb conjugated for the person spoken to: "if you need a hand" → "if Calvin
 * needs a hand" (before 2026-12-07, "if Calvin need a hand"), "how you use it and teach people" → "how Caroline
 * uses it and teaches people". A modal, a past, an "-ing" form and the filler "you know," stay as said.
 */
function subjectYou(text: string, addressee: string): string {
  const matches = [...text.matchAll(SUBJECT_YOU)];
  let out = text;
  for (const m of matches.reverse()) {
    const start = (m.index ?? 0) + m[1].length;
    const rest = out.slice((m.index ?? 0) + m[0].length);
    let [word, after] = firstWord(rest);
    for (let i = 0; i < 2 && isPreVerbAdverb(word.toLowerCase()); i++) [word, after] = firstWord(after);
    const bare = word.replace(/[.,;:!?…)]+$/, '');
    const lw = bare.toLowerCase();
    const filler = (lw === 'know' || lw === 'see') && (word !== bare || !/^[a-z]/i.test(after));
    // lower case only: a capital is a name or "I", not a verb ("you Ines", "so you I guess")
    if (NOT_YOUR_VERB.has(lw) || /ing$/.test(lw) || filler || !/^[a-z]+(?:n['’]t)?$/.test(bare)) continue;
    out = `${out.slice(0, start)}${addressee} ${conjugatePredicate(rest, false)}`;
  }
  return out;
}

/**
 * "you"/"your" rewritten to the person spoken to: "Your painting inspired me" → "Melanie's painting inspired
 * me"; "What breed is your dog?" → "What breed is the user's dog?"; "How long have you been …" → "How long
 * has the user been …".
 */
export function toAddressee(text: string, addressee: string): string {
  const s = text
    .replace(QUESTION_AUX_YOU, (_m, before: string, aux: string) => {
      const v = INVERTED[aux.toLowerCase()];
      return `${before}${/^[A-Z]/.test(aux) ? v.charAt(0).toUpperCase() + v.slice(1) : v} ${addressee}`;
    })
    .replace(/\byou(?:'re|’re| are)\b/gi, `${addressee} is`)
    .replace(/\byou(?:'ve|’ve| have)\b/gi, `${addressee} has`)
    .replace(/\byou were\b/gi, `${addressee} was`)
    .replace(/\byou(?:'ll|’ll)\b/gi, `${addressee} will`)
    .replace(/\byou(?:'d|’d)\b/gi, `${addressee} would`);
  return subjectYou(s, addressee)
    .replace(/\byours\b/gi, `${addressee}'s`)
    .replace(/\byour\b/gi, `${addressee}'s`)
    .replace(/\byourself\b/gi, addressee === 'the user' ? 'themselves' : addressee)
    .replace(/\byou\b/gi, addressee);
}
