/**
 * The wording of a request for advice, taken out of a query before it is scored: "Any suggestions?", "Can you
 * recommend …", "I've been thinking about …", "I'm not sure which one to choose". Those words say that the user
 * asks, not what about, and the memory layer is full of them ("The user asked: can you recommend any good moving
 * companies?", "The user was thinking about the user's schedule"), so a short memory that shares three of them
 * outranked the one message that shares the topic ("cocktail", "Denver"). What is left is scored; a query that is
 * nothing but the request keeps its words.
 */
import { contentWords } from '../text/terms';

/** Words that, beside stop words, leave nothing to search for ("Can you recommend something?"). */
const FILLER = new Set(['something', 'anything', 'please', 'thanks']);

const SCAFFOLDING = new RegExp(
  [
    // "any suggestions?", "do you have any tips", "got any ideas on …"
    String.raw`\b(?:(?:do|would) you have |(?:have you )?got )?any (?:suggestions?|recommendations?|tips|ideas|advice|thoughts|pointers)\b`,
    // "can you suggest", "could you recommend some", "can you give me some tips on", "(if) you could suggest"
    String.raw`\b(?:(?:can|could|would|will) you|you (?:can|could|would|might))(?: please)? (?:suggest|recommend|give me|offer|share|provide)(?: (?:me|us))?(?: (?:some|a few|any|a couple of))?(?: (?:suggestions?|recommendations?|tips|ideas|advice|pointers)(?: (?:on|for|about))?)?\b`,
    // "I've been thinking about", "I was thinking of", "I'm considering" (not "was I thinking of …?")
    String.raw`\bi(?:'ve been|'d been|'m| have been| had been| am| was) (?:thinking (?:about|of)|considering)\b`,
    // "(I was) wondering if": the words around it are stop words
    String.raw`\bwondering(?: (?:if|whether|about))?\b`,
    // "I'm not sure which one to choose / where to start"
    String.raw`\bi(?:'m| am) not sure (?:which(?: one)?|what|where|how) to (?:choose|pick|get|start|go|begin)\b`,
    // "what do you suggest / recommend", "what would you recommend"
    String.raw`\bwhat (?:do|would|can) you (?:suggest|recommend)\b`,
  ].join('|'),
  'gi',
);

/** The query with the wording of a request for advice taken out; the query itself when nothing else is left. */
export function withoutRequestWording(query: string): string {
  const rest = query.replace(/[’‘]/g, "'").replace(SCAFFOLDING, ' ').replace(/\s+/g, ' ').trim();
  return contentWords(rest).some((w) => !FILLER.has(w)) ? rest : query;
}

/**
 * Whether the query asks the assistant for advice: "Can you suggest a hotel …?", "Do you recommend …?", "Any tips
 * for keeping it clean?", "I'd love some ideas for …". Not a question about advice someone gave ("What did Evan
 * suggest Sam try?", "What book recommendations has Joanna given?", "the trail you recommended").
 */
export function asksForAdvice(query: string): boolean {
  return ADVICE.test(query);
}

const ADVICE_NOUN = String.raw`(?:suggestions?|recommendations?|tips|ideas|advice|pointers)`;
const ADVICE = new RegExp(
  [
    // "any (helpful) tips", "some ideas for", "a few suggestions"
    String.raw`\b(?:any|some|a few) (?:[a-z]+ )?${ADVICE_NOUN}\b`,
    // "can you suggest", "could you please recommend", "what do you suggest", "would you recommend"
    String.raw`\b(?:can|could|would|will|do) you (?:please )?(?:suggest|recommend)\b`,
  ].join('|'),
  'i',
);
