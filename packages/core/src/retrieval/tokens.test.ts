import { describe, expect, it } from 'vitest';
import { encode as encodeCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { decode as decodeO200k, encode as encodeO200k } from 'gpt-tokenizer/encoding/o200k_base';
import { TOKENIZER_NAME, countTokens, withinTokenLimit } from './tokens';

describe('countTokens', () => {
  it('names the o200k_base encoding', () => {
    expect(TOKENIZER_NAME).toBe('o200k_base');
  });

  it('is 0 for the empty string', () => {
    expect(countTokens('')).toBe(0);
  });

  it('gives exact o200k_base counts', () => {
    // Known o200k_base encoding of "hello world": [24912, 2375].
    expect(encodeO200k('hello world')).toEqual([24912, 2375]);
    expect(countTokens('hello world')).toBe(2);
    const text = 'Known information about the user:\n- Lives in Berlin.\n- Prefers dark mode.';
    expect(countTokens(text)).toBe(encodeO200k(text).length);
  });

  it('uses o200k_base, not cl100k_base', () => {
    // Non-Latin scripts are where the two vocabularies differ most.
    const text = 'Пользователь живёт в Берлине и предпочитает тёмную тему. 用户住在柏林。';
    expect(countTokens(text)).toBe(encodeO200k(text).length);
    expect(countTokens(text)).not.toBe(encodeCl100k(text).length);
  });

  it('counts special-token text as plain text instead of throwing', () => {
    const text = 'User wrote <|endoftext|> and <|im_start|> in a message.';
    expect(() => encodeO200k(text)).toThrow(); // the library default
    const n = countTokens(text);
    expect(n).toBeGreaterThan(10); // several ordinary tokens each, not 1 special token
    expect(decodeO200k(encodeO200k(text, { disallowedSpecial: new Set() }))).toBe(text);
    expect(n).toBe(encodeO200k(text, { disallowedSpecial: new Set() }).length);
  });
});

describe('withinTokenLimit', () => {
  const text = 'The user is training for a marathon in October.';
  const n = countTokens(text);

  it('is true exactly up to the count', () => {
    expect(withinTokenLimit(text, n)).toBe(true);
    expect(withinTokenLimit(text, n + 1)).toBe(true);
    expect(withinTokenLimit(text, n - 1)).toBe(false);
    expect(withinTokenLimit(text, 0)).toBe(false);
    expect(withinTokenLimit(text, Infinity)).toBe(true);
  });

  it('accepts the empty string for any non-negative limit', () => {
    expect(withinTokenLimit('', 0)).toBe(true);
    expect(withinTokenLimit('', 5)).toBe(true);
  });

  it('rejects negative and NaN limits', () => {
    expect(withinTokenLimit('', -1)).toBe(false);
    expect(withinTokenLimit(text, Number.NaN)).toBe(false);
  });

  it('does not throw on special-token text', () => {
    expect(withinTokenLimit('<|endoftext|>', 100)).toBe(true);
    expect(withinTokenLimit('<|endoftext|>', 1)).toBe(false);
  });
});
