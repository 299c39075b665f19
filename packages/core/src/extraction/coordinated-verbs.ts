/**
 * A second verb that shares the subject "I" with the first, after "and": "I usually bring a book and just chill",
 * "I stay positive and find a way", "I use essential oils and put on some music". The rewrite conjugated the first
 * verb only ("James usually brings a book and just chill"), so the memory read wrong.
 *
 * A word after "and" is a verb of the same subject only when nothing else can be meant, so the test is narrow:
 * - the word is one of the common verbs (verbs.ts: words that are mostly verbs), in lower case and in its base form;
 * - an adverb or "then" stands before it ("and just chill", "and then cook"), or an article, a pronoun, a particle
 *   or a preposition follows it ("and find a way", "and keep up"): a word at the very end of a clause or before
 *   another word may be a noun ("I love cake and drink", "the self-acceptance and love theme");
 * - nothing between the first verb and "and" opens a clause of its own or an infinitive: a subject or a
 *   connective ("I know that you cook and bake", "I love hiking and my wife swims"), "to" before a verb, a modal
 *   or "gonna" ("I want to be brave and help others", where "help" is the infinitive's).
 */
import { IRREGULAR_PASTS } from '../text/irregular-verbs';
import { COMMON_VERBS } from './verbs';

/** A word that opens a clause of its own between the first verb and "and". */
const NEW_CLAUSE = /\b(?:that|who|which|when|whenever|if|because|while|where|how|what|why|whether|although|though|since|until|you|he|she|they|we|it's|there|but|or|so)\b|[;:,–—]/i;

/**
 * "to" before a verb, a modal or a spoken "gonna": the verbs after "and" may be theirs ("I'm excited to work hard
 * and make an impact", "I hope my music can reach people and make an impact", "I'm gonna stay positive and keep
 * going"). "to the gym", "to school" are places.
 */
const INFINITIVE =
  /\bto\s+(?!(?:the|a|an|my|your|his|her|their|our|its|this|that|these|those|some|any|school|bed|church|class|town|\d)\b)[a-z]|\b(?:can|could|will|would|should|might|must|may|shall|cannot|can't|won't|gonna|wanna|gotta)\b/i;

/**
 * What follows a verb and hardly a noun: an article, a pronoun, a particle or a preposition ("and find a way", "and
 * keep up", "and help those kids"). Without an adverb before the word it must be followed by one of these, since a
 * noun after "and" may take a noun after it ("I love the self-acceptance and love theme").
 */
const OBJECT_START =
  /^(?:a|an|the|my|his|her|their|our|its|your|this|that|these|those|some|any|more|lots|all|every|it|them|him|me|us|up|out|on|off|with|to|about|for|in|at|into|around|back|down|over|through|new|sure|care|fun|hard|together|\d+)$/i;

/**
 * The predicate after the first verb (`tail`, as written) with a verb coordinated after "and" conjugated like the
 * first, by `conjugate`; `isAdverb` tells an adverb that may stand before it.
 */
export function conjugateCoordinated(
  tail: string,
  conjugate: (verb: string) => string,
  isAdverb: (word: string) => boolean,
): string {
  const and = /\band\s+/.exec(tail);
  if (and === null) return tail;
  const before = tail.slice(0, and.index);
  if (NEW_CLAUSE.test(before) || INFINITIVE.test(before)) return tail;
  let start = and.index + and[0].length;
  let adverbs = 0;
  for (;;) {
    const word = /^([a-z]+)\b(\s*)([\w'’]*)/.exec(tail.slice(start));
    if (word === null) return tail;
    const [, verb, space, next] = word;
    if (adverbs < 2 && (isAdverb(verb) || verb === 'then') && space !== '') {
      start += verb.length + space.length;
      adverbs++;
      continue;
    }
    // "and have seen the town change": "have" before a participle
    const perfect = verb === 'have' && (IRREGULAR_PASTS.has(next) || /(?:ed|en|wn|ne)$/i.test(next));
    if (!COMMON_VERBS.has(verb) || (adverbs === 0 && !OBJECT_START.test(next) && !perfect)) return tail;
    return tail.slice(0, start) + conjugate(verb) + tail.slice(start + verb.length);
  }
}
