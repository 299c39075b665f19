/**
 * Opaque keyset cursors for lists ordered by (timestamp, id) descending. The timestamp is PostgreSQL's
 * text form of a timestamptz, so microseconds survive the round trip (a JS Date would drop them).
 */
import { Errors } from './errors';

export interface KeysetCursor {
  ts: string;
  id: string;
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:?\d{2})?|Z)$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const encodeCursor = (c: KeysetCursor): string => Buffer.from(JSON.stringify(c)).toString('base64url');

export function decodeCursor(raw: string): KeysetCursor {
  try {
    const c = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as KeysetCursor;
    if (typeof c.ts !== 'string' || !TIMESTAMP.test(c.ts) || typeof c.id !== 'string' || !UUID.test(c.id)) throw new Error();
    return c;
  } catch {
    throw Errors.validation([{ path: 'cursor', message: 'is not a cursor returned by this endpoint' }]);
  }
}

/**
 * One page of a keyset-paged list: callers fetch `limit + 1` rows ordered by (timestamp, id) descending,
 * each with its PostgreSQL-text timestamp as `cursor_ts`; the extra row only says whether there is more.
 */
export function keysetPage<T extends { cursor_ts: string; id: string }>(found: T[], limit: number): { page: T[]; next_cursor: string | null } {
  const page = found.slice(0, limit);
  const last = page[page.length - 1];
  return { page, next_cursor: found.length > limit && last ? encodeCursor({ ts: last.cursor_ts, id: last.id }) : null };
}
