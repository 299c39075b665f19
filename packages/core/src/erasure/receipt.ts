/**
 * The erasure receipt's hash (docs/erasure.md): the canonical listing of what was erased is one line
 * `<kind>:<id>\n` per record, kinds and ids each sorted by code point, and `sha256` is the SHA-256 (hex) of its
 * UTF-8 bytes. Ids are UUIDs or hex hashes (ASCII), so any language's plain string sort reproduces the order.
 */
import { sha256Hex } from '../crypto';

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The listing, ids per kind, sorted (the receipt's `erased`). */
export function sortedListing(erased: ReadonlyMap<string, readonly string[]>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const kind of [...erased.keys()].sort(byCodePoint)) out[kind] = [...(erased.get(kind) ?? [])].sort(byCodePoint);
  return out;
}

export function canonicalListing(listing: Readonly<Record<string, readonly string[]>>): string {
  let text = '';
  for (const kind of Object.keys(listing).sort(byCodePoint)) {
    for (const id of [...listing[kind]].sort(byCodePoint)) text += `${kind}:${id}\n`;
  }
  return text;
}

export const listingSha256 = (listing: Readonly<Record<string, readonly string[]>>): string => sha256Hex(canonicalListing(listing));

export function countsOf(listing: Readonly<Record<string, readonly string[]>>): Record<string, number> {
  return Object.fromEntries(Object.entries(listing).map(([kind, ids]) => [kind, ids.length]));
}

/** The tombstone's key for an external id: SHA-256 (hex) of its UTF-8 bytes. */
export const externalUserIdSha256 = (externalUserId: string): string => sha256Hex(externalUserId);
