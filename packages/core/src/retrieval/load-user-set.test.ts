import { describe, expect, it } from 'vitest';
import { currentOf } from './load-user-set';

describe('currentOf: the end of a chain of supersessions', () => {
  // retired memory id -> the memory that superseded it
  const retired = new Map<string, string | null>([
    ['lisbon', 'porto'],
    ['porto', 'berlin'],
    ['loop-a', 'loop-b'],
    ['loop-b', 'loop-a'],
    ['archived', null],
  ]);

  it('follows the chain to the memory that is not retired', () => {
    expect(currentOf('porto', retired)).toBe('berlin');
    expect(currentOf('berlin', retired)).toBe('berlin');
  });

  it('gives null for a chain that ends in a retired memory or goes round', () => {
    expect(currentOf('archived', retired)).toBeNull();
    expect(currentOf('loop-a', retired)).toBeNull();
    expect(currentOf(null, retired)).toBeNull();
  });
});
