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

describe('WHEN: a claim keeps its slot whatever time phrase the extractor left after the value', () => {
  it('reads a month or a season without its year', () => {
    expect(detectClaim('The user moved to Tromsø in August.')).toMatchObject({ subject: 'residence', value: 'tromsø' });
    expect(detectClaim('The user and their household moved to Tromsø in early August.')).toMatchObject({ subject: 'residence', value: 'tromsø' });
    expect(detectClaim('The user relocated to Tromsø in autumn 2025.')).toMatchObject({ subject: 'residence', value: 'tromsø' });
    expect(detectClaim('The user joined Hooli in mid-January.')).toMatchObject({ subject: 'employer', value: 'hooli' });
  });

  it('reads how long it has held', () => {
    expect(detectClaim('The user has been living in Tromsø for two months now.')).toMatchObject({ subject: 'residence', value: 'tromsø' });
    expect(detectClaim('The user has lived in Tromsø for the past 6 years.')).toMatchObject({ subject: 'residence', value: 'tromsø' });
    expect(detectClaim('The user has been working at Hooli for a while.')).toMatchObject({ subject: 'employer', value: 'hooli' });
  });

  it('still leaves a stay that is not a residence alone', () => {
    expect(detectClaim('The user is staying in Tromsø for two weeks.')).toBeNull();
    expect(detectClaim('The user lived in Tromsø for a year as a student.')).toBeNull();
  });
});
