import { describe, expect, it } from 'vitest';
import { metadataFilter, metadataFilterQuery } from './metadata-filter';

describe('metadata_filter', () => {
  it('accepts objects of strings, numbers and booleans', () => {
    expect(metadataFilter.parse({ channel: 'web', ticket: 7, vip: false })).toEqual({ channel: 'web', ticket: 7, vip: false });
    expect(metadataFilterQuery.parse('{"channel":"web"}')).toEqual({ channel: 'web' });
  });

  it('refuses nested values, arrays, null, no keys and too many keys', () => {
    for (const bad of [{ a: { b: 1 } }, { a: [1] }, { a: null }, {}, ['a'], 'a', Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, i]))]) {
      expect(metadataFilter.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it('refuses a query parameter that is not a JSON object of scalars', () => {
    for (const bad of ['not json', '[1]', '{"a":{"b":1}}', '{}', '"web"']) expect(metadataFilterQuery.safeParse(bad).success, bad).toBe(false);
  });
});
