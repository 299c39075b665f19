import { describe, expect, it } from 'vitest';
import { isApiError } from './errors';
import { decodeCursor, encodeCursor } from './pagination';

describe('keyset cursors', () => {
  it('round-trip a microsecond timestamp and an id', () => {
    const c = { ts: '2026-11-21 20:23:09.617123+00', id: '0b6f2c4e-1111-4222-8333-444455556666' };
    expect(decodeCursor(encodeCursor(c))).toEqual(c);
  });

  it('refuse anything that is not a cursor of ours with validation_failed', () => {
    for (const raw of ['garbage', encodeCursor({ ts: 'yesterday', id: '0b6f2c4e-1111-4222-8333-444455556666' }), encodeCursor({ ts: '2026-11-21 20:23:09+00', id: "x' OR 1=1" })]) {
      try {
        decodeCursor(raw);
        expect.unreachable();
      } catch (err) {
        expect(isApiError(err) && err.code).toBe('validation_failed');
      }
    }
  });
});
