/**
 * The compositional pass's language layer: noun phrases, named entities and simple relationships, read
 * with compromise (a rule-based English NLP library that runs offline, no models to download).
 */
import nlp from 'compromise';

const PRONOUN = /^(?:i|me|my|you|your|it|its|he|him|his|she|her|we|us|our|they|them|their|this|that|these|those|what|which|who|something|anything|everything|nothing|someone|anyone|everyone|one|ones|lot|lots|thing|things|way|time|stuff|kind|sort|bit)$/i;
/** A pronoun with its verb ("I'm", "you're", "it's", "we've"): compromise reads some as nouns; they name nothing. */
const PRONOUN_CONTRACTION = /^(?:i|you|we|they|he|she|it|that|there|what|who|let)['’](?:m|re|s|d|ll|ve)$/i;
const EDGE_PUNCT = /^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu;
const LEADING_DET = /^(?:the|a|an|some|any|my|your|his|her|our|their|its|this|that|these|those)\s+/i;

function clean(phrase: string): string {
  return phrase.replace(EDGE_PUNCT, '').replace(/\s+/g, ' ').trim();
}

/** The distinct noun phrases of a text, in order, without pronouns, interjections or the excluded names. */
export function nounPhrases(text: string, exclude: string[] = []): string[] {
  const skip = new Set(exclude.map((e) => e.toLowerCase()));
  const out: string[] = [];
  const seen = new Set<string>();
  for (const raw of nlp(text).nouns().out('array') as string[]) {
    const p = clean(raw);
    const core = p.replace(LEADING_DET, '').toLowerCase();
    if (!core || PRONOUN.test(core) || PRONOUN_CONTRACTION.test(core) || skip.has(core) || seen.has(core)) continue;
    if (/^(?:aww+|wow|hey|hi|hello|thanks|congrats|yeah|yes|oh|omg|lol|haha)$/i.test(core)) continue;
    seen.add(core);
    out.push(p);
  }
  return out;
}
