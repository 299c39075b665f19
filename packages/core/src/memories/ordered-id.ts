/**
 * Time-ordered UUIDs (RFC 9562 version 7) for claim-ledger rows: the ledger is read in (created_at, id) order, and
 * every row of one transaction has the same created_at, so the id keeps the order the rows were recorded in (a
 * held memory's `edited` before its `approved`). A counter in the 12 bits after the millisecond keeps ids made in
 * the same millisecond in order; the rest is random.
 */
import { randomBytes } from 'node:crypto';

let lastMs = 0;
let counter = 0;

export function orderedUuid(now = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    counter = 0;
  } else if (++counter > 0xfff) {
    // more than 4096 ids in one millisecond: borrow the next millisecond rather than lose the order
    lastMs += 1;
    counter = 0;
  }
  const b = randomBytes(16);
  b.writeUIntBE(lastMs, 0, 6);
  b[6] = 0x70 | (counter >> 8);
  b[7] = counter & 0xff;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = b.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
