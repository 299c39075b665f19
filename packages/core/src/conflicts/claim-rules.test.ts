import { describe, expect, it } from 'vitest';
import { splitPerson } from './claim-rules';
import { detectClaim } from './claims';

describe('splitPerson: who a statement is about', () => {
  it('reads "The user and <Name> …" (from "<Name> and I …") as said of the user', () => {
    expect(splitPerson('The user and Noor split up')).toEqual({ person: '', predicate: 'split up', possessive: false });
    expect(detectClaim('The user and Tobias moved to Aarhus in 2025.')).toMatchObject({ subject: 'residence', value: 'aarhus' });
    expect(detectClaim('The user and Ines both work at Initech.')).toMatchObject({ subject: 'employer', value: 'initech' });
  });

  it('keeps a named person of their own, and a household as the user', () => {
    expect(splitPerson('Noor moved to Leiden')).toEqual({ person: 'noor', predicate: 'moved to Leiden', possessive: false });
    expect(splitPerson('The user and their family moved to Leiden')).toEqual({ person: '', predicate: 'moved to Leiden', possessive: false });
  });
});
