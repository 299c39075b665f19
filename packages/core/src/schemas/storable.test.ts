import { describe, expect, it } from 'vitest';
import { isStorableText, unstorableTextErrors } from './storable';

describe('isStorableText', () => {
  it('refuses NUL and unpaired surrogates, accepts paired ones and every other character', () => {
    expect(isStorableText('plain text, ünïcödé, 日本語, emoji 😀')).toBe(true);
    expect(isStorableText('a\u0000b')).toBe(false);
    expect(isStorableText('\uD800')).toBe(false);
    expect(isStorableText('x\uDC00')).toBe(false);
    expect(isStorableText('\uD83D\uDE00')).toBe(true);
    expect(isStorableText('\uDE00\uD83D')).toBe(false);
    expect(isStorableText('\u0001\uFFFD\uFFFF')).toBe(true);
  });
});

describe('unstorableTextErrors', () => {
  it('names every field, nested in arrays and objects, the way schema errors do', () => {
    const body = {
      external_user_id: 'u\u0000',
      messages: [{ role: 'user', content: 'fine' }, { role: 'user', content: 'bad \uD800' }],
      metadata: { nested: { deeper: ['ok', '\u0000'] } },
    };
    expect(unstorableTextErrors(body).map((e) => e.path)).toEqual(['external_user_id', 'messages[1].content', 'metadata.nested.deeper[1]']);
  });

  it('names a bad key by its parent and position, and a bad top-level string as the body', () => {
    expect(unstorableTextErrors({ metadata: { ok: 1, 'k\u0000': 2 } }).map((e) => e.path)).toEqual(['metadata{key 1}']);
    expect(unstorableTextErrors('\u0000').map((e) => e.path)).toEqual(['(body)']);
    expect(unstorableTextErrors({ memory_id: '\uDFFF' }).map((e) => e.path)).toEqual(['memory_id']);
  });

  it('finds nothing in storable values, and stops naming fields after twenty', () => {
    expect(unstorableTextErrors({ a: 'x', b: [1, true, null, { c: 'ü' }] })).toEqual([]);
    expect(unstorableTextErrors(Array.from({ length: 100 }, () => '\u0000'))).toHaveLength(20);
  });
});
