/**
 * Short answers to the assistant's questions (unnamed user only).
 *
 * The cause: when the assistant asks about the user, the user answers with a fragment that has no subject
 * ("A golden retriever.", "About six hours a night.", "No."): each clause was skipped as too short or
 * without a self-reference, and the fact was lost. The answer is kept together with the question it
 * answers, the question rewritten about the user:
 *
 * | assistant                                | user                     | memory                                                        |
 * |------------------------------------------|--------------------------|---------------------------------------------------------------|
 * | "What breed is your dog?"                | "A golden retriever."    | Asked "What breed is the user's dog?", the user answered: A golden retriever. |
 * | "How many hours do you sleep?"           | "About six, usually."    | Asked "How many hours does the user sleep?", the user answered: About six, usually. |
 * | "Do you have any allergies?"             | "No."                    | Asked "Does the user have any allergies?", the user answered: No. |
 *
 * Only when the user's message yields no other memory, is at most 12 words, is not itself a question, and
 * does not speak to the assistant ("thanks", "you"); and only for a question about the user (it says
 * "you"/"your") that is not an offer ("Would you like more tips?", "Shall I …", "Does that help?").
 */
import { toAddressee } from './addressee';
import { rewriteLater } from './third-person';

const ABOUT_USER = /\b(?:you|your|yours|yourself|you're|you've|you'd|you'll)\b/i;
const OFFER =
  /\b(?:would you like|do you want (?:me|to)|want me to|shall i|should i|can i help|may i|how can i|what else|anything else|is there anything|does (?:that|this) (?:help|make sense|sound)|did (?:that|this) help|let me know|are you ready|would it help|like me to|interested in (?:learning|knowing|hearing|exploring|trying|reading)|need (?:any )?(?:more|further|other|additional) |have (?:any )?(?:other |more |further )?questions|would you prefer (?:me|that i)|ready to|care to share|mind sharing)\b/i;
const SPEAKS_TO_ASSISTANT = /\b(?:you|your|thanks|thank|thx|appreciate)\b/i;

/** The assistant's last question, when it asks about the user and is not an offer. */
export function questionAboutUser(assistantText: string, questions: string[]): string | null {
  const q = questions[questions.length - 1];
  if (!q || q.length > 200 || !ABOUT_USER.test(q) || OFFER.test(q)) return null;
  // the question must end the assistant's message (a question in the middle was not left for the user)
  const tail = assistantText.trimEnd().slice(-Math.max(q.length + 40, 80));
  return tail.includes(q.slice(-20)) ? q : null;
}

/** "What breed is your dog?" → "What breed is the user's dog?" */
export function aboutUser(question: string): string {
  const q = toAddressee(question, 'the user');
  return q.charAt(0).toUpperCase() + q.slice(1);
}

/** True when a whole user message can be a short answer. */
export function isShortAnswer(text: string): boolean {
  const t = text.trim();
  if (!t || t.length > 120 || /\?\s*$/.test(t) || SPEAKS_TO_ASSISTANT.test(t)) return false;
  return t.split(/\s+/).length <= 12;
}

export function answerMemory(question: string, answer: string): string {
  const a = rewriteLater(answer.trim(), false).replace(/\s+/g, ' ');
  return `Asked "${aboutUser(question)}", the user answered: ${a}${/[.!]$/.test(a) ? '' : '.'}`;
}
