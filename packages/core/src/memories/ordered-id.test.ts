import { describe, expect, it } from 'vitest';
import { orderedUuid } from './ordered-id';

describe('orderedUuid', () => {
  it('makes version 7 UUIDs that sort in the order they were made, within one millisecond too', () => {
    const ids = Array.from({ length: 5000 }, () => orderedUuid(1_800_000_000_000));
    expect(ids[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    const later = orderedUuid(1_800_000_000_500);
    expect(later > ids[ids.length - 1]).toBe(true);
  });
});
