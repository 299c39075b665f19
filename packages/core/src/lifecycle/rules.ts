/**
 * The memory lifecycle as pure functions (docs/lifecycle.md lists every rule and constant):
 * importance decays while a memory is not used, use slows the decay and adds a little back, and a memory
 * whose importance falls below the archive threshold is archived (never deleted) and leaves retrieval.
 * The scheduled pass (./pass.ts) applies `lifecycleStep` to each active memory at most once a day.
 */
import type { MemoryCategory } from '../categories';

const DAY_MS = 86_400_000;

export const LIFECYCLE = {
  /** Unused importance loses half of its distance to the category floor every this many days. */
  halfLifeDays: 60,
  /**
   * Decay never takes importance below the floor of the memory's category. Durable facts about the user
   * (where they live, their diet, their family, their skills) stay true without being talked about, so
   * they never decay out of retrieval; preferences, goals, routines and events do.
   */
  floors: {
    fact: 0.3,
    relationship: 0.3,
    expertise: 0.2,
    preference: 0,
    goal: 0,
    procedure: 0,
    event: 0,
  } satisfies Record<MemoryCategory, number> as Record<string, number>,
  /** Floor of a category the table does not name (a provider's own category). */
  defaultFloor: 0,
  /** An active memory whose importance is below this after a step is archived. */
  archiveThreshold: 0.1,
  /** Added by a step to a memory that retrieval returned since its previous step. */
  accessBoost: 0.02,
  /** Access alone never lifts importance above this (feedback can, up to 1). */
  accessCeiling: 0.9,
  /** A memory is stepped at most once per this many hours, however often the pass runs. */
  minStepHours: 24,
  /** Memories per statement of the pass. */
  batchSize: 500,
} as const;

export const floorFor = (category: string): number => LIFECYCLE.floors[category] ?? LIFECYCLE.defaultFloor;

/**
 * Importance after `idleMs` without use: exponential decay towards the category floor. Importance that is
 * already at or below the floor (negative feedback can put it there) does not decay further, and is not
 * raised either.
 */
export function decayedImportance(importance: number, floor: number, idleMs: number): number {
  if (importance <= floor || idleMs <= 0) return importance;
  const factor = 2 ** (-idleMs / (LIFECYCLE.halfLifeDays * DAY_MS));
  return floor + (importance - floor) * factor;
}

export interface LifecycleInput {
  importance: number;
  category: string;
  createdAt: Date;
  lastAccessed: Date | null;
  /** When the previous step ran (null: never). */
  lifecycleAt: Date | null;
}

export interface LifecycleStep {
  importance: number;
  /** True when retrieval returned the memory since the previous step (the access boost applied). */
  accessed: boolean;
  /** Days since the memory was last used: created, retrieved or stepped, whichever is latest. */
  idleDays: number;
  archive: boolean;
}

const latest = (...dates: (Date | null)[]): number => Math.max(...dates.map((d) => (d ? d.getTime() : -Infinity)));

/**
 * One lifecycle step for one memory at `now`. The clock starts at the latest of created_at, last_accessed
 * and the previous step (whose decay is already in the stored importance), so repeated steps compound to
 * the same result as one long step, and a memory retrieved yesterday has decayed only since yesterday.
 */
export function lifecycleStep(m: LifecycleInput, now: Date): LifecycleStep {
  const previousStep = latest(m.lifecycleAt, m.createdAt);
  const accessed = m.lastAccessed !== null && m.lastAccessed.getTime() > previousStep;
  let importance = m.importance;
  if (accessed && importance < LIFECYCLE.accessCeiling) {
    importance = Math.min(LIFECYCLE.accessCeiling, importance + LIFECYCLE.accessBoost);
  }
  const idleMs = Math.max(0, now.getTime() - latest(m.createdAt, m.lastAccessed, m.lifecycleAt));
  importance = decayedImportance(importance, floorFor(m.category), idleMs);
  return { importance, accessed, idleDays: idleMs / DAY_MS, archive: importance < LIFECYCLE.archiveThreshold };
}

/** Days without use after which a memory of this importance and category is archived (Infinity: never). */
export function daysUntilArchived(importance: number, category: string): number {
  const floor = floorFor(category);
  if (importance < LIFECYCLE.archiveThreshold) return 0;
  if (floor >= LIFECYCLE.archiveThreshold) return Infinity;
  return LIFECYCLE.halfLifeDays * Math.log2((importance - floor) / (LIFECYCLE.archiveThreshold - floor));
}
