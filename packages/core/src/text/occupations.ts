/**
 * The one-word names of occupations ("nurse", "welder", "physiotherapist"): WordNet 3.1's kinds of worker,
 * professional, employee, artist, scientist, … (the word's most frequent sense, so "mother" and "fan" are none),
 * written by the build step (packages/core/scripts/build-hyponyms.mjs) into generated/occupations.txt. The claim
 * rules read "is a school nurse now" as a job title with it (conflicts/claim-rules.ts). Without the file no word
 * is an occupation.
 */
import { readFileSync } from 'node:fs';
import { findGeneratedFile } from '../generated-files';

let words: Set<string> | undefined;

/** Whether a lower-case word names an occupation. */
export function isOccupation(word: string): boolean {
  if (!words) {
    const file = findGeneratedFile('occupations.txt');
    words = new Set(file ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);
  }
  return words.has(word);
}
