import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalListing, countsOf, externalUserIdSha256, listingSha256, sortedListing } from './receipt';

const sha = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

describe('the erasure receipt', () => {
  it('hashes one line per record, kinds and ids sorted, whatever order they were erased in', () => {
    const erased = new Map([
      ['memories', ['b2', 'a1']],
      ['end_user', ['u1']],
      ['jobs', []],
    ]);
    const listing = sortedListing(erased);
    expect(listing).toEqual({ end_user: ['u1'], jobs: [], memories: ['a1', 'b2'] });
    expect(Object.keys(listing)).toEqual(['end_user', 'jobs', 'memories']);
    expect(canonicalListing(listing)).toBe('end_user:u1\nmemories:a1\nmemories:b2\n');
    expect(listingSha256(listing)).toBe(sha('end_user:u1\nmemories:a1\nmemories:b2\n'));
    // the order a client sends the listing back in does not matter
    expect(listingSha256({ memories: ['b2', 'a1'], jobs: [], end_user: ['u1'] })).toBe(listingSha256(listing));
    expect(countsOf(listing)).toEqual({ end_user: 1, jobs: 0, memories: 2 });
  });

  it('commits to every id: one more, one fewer or another id changes the hash', () => {
    const base = listingSha256({ memories: ['a1', 'b2'] });
    expect(listingSha256({ memories: ['a1'] })).not.toBe(base);
    expect(listingSha256({ memories: ['a1', 'b2', 'c3'] })).not.toBe(base);
    expect(listingSha256({ passages: ['a1', 'b2'] })).not.toBe(base);
    expect(listingSha256({})).toBe(sha(''));
  });

  it('keys the tombstone by the SHA-256 of the external id, never the id', () => {
    expect(externalUserIdSha256('user_42')).toBe(sha('user_42'));
    expect(externalUserIdSha256('zoë')).toBe(createHash('sha256').update(Buffer.from('zoë', 'utf8')).digest('hex'));
  });
});
