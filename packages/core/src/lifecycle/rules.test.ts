import { describe, expect, it } from 'vitest';
import { LIFECYCLE, daysUntilArchived, decayedImportance, floorFor, lifecycleStep } from './rules';

const DAY = 86_400_000;
const T0 = new Date('2026-01-01T00:00:00Z');
const at = (days: number) => new Date(T0.getTime() + days * DAY);

const memory = (o: Partial<Parameters<typeof lifecycleStep>[0]> = {}) => ({
  importance: 0.6,
  category: 'preference',
  createdAt: T0,
  lastAccessed: null,
  lifecycleAt: null,
  ...o,
});

describe('decayedImportance', () => {
  it('halves the distance to the floor every half-life', () => {
    expect(decayedImportance(0.8, 0, LIFECYCLE.halfLifeDays * DAY)).toBeCloseTo(0.4, 10);
    expect(decayedImportance(0.8, 0, 2 * LIFECYCLE.halfLifeDays * DAY)).toBeCloseTo(0.2, 10);
    expect(decayedImportance(0.8, 0.3, LIFECYCLE.halfLifeDays * DAY)).toBeCloseTo(0.55, 10);
  });

  it('never goes below the floor, and leaves importance at or under it alone', () => {
    expect(decayedImportance(0.8, 0.3, 10_000 * DAY)).toBeCloseTo(0.3, 6);
    expect(decayedImportance(0.2, 0.3, 400 * DAY)).toBe(0.2);
    expect(decayedImportance(0.5, 0, 0)).toBe(0.5);
    expect(decayedImportance(0.5, 0, -DAY)).toBe(0.5);
  });

  it('compounds: two steps give what one long step gives', () => {
    const once = decayedImportance(0.7, 0.2, 90 * DAY);
    const twice = decayedImportance(decayedImportance(0.7, 0.2, 30 * DAY), 0.2, 60 * DAY);
    expect(twice).toBeCloseTo(once, 12);
  });
});

describe('category floors', () => {
  it('keeps durable facts above the archive threshold and lets the rest decay to zero', () => {
    for (const c of ['fact', 'relationship', 'expertise']) expect(floorFor(c)).toBeGreaterThan(LIFECYCLE.archiveThreshold);
    for (const c of ['preference', 'goal', 'procedure', 'event']) expect(floorFor(c)).toBe(0);
    expect(floorFor('made-up-category')).toBe(LIFECYCLE.defaultFloor);
  });

  it('says how long an unused memory lasts', () => {
    expect(daysUntilArchived(0.8, 'fact')).toBe(Infinity);
    // 0.55 -> 0.1 with a 60-day half-life: 60 * log2(5.5) ≈ 147.6 days
    expect(daysUntilArchived(0.55, 'preference')).toBeCloseTo(147.6, 1);
    expect(daysUntilArchived(0.05, 'fact')).toBe(0);
  });
});

describe('lifecycleStep', () => {
  it('decays an unused memory from its creation, and archives it once below the threshold', () => {
    const early = lifecycleStep(memory(), at(30));
    expect(early.importance).toBeCloseTo(0.6 * 2 ** -0.5, 10);
    expect(early).toMatchObject({ accessed: false, archive: false });
    expect(early.idleDays).toBeCloseTo(30, 10);

    const late = lifecycleStep(memory(), at(200));
    expect(late.importance).toBeLessThan(LIFECYCLE.archiveThreshold);
    expect(late.archive).toBe(true);
  });

  it('decays only since the previous step, whose decay is already stored', () => {
    const step = lifecycleStep(memory({ importance: 0.3, lifecycleAt: at(100) }), at(160));
    expect(step.importance).toBeCloseTo(0.15, 10);
    expect(step.idleDays).toBeCloseTo(60, 10);
  });

  it('resets the clock on access and adds the access boost once', () => {
    const used = lifecycleStep(memory({ lastAccessed: at(199), lifecycleAt: at(150) }), at(200));
    expect(used.accessed).toBe(true);
    expect(used.idleDays).toBeCloseTo(1, 10);
    expect(used.importance).toBeCloseTo((0.6 + LIFECYCLE.accessBoost) * 2 ** (-1 / LIFECYCLE.halfLifeDays), 10);
    expect(used.archive).toBe(false);
    // an access already counted by an earlier step is not counted again
    const counted = lifecycleStep(memory({ lastAccessed: at(120), lifecycleAt: at(150) }), at(151));
    expect(counted.accessed).toBe(false);
  });

  it('never lifts importance above the access ceiling by use alone', () => {
    const high = lifecycleStep(memory({ importance: 0.89, lastAccessed: at(1) }), at(1));
    expect(high.importance).toBeCloseTo(LIFECYCLE.accessCeiling, 10);
    const above = lifecycleStep(memory({ importance: 0.97, lastAccessed: at(1) }), at(1));
    expect(above.importance).toBe(0.97);
  });

  it('does not archive a durable fact however long it is unused', () => {
    const fact = lifecycleStep(memory({ category: 'fact', importance: 0.8 }), at(5000));
    expect(fact.importance).toBeCloseTo(0.3, 6);
    expect(fact.archive).toBe(false);
  });

  it('archives a fact that negative feedback pushed below the threshold', () => {
    expect(lifecycleStep(memory({ category: 'fact', importance: 0.05 }), at(1)).archive).toBe(true);
  });
});
