/**
 * Opaque cursors: every list's cursor is base64url JSON, written and read by one codec here (encodeOpaque,
 * decodeOpaque); what is inside depends on the list's order. Keyset cursors for lists ordered by (timestamp, id)
 * descending hold PostgreSQL's text form of a timestamptz, so microseconds survive the round trip (a JS Date would
 * drop them); the customers list holds its sort and sort key (domains/support-customers.ts), the agent directory
 * an offset (passport/agents.ts).
 */
import { Errors } from './errors';

export interface KeysetCursor {
  ts: string;
  id: string;
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:?\d{2})?|Z)$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const encodeOpaque = (payload: object): string => Buffer.from(JSON.stringify(payload)).toString('base64url');

/**
 * The payload of a cursor `encodeOpaque` wrote, if `isValid` accepts it; anything else (not base64url JSON, another
 * list's cursor, a hand-made one) is a 400 on `cursor`.
 */
export function decodeOpaque<T>(raw: string, isValid: (c: T) => boolean, message = 'is not a cursor returned by this endpoint'): T {
  try {
    const c = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as T;
    if (!isValid(c)) throw new Error();
    return c;
  } catch {
    throw Errors.validation([{ path: 'cursor', message }]);
  }
}

export const encodeCursor = (c: KeysetCursor): string => encodeOpaque(c);

export const decodeCursor = (raw: string): KeysetCursor =>
  decodeOpaque<KeysetCursor>(raw, (c) => typeof c.ts === 'string' && TIMESTAMP.test(c.ts) && typeof c.id === 'string' && UUID.test(c.id));

/**
 * One page of a keyset-paged list: callers fetch `limit + 1` rows ordered by (timestamp, id) descending,
 * each with its PostgreSQL-text timestamp as `cursor_ts`; the extra row only says whether there is more.
 */
export function keysetPage<T extends { cursor_ts: string; id: string }>(found: T[], limit: number): { page: T[]; next_cursor: string | null } {
  const page = found.slice(0, limit);
  const last = page[page.length - 1];
  return { page, next_cursor: found.length > limit && last ? encodeCursor({ ts: last.cursor_ts, id: last.id }) : null };
}
