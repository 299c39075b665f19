/**
 * The word lists of verbs the rewrite reads, in one place (the irregular verbs' forms, which ranking reads too, are
 * in text/irregular-verbs.ts):
 * - `COMMON_VERBS`: words that are mostly verbs, in their base form. A word after "and" is a second verb of the
 *   same subject only if it is one (coordinated-verbs.ts: "and just draw" → "and just draws"), and so is a word
 *   after "you" in a clause that tells a thing before it (addressee.ts: "something you enjoy"). Words as often
 *   nouns ("pay", "win", "plant", "smile", "wash") are left out.
 * - `DOING_PASTS`: the regular pasts of verbs of doing, which open a statement whose "I" chat left out
 *   (dropped-subject.ts: "Started a pottery class", "Visited my aunt"). Written as base forms and spelled by
 *   `regularPasts`; the irregular ones ("Took the kids …") come from the irregular table.
 */

export const COMMON_VERBS: ReadonlySet<string> = new Set(
  `appreciate ask bake bring build buy call carry chat check chill choose clean collect come cook create dance do
  donate draw drink drive earn eat enjoy explore feel find focus follow forget get give go grab grow hang have help
  hike hope join jog keep knit know learn leave like listen look love make meditate meet need paint plan play practice
  practise pray put read reflect relax remember repair ride run see sell send sew share show sing sit sleep spend start
  stay stretch study swim take talk teach tell think travel try use visit volunteer walk want watch work write am`.split(/\s+/),
);

const DOING = `start try finish visit join sign pick adopt move book watch play learn bake cook paint walk hike travel
  attend decide receive launch open create organize organise volunteer donate explore check discover complete pass
  order rescue plant practice practise perform enter apply record release design collect stay return celebrate switch
  upgrade install fix repair climb camp dance swap dye host hire rent shop surf ski fish bike cycle jog kayak sail
  paddle sew knit clean tidy vacuum renovate redecorate grill roast brew sketch film submit enroll earn
  compete text email`;

/**
 * The regular simple past of a verb, every spelling: "-d" after an "e" ("baked"), "-ied" after a consonant and "y"
 * ("tried"), a doubled consonant after one short vowel in one syllable ("swapped"), both spellings of a verb of two
 * syllables in "-el" ("travelled", "traveled"), "-ed" otherwise.
 */
export function regularPasts(base: string): string[] {
  if (base.endsWith('e')) return [`${base}d`];
  if (/[^aeiou]y$/.test(base)) return [`${base.slice(0, -1)}ied`];
  if (/^[^aeiou]*[aeiou][bdgmnprt]$/.test(base)) return [`${base}${base.slice(-1)}ed`];
  if (/[aeiou][^aeiou]+[aeiou]l$/.test(base)) return [`${base}led`, `${base}ed`];
  return [`${base}ed`];
}

export const DOING_PASTS: ReadonlySet<string> = new Set(DOING.split(/\s+/).flatMap(regularPasts));
