/** A digit ordinal is analysed as its number, and migration 0019 rewrites terms stored before the rule alike. */
/// <reference path="../text/wink-porter2-stemmer.d.ts" />
import { readFileSync } from 'node:fs';
import { eq, memories, sql } from '@memory/db';
import stem from 'wink-porter2-stemmer';
import { describe, expect, it } from 'vitest';
import { useMemoryDatabase } from '../testing/memory-database';
import { seedMemories } from './seed-test-support';
import { serializeTerms } from '../text/analysis';
import { analyze, contentWords } from '../text/terms';

const database = useMemoryDatabase();

/** The analysis before the rule: every word but a plain number through the Snowball stemmer ("14th" stayed "14th"). */
const termsBefore = (text: string) => contentWords(text).map((w) => (/^\p{N}+$/u.test(w) ? w : stem(w))).join(' ');

describe('ordinals', () => {
  it('are their numbers, so a date or an age written either way matches', () => {
    expect(analyze('February 14th').sort()).toEqual(analyze('14 February').sort());
    expect(analyze('my 18th birthday')).toEqual(['18', 'birthday']);
    expect(analyze('1st 2nd 3rd 4th 21st 102nd')).toEqual(['1', '2', '3', '4', '21', '102']);
  });

  it('leave words and other mixtures of digits and letters alone', () => {
    expect(analyze('first second third')).toEqual(['first', 'second', 'third']);
    expect(analyze('4x4 th 5k 3d')).toEqual(['4x4', 'th', '5k', analyze('3d')[0]]);
  });
});

describe('migration 0019', () => {
  it('rewrites stored terms to what the analysis gives today, and no others', async () => {
    const db = database().db;
    const texts = [
      'On February 14th the user threw a party for the 1st anniversary, the 2nd of 3 this year.',
      "The user's 18th birthday was on the 21st; the user turned 18.",
      'The user drives a 4x4, plays 3D games and owns the 5th edition of the 3rd book in a 2nd-hand copy; 33rd, 103rd and 13th.',
      'The user finished first in the race.',
    ];
    const { ids } = await seedMemories(db, texts, (content) => ({ terms: termsBefore(content) }));
    // the stemmer wrote every "3" of a word with letters as "y": "3rd" was stored as "yrd"
    expect(termsBefore(texts[0]).split(' ')).toContain('14th');
    expect(termsBefore(texts[2]).split(' ')).toContain('yrd');

    const migration = readFileSync(new URL('../../../db/migrations/0019_ordinal_terms.sql', import.meta.url), 'utf8');
    for (const statement of migration.split('--> statement-breakpoint')) await db.execute(sql.raw(statement));

    for (const [i, content] of texts.entries()) {
      const [row] = await db.select({ terms: memories.terms }).from(memories).where(eq(memories.id, ids[i]));
      expect(row.terms).toBe(serializeTerms(content));
    }
  });
});
