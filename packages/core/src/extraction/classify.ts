/**
 * The built-in extractor's category and importance of a normalised clause.
 *
 * Category rules (first match wins, checked on the normalised clause):
 *
 * | order | category     | triggers                                                                                  |
 * |-------|--------------|-------------------------------------------------------------------------------------------|
 * | 1     | relationship | subject is "my <relation>" (wife, husband, partner, kids, mom, sister, friend, boss, …)   |
 * | 2     | event        | "I <past-tense verb> …" plus a time marker (yesterday, last week, in 2019, on Monday, ago)|
 * |       |              | except "I was born …" (fact)                                                              |
 * | 3     | goal         | want to, plan to, hope to, going to <verb>, trying to, training for, saving for, my goal, |
 * |       |              | aim to, would like/love to, need to, "I'll be moving … next year"                         |
 * | 4     | preference   | love, like, enjoy, hate, prefer, dislike, can't stand, don't like, favourite/favorite,    |
 * |       |              | "I'm a fan of", "I'm into", "I'd rather"                                                  |
 * | 5     | expertise    | "years of experience", "I know <skill>", "I'm good at", "I'm an expert", "I speak",       |
 * |       |              | "fluent in", "I've been <verb>ing … for N years", degrees. A bare profession ("I work as  |
 * |       |              | a nurse", "I'm a teacher") is a fact; it is expertise only with skills/experience.        |
 * | 6     | procedure    | usually, always, every day/morning, each week, daily, routine, habit, "I tend to"         |
 * | 7     | relationship | "my <relation>" anywhere, "I have two kids", "I'm married"                                |
 * | 8     | fact         | everything else durable: location, diet, allergies, age, pets, job, name, health          |
 *
 * Importance: health/allergy 0.9; diet/identity/family 0.85; location/job 0.8; goal 0.7;
 * expertise 0.65; event 0.6; preference 0.55; procedure 0.5; other facts 0.5.
 * Confidence: 0.9 for plain assertions, 0.5 when hedged (maybe, I think, probably, kind of, …);
 * the statement itself stays faithful (only a leading "I think"/"maybe" is dropped to find the subject).
 */
import type { MemoryCategory } from '../categories';
import {
  DIET,
  EXPERTISE,
  EXPERTISE_DURATION,
  FAMILY_ANY,
  FUTURE_PLAN,
  GOAL,
  HEALTH,
  IDENTITY,
  JOB,
  LOCATION,
  NOT_SKILL,
  PAST_MARKER,
  PREFERENCE,
  PROCEDURE,
  REL_ANY,
  REL_HAVE,
  REL_STATUS,
  REL_SUBJECT,
} from './lexicon';
import { AMBIGUOUS_PAST, isPastForm, isPreVerbAdverb } from './third-person';


function firstVerbIsPast(norm: string): boolean {
  const m = /^i (.*)$/.exec(norm);
  if (!m) return false;
  const words = m[1].split(' ');
  for (const w of words) {
    if (isPreVerbAdverb(w)) continue;
    if (w === 'used' || w === 'would' || w === 'had') return false;
    return isPastForm(w) || AMBIGUOUS_PAST.has(w);
  }
  return false;
}

export function categorise(norm: string, past = PAST_MARKER.test(norm)): MemoryCategory {
  if (REL_SUBJECT.test(norm)) return 'relationship';
  if (!/\bborn\b/.test(norm) && past && firstVerbIsPast(norm)) return 'event';
  if (GOAL.test(norm) || FUTURE_PLAN.test(norm)) return 'goal';
  if (PREFERENCE.test(norm)) return 'preference';
  if (EXPERTISE.test(norm) || (EXPERTISE_DURATION.test(norm) && !NOT_SKILL.test(norm))) return 'expertise';
  if (PROCEDURE.test(norm)) return 'procedure';
  if (REL_ANY.test(norm) || REL_HAVE.test(norm) || REL_STATUS.test(norm)) return 'relationship';
  return 'fact';
}

const BASE_IMPORTANCE: Record<MemoryCategory, number> = {
  fact: 0.5,
  preference: 0.55,
  goal: 0.7,
  expertise: 0.65,
  relationship: 0.8,
  procedure: 0.5,
  event: 0.6,
};

/** "I'm Ana." — a bare name is identity. */
const SELF_NAME = /^[Ii](?:'m| am|m) [A-Z][a-z]+$/;

export function importanceOf(norm: string, category: MemoryCategory, raw = ''): number {
  let imp = BASE_IMPORTANCE[category];
  if (SELF_NAME.test(raw)) imp = Math.max(imp, 0.85);
  if (HEALTH.test(norm)) imp = Math.max(imp, 0.9);
  if (DIET.test(norm) && category !== 'procedure') imp = Math.max(imp, 0.85);
  if (category === 'fact' || category === 'relationship') {
    if (IDENTITY.test(norm)) imp = Math.max(imp, 0.85);
    if (FAMILY_ANY.test(norm)) imp = Math.max(imp, 0.85);
  }
  if ((category === 'fact' || category === 'expertise') && (LOCATION.test(norm) || JOB.test(norm))) {
    imp = Math.max(imp, 0.8);
  }
  return imp;
}

export function wordCount(norm: string): number {
  return norm.split(' ').filter((w) => /[a-z0-9]/.test(w)).length;
}
