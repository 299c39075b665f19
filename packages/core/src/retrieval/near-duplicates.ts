/** The near-duplicate rule of the ranking (score.ts): of two memories that say the same thing, only the better-ranked is returned. */
import { cosine } from '../text/word-vectors';
import type { IndexedMemory } from './candidate-index';

/**
 * Two memories say nearly the same thing: their stem sets overlap by Jaccard ≥ 0.8, or by ≥ 0.5 with
 * sentence vectors at cosine ≥ 0.95, and they carry the same values: memories whose numbers or capitalised
 * names differ ("20 dozen eggs" / "12 dozen eggs", "met Anna" / "met Maria") are never collapsed, since the
 * difference is the answer. The lower-ranked one is left out of the results (it stays stored).
 */
export const NEAR_DUPLICATE = { jaccard: 0.8, jaccardWithVectors: 0.5, cosine: 0.95 } as const;

/** The numbers and capitalised words (not sentence-initial) of a text: the values a near-duplicate must share. */
export function valuesOf(text: string): string {
  const out: string[] = [];
  for (const m of text.matchAll(/(?<![\p{L}\p{N}])(\p{N}+(?:[.,:]\p{N}+)*|\p{Lu}[\p{L}'’-]*)/gu)) {
    const word = m[0];
    const start = m.index ?? 0;
    if (/^\p{Lu}/u.test(word) && (start === 0 || /[.!?]\s*$/u.test(text.slice(0, start)))) continue;
    if (word === 'I' || word === 'The') continue;
    out.push(word.toLowerCase());
  }
  return out.sort().join(' ');
}

const termSets = new WeakMap<IndexedMemory, Set<string>>();

/** The distinct stems of an item, made when a near-duplicate check first needs them. */
export function termSet(m: IndexedMemory): Set<string> {
  let set = termSets.get(m);
  if (!set) {
    set = new Set(m.terms.length > 0 ? m.terms.split(' ') : []);
    termSets.set(m, set);
  }
  return set;
}

export function nearDuplicate(a: IndexedMemory, b: IndexedMemory, aText?: string, bText?: string): boolean {
  const [aTerms, bTerms] = [termSet(a), termSet(b)];
  let shared = 0;
  for (const t of aTerms) if (bTerms.has(t)) shared++;
  const union = aTerms.size + bTerms.size - shared;
  const jaccard = union === 0 ? 1 : shared / union;
  const similar =
    jaccard >= NEAR_DUPLICATE.jaccard ||
    (jaccard >= NEAR_DUPLICATE.jaccardWithVectors && a.vector !== null && b.vector !== null && cosine(a.vector, b.vector) >= NEAR_DUPLICATE.cosine);
  if (!similar) return false;
  return aText === undefined || bText === undefined || valuesOf(aText) === valuesOf(bText);
}
