/**
 * The evidence layer's unit (docs/evidence-layer.md): what one speaker said in one message, cut at sentence
 * ends into passages of at most PASSAGE_MAX_WORDS words, so a long assistant answer is found by the part that
 * matches the query rather than drowned by the rest. Pure functions; the extraction job stores the result.
 */
import { carriesInstruction } from '../extraction/instructions';
import { POINTS_BACK } from '../extraction/lexicon';
import { contentWords } from '../text/terms';
import type { PassageRole } from '@memory/db';
import type { ConversationMessage } from '../messages';

export const PASSAGE_MAX_WORDS = 120;

export interface PassageDraft {
  messageIndex: number;
  part: number;
  role: PassageRole;
  speaker: string | null;
  content: string;
  /**
   * The question this passage answers, when it opens a person's reply to a question another speaker just asked
   * (`questionAnswered`): indexed with the passage, never part of its content.
   */
  answers?: string;
}

/** Sentences of a text: ends at . ! ? or a line break, keeping the punctuation. */
function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?…])\s+|\n+/u)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

const wordCount = (s: string) => (s.match(/\S+/g) ?? []).length;

/** Cuts one message into passages: whole sentences while they fit; a longer sentence is cut by words. */
export function splitMessage(text: string, maxWords = PASSAGE_MAX_WORDS): string[] {
  const out: string[] = [];
  let current: string[] = [];
  let words = 0;
  const flush = () => {
    if (current.length) out.push(current.join(' '));
    current = [];
    words = 0;
  };
  for (const sentence of sentences(text)) {
    const n = wordCount(sentence);
    if (n > maxWords) {
      flush();
      const tokens = sentence.split(/\s+/);
      for (let i = 0; i < tokens.length; i += maxWords) out.push(tokens.slice(i, i + maxWords).join(' '));
      continue;
    }
    if (words + n > maxWords) flush();
    current.push(sentence);
    words += n;
  }
  flush();
  return out;
}

/** The most words a question may have to be indexed with the reply that answers it. */
export const QUESTION_MAX_WORDS = 25;

/** The most words of the message a follow-up question points back to that are indexed with the reply. */
export const FOLLOW_UP_CONTEXT_MAX_WORDS = 40;


/**
 * A follow-up question: it points back with a pronoun and names at most two things of its own ("What's it
 * about?", "How'd they like it?", "Have you tried it yet?"); what it asks about was said before it.
 */
export function isFollowUpQuestion(question: string): boolean {
  return POINTS_BACK.test(question) && contentWords(question).length <= 2;
}

/** The closing words of a text, whole sentences while they fit in `maxWords` (at least the last sentence, cut). */
function closingWords(text: string, maxWords: number): string {
  const kept: string[] = [];
  let words = 0;
  for (const s of sentences(text).reverse()) {
    const n = wordCount(s);
    if (kept.length > 0 && words + n > maxWords) break;
    kept.unshift(n > maxWords ? s.split(/\s+/).slice(-maxWords).join(' ') : s);
    words += n;
  }
  return kept.join(' ');
}

/**
 * The question a person's message answers: the closing question of the message right before it, when another
 * speaker said that message (the assistant, or another named person). "Any favourite tracks?" — "I find
 * instrumental tracks with mellow melodies help" is found by "what music helps her yoga" only through the
 * question's words; "How was the camping trip?" — "We explored nature and roasted marshmallows" says no
 * "camping" at all. Only a question among the last two sentences, of at most QUESTION_MAX_WORDS words: a long
 * message's opening question is not what the next line answers. Null for an assistant message (what the
 * assistant says is found by its own words and shown with its prompt, `promptOf`).
 *
 * A follow-up question (`isFollowUpQuestion`) asks about something said before it: "I finished my first
 * screenplay last Friday." — "What's it about?" — "A mix of drama and romance!" The reply is then indexed with
 * the closing words of the message the question ends (what "it" most likely names, when the asker said it) and
 * of the replier's own message before the question (when the replier did), FOLLOW_UP_CONTEXT_MAX_WORDS each.
 */
export function questionAnswered(messages: readonly ConversationMessage[], messageIndex: number): string | null {
  const m = messages[messageIndex];
  if (m?.role !== 'user') return null;
  const before = previousSpoken(messages, messageIndex);
  const prev = before >= 0 ? messages[before] : null;
  if (!prev || typeof prev.content !== 'string') return null;
  if (sameSpeaker(prev, m)) return null;
  const asked = closingQuestions(prev.content);
  if (asked.length === 0) return null;
  if (!asked.some(isFollowUpQuestion)) return asked.join(' ');
  const context: string[] = [];
  const earlier = previousSpoken(messages, before);
  const own = earlier >= 0 ? messages[earlier] : null;
  if (own && typeof own.content === 'string' && sameSpeaker(own, m)) context.push(closingWords(own.content, FOLLOW_UP_CONTEXT_MAX_WORDS));
  const at = prev.content.lastIndexOf(asked[0]);
  const lead = at > 0 ? prev.content.slice(0, at).trim() : '';
  if (lead) context.push(closingWords(lead, FOLLOW_UP_CONTEXT_MAX_WORDS));
  return [...asked, ...context].join(' ');
}

/** The questions among the last two sentences of a message, of at most QUESTION_MAX_WORDS words each. */
function closingQuestions(text: string): string[] {
  return sentences(text)
    .slice(-2)
    .filter((s) => s.endsWith('?') && wordCount(s) <= QUESTION_MAX_WORDS);
}

/** Whether a message closes with a question the next speaker's message answers (`questionAnswered`). */
export function closesWithQuestion(text: string): boolean {
  return closingQuestions(text).length > 0;
}

/** The index of the user or assistant message before `index` (-1 when none). */
function previousSpoken(messages: readonly ConversationMessage[], index: number): number {
  let i = index - 1;
  while (i >= 0 && messages[i].role !== 'user' && messages[i].role !== 'assistant') i--;
  return i;
}

const sameSpeaker = (a: ConversationMessage, b: ConversationMessage) => a.role === b.role && (a.role === 'assistant' || (a.name ?? null) === (b.name ?? null));

/** Every user and assistant message of a conversation as passages (system and tool messages are not evidence). */
export function splitPassages(messages: readonly ConversationMessage[], maxWords = PASSAGE_MAX_WORDS): PassageDraft[] {
  const out: PassageDraft[] = [];
  messages.forEach((m, messageIndex) => {
    if (m.role !== 'user' && m.role !== 'assistant') return;
    // a user line aimed at the model is not evidence: retrieval would paste it into the next prompt
    if (m.role === 'user' && typeof m.content === 'string' && carriesInstruction(m.content)) return;
    const answers = questionAnswered(messages, messageIndex);
    splitMessage(m.content, maxWords).forEach((content, part) => {
      const draft: PassageDraft = { messageIndex, part, role: m.role as 'user' | 'assistant', speaker: m.name ?? null, content };
      // the opening part is the answer; later parts of a long message go on to other things
      if (answers && part === 0) draft.answers = answers;
      out.push(draft);
    });
  });
  return out;
}

const DATE = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/**
 * An assistant reply is returned with the user message it answers (its prompt): "Miss Bee Providore offers
 * a Nasi Goreng…" means little without "Can you recommend a restaurant in Cihampelas Walk?", and an agent
 * asked about the conversation needs both. A prompt that is one passage (at most PASSAGE_MAX_WORDS words, never
 * cut) is quoted whole (and cited in the passage's `message_indices`); a longer one is quoted up to that many
 * words with "…" and not cited, since its words are not all there.
 */
export const PROMPT_MAX_WORDS = PASSAGE_MAX_WORDS;

export interface PassagePrompt {
  messageIndex: number;
  speaker: string | null;
  /** The quoted words; `whole` when they are the entire message. */
  quote: string;
  whole: boolean;
}

/**
 * The prompt of a reply (an assistant message, or a named person's answer to another's question): the message right
 * before it, quoted whole or shortened.
 */
export function promptOf(messageIndex: number, text: string, speaker: string | null, maxWords = PROMPT_MAX_WORDS): PassagePrompt {
  const words = text.split(/\s+/).filter((w) => w.length > 0);
  const whole = words.length <= maxWords;
  return { messageIndex, speaker, quote: whole ? words.join(' ') : `${words.slice(0, maxWords).join(' ')} …`, whole };
}

/**
 * A passage as retrieval returns and renders it: who said it and when, then the words in quotes, e.g.
 * `On 21 May 2023 the assistant said: "Dilute tea tree oil to 5 %…"`, or with the prompt it answers,
 * `On 21 May 2023 the user said: "How do I use tea tree oil?" and the assistant replied: "Dilute it…"`, and
 * between named people `On 3 June 2023 Priya said: "Which island did you like best?" and Tomas replied: "Vis!"`.
 * What the assistant said is attributed to the assistant, never stated as a fact about the user. The unnamed
 * user's messages are shown alone.
 */
export function passageText(
  p: { role: string; speaker: string | null; content: string; observedAt: Date | string | number },
  prompt: PassagePrompt | null = null,
): string {
  const at = p.observedAt instanceof Date ? p.observedAt : new Date(p.observedAt);
  const who = p.role === 'assistant' ? 'the assistant' : p.speaker ? p.speaker : 'the user';
  const when = Number.isNaN(at.getTime()) ? '' : `On ${DATE.format(at)} `;
  // a reply of the assistant, or of a named person to another's question, shows what it answers
  const said =
    prompt && (p.role === 'assistant' || p.speaker)
      ? `${when}${prompt.speaker ?? 'the user'} said: "${prompt.quote}" and ${who} replied: "${p.content}"`
      : `${when}${who} said: "${p.content}"`;
  return when ? said : said.charAt(0).toUpperCase() + said.slice(1);
}
