/// <reference path="./wink-porter2-stemmer.d.ts" />
/**
 * Text analysis for lexical ranking: lower-case words, English stop words removed, Snowball English
 * (porter2) stems — the same stemmer PostgreSQL's `english` configuration uses.
 */
import stem from 'wink-porter2-stemmer';

/** PostgreSQL's english.stop list (the Snowball stop words), plus "user": every memory says "The user …". */
const STOP = new Set(
  `i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself
  it its itself they them their theirs themselves what which who whom this that these those am is are was were be
  been being have has had having do does did doing a an the and but if or because as until while of at by for with
  about against between into through during before after above below to from up down in out on off over under again
  further then once here there when where why how all any both each few more most other some such no nor not only
  own same so than too very s t can will just don should now user users`.split(/\s+/),
);

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;
/**
 * A day or a count written as an ordinal is its number: "February 14th" is found by "14 February 2023" (the
 * extraction writes dates that way), "my 18th birthday" by "turned 18". Digits only: "first" stays a word. Stored
 * terms from before this rule were rewritten the same way by migration 0019 (keep the two in step).
 */
const ORDINAL = /^([0-9]+)(?:st|nd|rd|th)$/;
const stemCache = new Map<string, string>();

function stemWord(word: string): string {
  let s = stemCache.get(word);
  if (s === undefined) {
    s = /^\p{N}+$/u.test(word) ? word : (ORDINAL.exec(word)?.[1] ?? stem(word));
    if (stemCache.size > 50_000) stemCache.clear();
    stemCache.set(word, s);
  }
  return s;
}

/** The lower-case words of a text, in order, stop words removed (not stemmed: word vectors use these). */
export function contentWords(text: string): string[] {
  const out: string[] = [];
  for (const match of text.toLowerCase().matchAll(WORD)) {
    const word = match[0].replace(/['’](s|re|ve|ll|d|m|t)$/u, '');
    if (word.length < 2 && !/^\p{N}$/u.test(word)) continue;
    if (STOP.has(word)) continue;
    out.push(word);
  }
  return out;
}

/** The stems of a text, in order, stop words removed. */
export function analyze(text: string): string[] {
  return contentWords(text).map(stemWord);
}

/** Term frequencies of a text. */
export function termFrequencies(text: string): Map<string, number> {
  const tf = new Map<string, number>();
  for (const t of analyze(text)) tf.set(t, (tf.get(t) ?? 0) + 1);
  return tf;
}
