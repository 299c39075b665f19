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
 * "you"/"your") that is not an offer ("Would you like more tips?", "Shall I …", "Does that help?"), or a
 * follow-up too short to name whom it asks about, put right after the user spoke: "We keep bees in the garden." →
 * "Any honey yet?" → "Yes, 12 jars this summer." (`ellipticFollowUp`: two to five words opening with a question
 * word or "any", no verb, no one named by a pronoun; not "Any questions?", "What else?" or a suggestion, "How
 * about a walk?").
 */
import { toAddressee } from './addressee';
import { rewriteLater } from './third-person';

const ABOUT_USER = /\b(?:you|your|yours|yourself|you're|you've|you'd|you'll)\b/i;
const OFFER =
  /\b(?:would you like|do you want (?:me|to)|want me to|shall i|should i|can i help|may i|how can i|what else|anything else|is there anything|does (?:that|this) (?:help|make sense|sound)|did (?:that|this) help|let me know|are you ready|would it help|like me to|interested in (?:learning|knowing|hearing|exploring|trying|reading)|need (?:any )?(?:more|further|other|additional) |have (?:any )?(?:other |more |further )?questions|would you prefer (?:me|that i)|ready to|care to share|mind sharing)\b/i;
const SPEAKS_TO_ASSISTANT = /\b(?:you|your|thanks|thank|thx|appreciate)\b/i;

const FOLLOW_UP_OPENING = /^(?:any|how|which|what|where|when|since|who|whose)\b/i;
const FINITE_VERB = /\b(?:is|are|am|was|were|be|been|do|does|did|has|have|had|can|could|will|would|should|shall|may|might|must)\b|['’](?:s|re|ve|ll|d)\b/i;
const NAMES_SOMEONE = /\b(?:i|me|my|mine|we|us|our|he|him|his|she|her|they|them|their|it|its|this|that|these|those)\b/i;
/** Offers and suggestions ("How about "Celestial Majesty"?"), not questions about what the user said. */
const NOT_ABOUT_WHAT_WAS_SAID = /\b(?:questions?|else|help|ideas?|tips?|suggestions?)\b|^(?:how|what) about\b|["“”]/i;

/**
 * A question too short to say whom it is about ("Any honey yet?", "How many hives?", "Since when?"): asked right
 * after the user spoke, it asks about what the user said.
 */
export function ellipticFollowUp(question: string): boolean {
  const words = question.trim().split(/\s+/);
  return (
    words.length >= 2 &&
    words.length <= 5 &&
    FOLLOW_UP_OPENING.test(question.trim()) &&
    !FINITE_VERB.test(question) &&
    !NAMES_SOMEONE.test(question) &&
    !NOT_ABOUT_WHAT_WAS_SAID.test(question)
  );
}

/**
 * The assistant's last question, when it asks about the user and is not an offer. `followsUser`: the assistant's
 * message came right after one of the user's, so a short follow-up asks about it (`ellipticFollowUp`).
 */
export function questionAboutUser(assistantText: string, questions: string[], followsUser = false): string | null {
  const q = questions[questions.length - 1];
  if (!q || q.length > 200 || OFFER.test(q)) return null;
  if (!ABOUT_USER.test(q) && !(followsUser && ellipticFollowUp(q))) return null;
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
