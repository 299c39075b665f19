/**
 * A standing request about how the assistant should answer — the language, length, format, units or tone of its
 * answers, or what to call the user — is a preference worth remembering: "From now on, please answer in French", "I'd
 * like you to always keep your answers short", "Don't use emojis when you reply to me", "Please call me Sam". Said to
 * the assistant, such a clause was skipped (a question, a request, or addressed to the assistant), so the next
 * conversation started without it.
 *
 * Kept: a request whose verb phrase speaks of the answer's form (`FORM`) with a word that makes it last ("always",
 * "never", "from now on", "going forward", "in future", "every time", "whenever", "anymore", "when you reply", "in
 * your answers"; "stop doing …" lasts by itself), and "call me / address me as <Name>". Anything else asked of the
 * assistant is a task for this conversation ("Please answer in French" with no such word, "Don't use bullet points"
 * after a text to rewrite, "Can you write a short poem?"). A line that tries to change the assistant's instructions
 * never reaches this rule (instructions.ts is read first).
 *
 * | said                                                    | memory                                                                 |
 * |---------------------------------------------------------|------------------------------------------------------------------------|
 * | "From now on, please answer in French."                 | "The user wants the assistant to answer in French from now on."        |
 * | "I'd like you to always keep your answers short."       | "The user wants the assistant to always keep its answers short."       |
 * | "Don't use emojis when you reply to me."                | "The user wants the assistant to never use emojis when it replies to the user." |
 * | "Can you use metric units going forward?"               | "The user wants the assistant to use metric units going forward."      |
 * | "Please call me Sam."                                   | "The user wants to be called Sam."                                     |
 */
import { conjugatePredicate, rewriteLater } from './third-person';

const LANGUAGES =
  'english|french|spanish|german|italian|portuguese|dutch|swedish|norwegian|danish|finnish|icelandic|polish|czech|slovak|' +
  'hungarian|romanian|bulgarian|greek|turkish|russian|ukrainian|serbian|croatian|slovenian|estonian|latvian|lithuanian|' +
  'arabic|hebrew|persian|farsi|hindi|urdu|bengali|punjabi|tamil|telugu|marathi|gujarati|chinese|mandarin|cantonese|' +
  'japanese|korean|vietnamese|thai|indonesian|malay|tagalog|filipino|swahili|catalan|basque|galician|welsh|irish|afrikaans';

/** What an answer's form is made of: its language, length, layout, units, tone. */
const FORM = new RegExp(
  String.raw`\b(?:in (?:${LANGUAGES})|short|shorter|brief|briefer|concise|succinct|detailed|longer|in-depth|one paragraph|` +
    String.raw`bullet(?:s| points?)?|numbered lists?|lists|tables|(?:in|as|into) (?:a )?table|markdown|emojis?|emoticons|jargon|technical terms|formal|informal|` +
    String.raw`casual|tone|metric|imperial|celsius|fahrenheit|kilometres|kilometers|miles|(?:british|american) (?:english|spelling)|` +
    String.raw`under \d+ words|\d+ words|sentences|paragraphs|summary|summaries|tl;?dr|examples|sources|citations|links|caps|exclamation marks?)\b`,
  'i',
);
/** The words that make a request last beyond this conversation. */
const LASTING =
  /\b(?:always|never|from now on|going forward|moving forward|from here on|in (?:the )?future|every time|each time|whenever|anymore|any more|by default|when you (?:reply|respond|answer|write|talk|explain)|in (?:all )?(?:your|future) (?:answers|replies|responses))\b/i;
/** What the request is made with, left out of the memory. */
const FRAME =
  /^(?:(?:from now on|going forward|moving forward|in (?:the )?future|for future reference),?\s+)?(?:(?:please|kindly)\s+)?(?:(?:can|could|would|will) you\s+(?:please\s+)?|(?:i want|i'd like|i would like|i need|i'd prefer|i would prefer|i prefer) (?:you|the assistant) to\s+|(?:please\s+)?(?:make sure (?:to|you)\s+|remember to\s+))?(?:please\s+)?/i;
/** A verb that asks about the answer itself. */
const ANSWER_VERB =
  /^(?:always |never )?(?:answer|respond|reply|write|talk|speak|explain|use|keep|give|make|format|stick to|switch to|include|add|avoid|stop|limit|put|show|list|stay)\b/i;
const NAME = /^(?:[Cc]all me|[Aa]ddress me as|[Rr]efer to me as)\s+((?:[A-Z][\p{L}'’-]+)(?:\s+[A-Z][\p{L}'’-]+)?)$/u;
const PROHIBITION = /^(?:don't|dont|do not|please don't|please do not)\s+/i;

/** The memory for a standing request about the assistant's answers, or null. */
export function responsePreference(clause: string): string | null {
  const text = clause
    .trim()
    .replace(/[\s.!?]+$/, '')
    .replace(/,?\s+please$/i, '');
  if (!text || text.length > 200) return null;
  const framed = text.replace(FRAME, '');
  const name = NAME.exec(framed);
  if (name) return `The user wants to be called ${name[1]}.`;
  const prohibited = PROHIBITION.exec(framed);
  const request = prohibited ? framed.slice(prohibited[0].length) : framed;
  if (!ANSWER_VERB.test(request) || !FORM.test(request)) return null;
  if (!LASTING.test(text) && !/^stop \w+ing\b/i.test(request)) return null;
  // the time the request was framed with goes after it ("From now on, answer in French" → "… in French from now on")
  const lead = /^(from now on|going forward|moving forward|in (?:the )?future)\b/i.exec(text);
  const verbPhrase = request.charAt(0).toLowerCase() + request.slice(1);
  const phrase = `${prohibited ? 'never ' : ''}${verbPhrase}${lead && !LASTING.test(request) ? ` ${lead[1].toLowerCase()}` : ''}`;
  return `The user wants the assistant to ${aboutAssistant(phrase)}.`;
}

/** "you" → "it" (its verb agreeing: "when it replies", "if it does not know", "when it can"), "your" → "its"; "I / me / my" → the user. */
function aboutAssistant(phrase: string): string {
  const third = phrase
    .replace(/\byou(?:'re|’re)\b/gi, 'it is')
    .replace(/\byou(?:'ve|’ve)\b/gi, 'it has')
    .replace(/\b(when|whenever|if|before|after|while|as|unless|until|because|that) you (\S+)/gi, (_m, c: string, v: string) => `${c} it ${conjugatePredicate(v, false)}`)
    .replace(/\byourself\b/gi, 'itself')
    .replace(/\byour\b/gi, 'its')
    .replace(/\byou\b/gi, 'it');
  return rewriteLater(third, false);
}
