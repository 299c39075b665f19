import { describe, expect, it } from 'vitest';
import { queryEntities } from './retrieve';

describe('queryEntities', () => {
  const names = new Set(['the user', 'ana', 'piranesi', 'new york']);

  it('finds the entity names a question mentions, up to four words', () => {
    expect(queryEntities("What did Ana's brother say about New York?", names)).toEqual(['ana', 'new york']);
  });

  it('never counts "the user": most memories are linked to it, so it would match them all', () => {
    expect(queryEntities('Which books has the user read?', names)).toEqual([]);
    expect(queryEntities('Did the user like Piranesi?', names)).toEqual(['piranesi']);
  });
});
