/**
 * Quality gate: runs on every add call before anything is stored. Pure, deterministic, no I/O
 * (≈ 0.05 ms for a typical 10-message conversation).
 *
 * Rules, evaluated in this order; the first that matches decides:
 *
 * | # | Decision             | Level / reason            | When                                                                                          |
 * |---|----------------------|---------------------------|-----------------------------------------------------------------------------------------------|
 * | 0 | (always first)       | –                         | Secrets are redacted from every message of every role and replaced by `[REDACTED:<kind>]`     |
 * |   |                      |                           | (kinds and detectors: see `secrets.ts`). Only the redacted copies are returned or stored.    |
 * | 1 | `block`              | `L4` `sensitive_content`  | No user turn has meaningful text once the redactions are removed, and at least one user turn  |
 * |   |                      |                           | contained a secret: the user only pasted a key, a card number, a password…                   |
 * | 2 | `block`              | `L2` `low_quality`        | No user turn has meaningful text (definition below), or there is no user turn at all         |
 * |   |                      |                           | (only assistant/system messages).                                                            |
 * | 3 | `nothing_to_extract` | –                         | Every meaningful user turn is only greetings, thanks, acknowledgements, filler, or questions/ |
 * |   |                      |                           | requests to the assistant without a first-person statement: "hi", "thanks a lot!", "ok cool", |
 * |   |                      |                           | "what's the weather like?", "can you write me a poem about cats?".                          |
 * | 4 | `accept`             | –                         | Everything else. In doubt the gate accepts and the extractor decides.                         |
 *
 * Meaningful text (a user turn, with the redaction placeholders removed):
 * - Words are runs of letters in any script. 1-letter words are neutral; every CJK character counts as a word.
 * - Junk words: one character repeated 3+ times ("aaaa"); a 1–3 character pattern repeated, 6+ letters
 *   ("asdasdasd"); more than 30 letters; Latin, 5+ letters and no vowel ("sdfkj"); keyboard mashing — 5+
 *   letters where ≥ 80 % of neighbouring letters are next to each other on a QWERTY row ("qwerty",
 *   "asdfghjkl"), or 7+ letters from the home row only. Laughter ("haha", "lol") is not junk.
 * - Ignored (neither words nor junk): numbers, punctuation, emoji, URLs, e-mail addresses, and data chunks of
 *   20+ characters without spaces (hex with digits, random mixed case, long letter+digit runs: git SHAs,
 *   base64). A turn that is a hex dump (8+ chunks, ≥ 80 % hex bytes/words) is junk as a whole.
 * - A turn is meaningful when valid-word letters are ≥ 50 % of valid + junk letters, control/replacement
 *   characters (binary data) are < 10 % of its visible characters, and it has ≥ 2 valid words of 2+ letters,
 *   or exactly 1 that is a conversational word ("hi", "thanks", "ok", "lol"…).
 * - A reply to an assistant question (the previous non-system message is an assistant message with "?") is
 *   also meaningful with a single valid word ("Lisbon") or only a number ("34"), unless it contains junk.
 *
 * Filler vs. accept (rule 3): each meaningful user turn is split into sentences at . ! ? … ; and line breaks.
 * - Stock phrases are filler even with "I"/"my": "I see", "I'm good, thanks", "I appreciate it", "my bad",
 *   "can I ask you something?".
 * - Any other sentence with a first-person marker is a disclosure → accept. Markers: I, I'm, I've, I'd, I'll,
 *   my, mine, myself, we, we're, we've, our, ours (+ common Portuguese, Spanish, French, German, Italian and
 *   Dutch equivalents: eu/meu/sou, yo/mi/soy, je/j'…/mon/suis, ich/mein/bin, io/mio/sono, ik/mijn).
 *   "me" and "us" alone are not markers, so "tell me a joke" stays a request.
 * - Filler: every word is in the greeting/thanks/acknowledgement lexicon ("thanks a lot", "ok cool").
 * - Question: ends with "?", or starts (after leading filler such as "hi", "ok so") with an interrogative
 *   word (what, how, is, can, do, …).
 * - Request: starts (after leading filler) with please/let's or an imperative verb (write, tell, give,
 *   explain, translate, summarize, recommend, remind, …).
 * - Anything else is a statement → accept, in any language ("The meeting moved to Friday.").
 * - A reply to an assistant question containing yes/no/sure/never/always… is accept: "Are you
 *   vegetarian?" → "yes" is a disclosure.
 * The turn is filler only if all its sentences are filler, questions or requests; one accepting turn
 * makes the whole conversation `accept`.
 */
import type { ConversationMessage } from '../messages';
import { redactSecrets } from '../secrets';

export type GateOutcome =
  | {
      decision: 'accept';
      nothingToExtract: false;
      messages: ConversationMessage[];
      redactions: number;
      redactedKinds: Record<string, number>;
    }
  | {
      decision: 'nothing_to_extract';
      nothingToExtract: true;
      messages: ConversationMessage[];
      redactions: number;
      redactedKinds: Record<string, number>;
    }
  | {
      decision: 'block';
      level: 'L2' | 'L4';
      reason: 'low_quality' | 'sensitive_content';
      redactions: number;
      redactedKinds: Record<string, number>;
    };

const PLACEHOLDER_RE = /\[REDACTED:[a-z_]+\]/g;

export function runQualityGate(messages: ConversationMessage[]): GateOutcome {
  let redactions = 0;
  const redactedKinds: Record<string, number> = {};
  const redactedPerMessage: number[] = [];
  const redacted = messages.map((m) => {
    const r = redactSecrets(m.content ?? '');
    redactions += r.redacted;
    redactedPerMessage.push(r.redacted);
    for (const [kind, n] of Object.entries(r.findings)) redactedKinds[kind] = (redactedKinds[kind] ?? 0) + n;
    return { ...m, content: r.text };
  });

  let anyMeaningful = false;
  let userSecrets = false;
  let substantive = false;
  for (let i = 0; i < redacted.length; i++) {
    const m = redacted[i];
    if (m.role !== 'user') continue;
    if (redactedPerMessage[i] > 0) userSecrets = true;
    const residual = m.content.replace(PLACEHOLDER_RE, ' ');
    const replyToQuestion = previousIsAssistantQuestion(redacted, i);
    if (!isMeaningful(residual, replyToQuestion)) continue;
    anyMeaningful = true;
    if (isSubstantive(residual, replyToQuestion)) {
      substantive = true;
      break; // the decision is `accept` whatever the remaining turns contain
    }
  }

  if (!anyMeaningful) {
    return userSecrets
      ? { decision: 'block', level: 'L4', reason: 'sensitive_content', redactions, redactedKinds }
      : { decision: 'block', level: 'L2', reason: 'low_quality', redactions, redactedKinds };
  }
  if (!substantive) {
    return { decision: 'nothing_to_extract', nothingToExtract: true, messages: redacted, redactions, redactedKinds };
  }
  return { decision: 'accept', nothingToExtract: false, messages: redacted, redactions, redactedKinds };
}

function previousIsAssistantQuestion(messages: ConversationMessage[], index: number): boolean {
  for (let j = index - 1; j >= 0; j--) {
    const prev = messages[j];
    if (prev.role === 'system') continue;
    return prev.role === 'assistant' && prev.content.includes('?');
  }
  return false;
}

// ---------------------------------------------------------------------------------------------------------
// Meaningfulness
// ---------------------------------------------------------------------------------------------------------

const WORD_RE = /[\p{L}\p{M}]+(?:['’][\p{L}\p{M}]+)*/gu;
const CJK_RE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu;
const LATIN_WORD_RE = /^[a-z\u00C0-\u024F'’]+$/;
const VOWEL_RE = /[aeiouyàáâãäåæèéêëìíîïòóôõöøœùúûüýÿ]/;
const LAUGHTER_RE = /^(?:a?(?:ha){2,}h?|(?:he){2,}|(?:hi){2,}|(?:ja){2,}|(?:ka){2,}|(?:rs){2,}|k{3,}|l+o+l+|lmf?ao+|rofl|xd+|ha|aha)$/;
const BINARY_RE = /[\u0000-\u0008\u000E-\u001F\uFFFD]/g;
const URL_OR_EMAIL_RE = /^(?:[a-z][a-z0-9+.-]*:\/\/\S+|www\.\S+|[^\s@]+@[^\s@]+\.[a-z]{2,})$/i;

const KEY_ROWS = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm'];
const KEY_POS = new Map<string, [number, number]>();
KEY_ROWS.forEach((row, r) => [...row].forEach((c, col) => KEY_POS.set(c, [r, col])));

function isKeyboardMash(word: string): boolean {
  if (word.length < 5) return false;
  if (word.length >= 7 && /^[asdfghjkl]+$/.test(word)) return true;
  let adjacent = 0;
  for (let i = 1; i < word.length; i++) {
    const a = KEY_POS.get(word[i - 1]);
    const b = KEY_POS.get(word[i]);
    if (a && b && a[0] === b[0] && Math.abs(a[1] - b[1]) === 1) adjacent++;
  }
  // ≥ 0.8 keeps real words out ("power", "fewer", "newer" are 0.75); checked against a 20k-word lexicon.
  return adjacent / (word.length - 1) >= 0.8;
}

type WordClass = 'valid' | 'junk' | 'neutral';

function classifyWord(word: string): WordClass {
  const lower = word.toLowerCase();
  if (lower.length < 2) return 'neutral';
  if (LAUGHTER_RE.test(lower) || FILLER_WORDS.has(lower)) return 'valid';
  if (lower.length > 30) return 'junk';
  if (lower.length >= 3 && /^(.)\1+$/u.test(lower)) return 'junk';
  if (lower.length >= 6 && /^(.{1,3})\1{2,}$/u.test(lower)) return 'junk';
  if (LATIN_WORD_RE.test(lower)) {
    if (lower.length >= 5 && !VOWEL_RE.test(lower)) return 'junk';
    if (isKeyboardMash(lower)) return 'junk';
  }
  return 'valid';
}

/** A chunk without spaces that is base64/hex/random data rather than language (git SHAs, base64 pastes…). */
function isBlobChunk(chunk: string): boolean {
  if (chunk.length < 20 || !/^[A-Za-z0-9+/=_-]+$/.test(chunk)) return false;
  if (/^[0-9a-f]+$/i.test(chunk)) return /[0-9]/.test(chunk);
  const letters = chunk.replace(/[^A-Za-z]/g, '');
  let caseChanges = 0;
  for (let i = 1; i < letters.length; i++) {
    if ((letters[i] >= 'a') !== (letters[i - 1] >= 'a')) caseChanges++;
  }
  if (letters.length >= 8 && caseChanges / (letters.length - 1) >= 0.35) return true; // random mixed case
  // Letters and digits interleaved in one long segment ("a1b2c3…"), unlike "covid19-vaccination-2021".
  return /[0-9]/.test(chunk) && /[A-Za-z]/.test(chunk) && chunk.split(/[_-]/).some((seg) => seg.length >= 20);
}

/** "3f 2a 9c 00 ff d8 …": many short chunks that are all hex bytes/words. */
function isHexDump(chunks: string[]): boolean {
  if (chunks.length < 8) return false;
  const hex = chunks.filter((c) => /^(?:0x)?[0-9a-f]{2,8}$/i.test(c));
  const withDigit = hex.filter((c) => /[0-9]/.test(c));
  return hex.length / chunks.length >= 0.8 && withDigit.length / chunks.length >= 0.3;
}

interface TurnStats {
  validWords: string[];
  validChars: number;
  junkChars: number;
  hasDigits: boolean;
}

function analyse(text: string): TurnStats {
  const stats: TurnStats = { validWords: [], validChars: 0, junkChars: 0, hasDigits: /\d/.test(text) };
  const chunks = text
    .split(/\s+/)
    .map((raw) => raw.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter(Boolean);
  if (isHexDump(chunks)) {
    stats.junkChars = text.length;
    return stats;
  }
  for (const chunk of chunks) {
    // URLs, e-mail addresses and data blobs are neither language nor junk language: they are ignored, so
    // "my commit is <sha>" stays meaningful while a blob on its own has no valid words.
    if (URL_OR_EMAIL_RE.test(chunk) || isBlobChunk(chunk)) continue;
    for (const w of chunk.match(WORD_RE) ?? []) {
      const cjk = w.match(CJK_RE)?.length ?? 0;
      if (cjk > 0) {
        for (let i = 0; i < cjk; i++) stats.validWords.push(w);
        stats.validChars += w.length;
        continue;
      }
      const cls = classifyWord(w);
      if (cls === 'valid') {
        stats.validWords.push(w.toLowerCase());
        stats.validChars += w.length;
      } else if (cls === 'junk') {
        stats.junkChars += w.length;
      }
    }
  }
  return stats;
}

function isMeaningful(text: string, replyToQuestion: boolean): boolean {
  const visible = text.replace(/\s+/g, '');
  if (!visible) return false;
  const binary = visible.match(BINARY_RE)?.length ?? 0;
  if (binary / visible.length >= 0.1) return false;
  const s = analyse(text);
  const mostlyLanguage = s.validChars > 0 && s.validChars / (s.validChars + s.junkChars) >= 0.5;
  if (replyToQuestion) {
    if (s.junkChars === 0 && s.hasDigits) return true; // "34" after "How old are you?"
    return s.validWords.length >= 1 && mostlyLanguage;
  }
  if (!mostlyLanguage) return false;
  if (s.validWords.length >= 2) return true;
  return s.validWords.length === 1 && (FILLER_WORDS.has(s.validWords[0]) || LAUGHTER_RE.test(s.validWords[0]));
}

// ---------------------------------------------------------------------------------------------------------
// Filler vs. substantive
// ---------------------------------------------------------------------------------------------------------

const words = (s: string) => new Set(s.trim().split(/\s+/));

/** Greetings, thanks, acknowledgements, reactions and small connective words. */
const FILLER_WORDS = words(`
  hi hello hey heya hiya yo howdy greetings hallo hola ola olá oi bonjour salut ciao hej
  good morning afternoon evening night day gm gn
  thanks thank thx ty tysm tyvm cheers appreciated obrigado obrigada gracias merci danke grazie bedankt
  you u ya much so very lot lots alot a the for all your this that it again there everyone guys man dude buddy
  great awesome cool nice perfect wonderful amazing excellent brilliant sweet neat fantastic lovely super fab
  ok okay okey oki k kk alright allright fine sure yes yeah yep yup ya yea no nope nah
  got understood noted right correct exactly indeed true agreed totally absolutely definitely of course
  lol haha hahaha hehe lmao rofl hmm hm hmmm uh um umm oh ah aha wow whoa omg oops yay woohoo
  bye goodbye see later soon tomorrow tonight today cya ttyl farewell care take
  welcome np problem worries please pls plz
  sounds looks seems makes sense works worked helps helped helpful done
  interesting fair enough well really too also just and then now next
  sorry nevermind nvm mind never
  that's thats it's its
`);

/** Words that may precede a question or request without changing its nature ("ok so, what is…"). */
const LEADING_FILLER = new Set([
  ...FILLER_WORDS,
  'so', 'and', 'also', 'now', 'then', 'next', 'one', 'more', 'quick', 'question', 'another', 'btw', 'anyway', 'actually',
]);

const QUESTION_STARTERS = words(`
  what what's whats how how's hows why when where where's who who's whom whose which
  is isn't are aren't was wasn't were weren't can can't could couldn't would wouldn't will won't
  do does doesn't did didn't don't should shouldn't shall may might have has hasn't haven't any
  qual quais como porque quando onde quem qué que cuál cual cómo dónde cuándo quién pourquoi comment où quand
  quoi quel quelle est-ce was wie warum wo wann wer welche welcher
`);

const REQUEST_STARTERS = words(`
  write tell give show explain help translate summarize summarise list make create generate draft find search
  look recommend suggest describe compare calculate convert fix rewrite edit check define continue repeat send
  draw plan compose proofread review name outline brainstorm teach play sing count solve analyze analyse debug
  code implement build design remind add remove delete update change try keep go stop say read format shorten
  expand elaborate simplify clarify paraphrase correct improve share provide answer guess imagine pretend act
  let's lets let please pls plz kindly do
`);

const FIRST_PERSON_RE = new RegExp(
  '(?:^|[^\\p{L}\\p{M}\'’])(?:' +
    [
      // English
      "i", "i'm", 'im', "i've", 'ive', "i'd", "i'll", 'my', 'mine', 'myself', 'we', "we're", "we've", "we'd",
      "we'll", 'our', 'ours', 'ourselves',
      // Portuguese, Spanish, French, German, Italian, Dutch
      'eu', 'meu', 'minha', 'meus', 'minhas', 'nós', 'nosso', 'nossa', 'sou', 'estou', 'tenho',
      'yo', 'mi', 'mis', 'soy', 'estoy', 'tengo', 'nuestro', 'nuestra', 'nosotros',
      'je', 'mon', 'ma', 'mes', 'nous', 'notre', 'suis',
      'ich', 'mein', 'meine', 'meinen', 'meinem', 'meiner', 'wir', 'unser', 'unsere', 'bin', 'habe',
      'io', 'mio', 'mia', 'miei', 'mie', 'noi', 'nostro', 'nostra', 'sono', 'ho',
      'ik', 'mijn', 'wij', 'onze',
    ]
      .map((w) => w.replace(/'/g, "['’]"))
      .join('|') +
    "|j['’]\\p{L}+" +
    ")(?=$|[^\\p{L}\\p{M}'’])",
  'iu',
);

/** Whole sentences that contain "I"/"my" but are conversational stock phrases, not disclosures. */
const FIRST_PERSON_STOCK_RE = new RegExp(
  '^(?:(?:ok|okay|oh|ah|yes|yeah|well|hmm|alright|no|great|thanks|thank you|cool|sure)\\s+)*' +
    '(?:i see|i know|i agree|i understand|i get it|i got it|i guess(?: so)?|i think so|i don\'?t think so|' +
    'i don\'?t know|i\'?m not sure|i appreciate (?:it|that|this|you|your help|the help)|' +
    'i\'?m (?:good|fine|ok|okay|great|well|back|here|done|ready)|i am (?:good|fine|ok|okay|great|well|back|ready)|' +
    'i mean|me too|same here|my bad|my pleasure|i love (?:it|that|this)|i like (?:it|that|this)|' +
    'i\'?ll try(?: (?:it|that))?|i will try(?: (?:it|that))?|i\'?ll do that|let me think|i\'?d like that|we\'?ll see|' +
    'i have a question|i have another question|can i ask (?:you )?(?:something|a question))' +
    '(?:\\s+(?:thanks|thank you|too|then|now|lol|haha|again|so much|a lot))*$',
);

/** Replies that answer an assistant's question ("Are you vegetarian?" → "yes"). */
const ANSWER_WORDS = words(`
  yes yeah yep yup yea ya no nope nah sure correct right exactly definitely absolutely never always sometimes
  often usually rarely both neither true false indeed maybe probably obviously certainly
`);

type SentenceKind = 'disclosure' | 'filler' | 'question' | 'request' | 'statement';

function classifySentence(sentence: string): SentenceKind | null {
  const normalized = sentence
    .toLowerCase()
    .replace(/’/g, "'")
    .replace(/[^\p{L}\p{M}\p{N}'\s-]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (!normalized || !/[\p{L}\p{N}]/u.test(normalized)) return null;
  if (FIRST_PERSON_STOCK_RE.test(normalized)) return 'filler';
  if (FIRST_PERSON_RE.test(normalized)) return 'disclosure';
  const tokens = normalized.split(' ');
  if (tokens.every((t) => FILLER_WORDS.has(t) || LAUGHTER_RE.test(t))) return 'filler';
  let i = 0;
  while (i < tokens.length && (LEADING_FILLER.has(tokens[i]) || LAUGHTER_RE.test(tokens[i]))) i++;
  // A leading "can you", "do you", "please" is part of the question/request itself, not filler.
  for (let j = 0; j < i; j++) {
    if (QUESTION_STARTERS.has(tokens[j]) || REQUEST_STARTERS.has(tokens[j])) {
      i = j;
      break;
    }
  }
  const first = tokens[i] ?? '';
  const endsWithQuestionMark = /\?[\s"'”’)\]\p{Extended_Pictographic}\uFE0F]*$/u.test(sentence);
  if (endsWithQuestionMark || QUESTION_STARTERS.has(first)) return 'question';
  if (REQUEST_STARTERS.has(first)) return 'request';
  return 'statement';
}

const SENTENCE_RE = /[^.!?…;\n]+[.!?…;]*/g;

function isSubstantive(text: string, replyToQuestion: boolean): boolean {
  if (replyToQuestion) {
    const tokens = text.toLowerCase().split(/[^\p{L}\p{N}']+/u).filter(Boolean);
    if (tokens.some((t) => ANSWER_WORDS.has(t))) return true;
  }
  for (const sentence of text.match(SENTENCE_RE) ?? []) {
    const kind = classifySentence(sentence);
    if (kind === 'disclosure' || kind === 'statement') return true;
  }
  return false;
}
