/**
 * The person spoken to: "you" and "your" in another speaker's words rewritten to that person's name, or to "the
 * user" in a question put to them.
 */
import { conjugatePredicate, firstWord, isPastForm, isPreVerbAdverb } from './third-person';
import { COMMON_VERBS } from './verbs';

/** "Do you" → "Does X": the question's auxiliary agrees with a third-person subject. */
const INVERTED: Record<string, string> = { do: 'does', are: 'is', have: 'has', were: 'was' };
/** Only a question's inverted auxiliary: at the start, or after a question word ("How long have you …"), not "to have you". */
const QUESTION_AUX_YOU = /(^|[.?!]\s+|\b(?:what|how|where|when|why|which|who|whom|whose)(?:\s+[\w']+){0,2}\s+)(do|are|have|were) you\b/gi;

/**
 * "you" as the subject of a verb: at the start, after punctuation or a dash, after a connective ("if you need a
 * hand", "how you use it", "what you mean", "before you get here", "everywhere you go", "sounds like you know") or
 * a verb of thinking ("I hope you get better", "make sure you keep going", "Dave bets you feel proud").
 */
const SUBJECT_YOU =
  /(^|[.!?,;:–—]\s*|\s-\s+|\b(?:(?:sounds?|looks?|seems?|feels?) like|and|but|or|so|if|when|whenever|that|how(?: much| often| well| hard)?|because|since|while|where|what|why|whether|once|until|till|before|after|as|unless|wherever|everywhere|anytime|(?:any|every|each|next|last) time|hopes?|thinks?|bets?|guess(?:es)?|sure|glad)\s+)you\s+(?=[a-z])/gi;

/**
 * "you" as the subject of a clause that tells a thing or person before it: "something you enjoy", "all you need",
 * "the people you work with", "every move you make", "which brands you choose". The word before "you" must not be a
 * verb ("the trip made you feel", "the kids help you relax": "you" is its object, and the verb after it stays as
 * said), and the word after it must be one of the common verbs: a noun before "you" is read by its place only.
 */
const RELATIVE_YOU =
  /(\b(?:(?:the|a|an|every|any|each|which|some|those|these|this|no)\s+(?:[a-z-]+\s+){0,2}?([a-z-]+)|something|anything|everything|nothing|all|whatever|whoever|anywhere|somewhere)\s+)you\s+(?=[a-z])/gi;
/** Verbs after "you" in such a clause besides the common ones (verbs.ts). */
const RELATIVE_VERBS = new Set([...COMMON_VERBS, ...'value mean deserve say handle manage believe decide wish miss prefer imagine expect face achieve pick'.split(' ')]);
/** Verbs that take "you" and a bare verb as their object ("makes you feel", "let you sleep"). */
const OBJECT_VERBS = /^(?:make|makes|let|lets|help|helps|have|has|see|sees|watch|watches|hear|hears|feel|feels|bid|notice|notices)$/;

/** "you guys", "you all", "y'all"; not an "all" that goes with what follows ("you all the best", "you all set"). */
const GROUP_YOU =
  /\b(?:you (?:guys|folks)|you all(?! (?:the|along|over|right|set|good|done|ready|alone|day|night|year|long)\b)|y['’]all)\b/gi;
/** Words after a subject "you" that are no verb of it ("you guys", "you too", "you all"). */
const NOT_YOUR_VERB = new Set(
  `guys all both two folks people alone too again later soon now there here back so very as more first next and or but not
  well up out off over down right`.split(/\s+/),
);

/**
 * "you" as a subject, with its present verb conjugated for the person spoken to: "if you need a hand" → "if Calvin
 * needs a hand" (before 2026-12-07, "if Calvin need a hand"), "how you use it and teach people" → "how Caroline
 * uses it and teaches people", "something you enjoy" → "something Audrey enjoys". A modal, a past and an "-ing"
 * form stay as said.
 */
function subjectYou(text: string, addressee: string): string {
  const matches = [
    ...[...text.matchAll(SUBJECT_YOU)].map((m) => ({ m, relative: false })),
    ...[...text.matchAll(RELATIVE_YOU)].map((m) => ({ m, relative: true })),
  ].sort((a, b) => (b.m.index ?? 0) - (a.m.index ?? 0));
  let out = text;
  let last = Infinity;
  for (const { m, relative } of matches) {
    if ((m.index ?? 0) + m[0].length >= last) continue;
    const start = (m.index ?? 0) + m[1].length;
    const rest = out.slice((m.index ?? 0) + m[0].length);
    let [word, after] = firstWord(rest);
    for (let i = 0; i < 2 && isPreVerbAdverb(word.toLowerCase()); i++) [word, after] = firstWord(after);
    const bare = word.replace(/[.,;:!?…)]+$/, '');
    const lw = bare.toLowerCase();
    // lower case only: a capital is a name or "I", not a verb ("you Ines", "so you I guess")
    if (NOT_YOUR_VERB.has(lw) || /ing$/.test(lw) || !/^[a-z]+(?:n['’]t)?$/.test(bare)) continue;
    if (relative && !relativeClause(m[2], lw)) continue;
    out = `${out.slice(0, start)}${addressee} ${conjugatePredicate(rest, false)}`;
    last = m.index ?? 0;
  }
  return out;
}

/** Whether "you" between `head` (the word before it, when a noun phrase) and `verb` opens a clause of its own. */
function relativeClause(head: string | undefined, verb: string): boolean {
  if (!RELATIVE_VERBS.has(verb)) return false;
  if (head === undefined) return true;
  const h = head.toLowerCase();
  return !OBJECT_VERBS.test(h) && !isPastForm(h) && !COMMON_VERBS.has(h) && !COMMON_VERBS.has(h.replace(/e?s$/, ''));
}

/**
 * The fillers "you know" and "you see" left out: "You know, I put in so much effort" → "I put in so much effort",
 * "It was, you know, a long day." → "It was a long day.", "it's hard, you know." → "it's hard." (before, "Calvin
 * know, …"). Said as an object ("what you know"), they are not fillers and stay.
 */
function withoutFillers(text: string): string {
  return text
    .replace(/(^|[.!?]\s+)you (?:know|see),\s*(\S)/gi, (_m, before: string, next: string) => before + next.toUpperCase())
    .replace(/,\s*you (?:know|see),\s*/gi, ' ')
    .replace(/,\s*you (?:know|see)\?/gi, '.')
    .replace(/,\s*you (?:know|see)(?=[.!…]|$)/gi, '');
}

/**
 * "you"/"your" rewritten to the person spoken to: "Your painting inspired me" → "Melanie's painting inspired
 * me"; "What breed is your dog?" → "What breed is the user's dog?"; "How long have you been …" → "How long
 * has the user been …".
 */
export function toAddressee(text: string, addressee: string): string {
  const s = withoutFillers(text)
    // "you guys had fun", "you two are getting along": the person spoken to and those with them
    .replace(GROUP_YOU, `${addressee} and the others`)
    .replace(/\b(?:both of you|the two of you|you two|you both)\b/gi, `${addressee} and the other one`)
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
