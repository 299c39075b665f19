/**
 * Normalisation for the built-in extractor's tests on a clause: curly quotes, contractions expanded in one pass,
 * trailing stops and spaces; small talk (only greeting/acknowledgement words); fillers and hedges stripped, with
 * a flag when a hedge lowers the confidence.
 */
import { LEADING_FILLER, LEADING_HEDGE, LEADING_PHATIC, SMALL_TALK_WORDS, TRAILING_FILLER } from './lexicon';
import { LEADING_TOPIC } from './disclosures';


const CURLY = /[’‘]/g;
const CONTRACTIONS: Record<string, string> = {
  "i'm": 'i am',
  im: 'i am',
  "i've": 'i have',
  ive: 'i have',
  "i'll": 'i will',
  "i'd": 'i would',
  "can't": 'cannot',
  cant: 'cannot',
  'can not': 'cannot',
  "won't": 'will not',
  wont: 'will not',
  "don't": 'do not',
  dont: 'do not',
  "doesn't": 'does not',
  doesnt: 'does not',
  "didn't": 'did not',
  didnt: 'did not',
  "haven't": 'have not',
  havent: 'have not',
  "wasn't": 'was not',
  wasnt: 'was not',
  "isn't": 'is not',
  isnt: 'is not',
  "what's": 'whats',
  "let's": 'lets',
};
/** One pass over all contractions (single regex + lookup: much faster than a chain of replaces). */
const CONTRACTION_RE =
  /\b(?:i'm|im|i've|ive|i'll|i'd|can't|cant|can not|won't|wont|don't|dont|doesn't|doesnt|didn't|didnt|haven't|havent|wasn't|wasnt|isn't|isnt|what's|let's|([a-z]+)n't)\b/g;
const TRAILING_STOP = /[.!?…]+$/;
const MULTI_SPACE = /\s+/g;

export function normalise(text: string): string {
  let s = text.toLowerCase().replace(CURLY, "'").trim();
  s = s.replace(CONTRACTION_RE, (m: string, stem: string | undefined) => CONTRACTIONS[m] ?? `${stem} not`);
  s = s.replace(TRAILING_STOP, '').replace(MULTI_SPACE, ' ');
  return s.trim();
}

const WORD_RE = /[a-z0-9']+/g;

/** True when every word is a greeting/acknowledgement word (stops at the first other word). */
export function isSmallTalk(raw: string): boolean {
  if (raw.length > 80) return false;
  const lower = raw.toLowerCase().replace(CURLY, "'");
  WORD_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = WORD_RE.exec(lower))) {
    if (!SMALL_TALK_WORDS.has(m[0].replace(/'/g, ''))) return false;
  }
  return true; // only small-talk words, or punctuation / emoji only
}

/**
 * "Now" before the speaker's "I" ("Now I feel more confident", "Now, I'm going to order sushi", "Now I think I'll
 * …") moves behind the subject and its auxiliary, so the clause opens with its subject and is read as the speaker's
 * own statement ("I now feel …", "I'm now going to …", "I can now …"), not reported; a hedge after it still goes.
 */
const NOW_BEFORE_I = /^now,?\s+(?=i(?:'m|'ve|'ll|'d)?\s)/i;
const SUBJECT_AND_AUXILIARY = /^(i(?:'m|'ve|'ll|'d)?(?:\s+(?:am|was|can|could|will|would|should|have|had|must|might|may))?)\s+/i;

export function stripFillers(text: string): { text: string; hedged: boolean } {
  let s = text.replace(CURLY, "'").trim();
  let hedged = false;
  let now = false;
  for (let i = 0; i < 3; i++) {
    const before = s;
    s = s.replace(LEADING_FILLER, '').replace(LEADING_PHATIC, '').replace(LEADING_TOPIC, '');
    const n = s.replace(NOW_BEFORE_I, '');
    if (n !== s) {
      now = true;
      s = n;
    }
    const h = s.replace(LEADING_HEDGE, '');
    if (h !== s) {
      hedged = true;
      s = h;
    }
    if (s === before) break;
  }
  s = s.replace(TRAILING_FILLER, '').trim();
  if (now) s = s.replace(SUBJECT_AND_AUXILIARY, '$1 now ');
  return { text: s, hedged };
}
