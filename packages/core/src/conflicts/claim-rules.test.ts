import { describe, expect, it } from 'vitest';
import { splitPerson } from './claim-rules';
import { detectClaim, relateClaims } from './claims';

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

describe('vehicle: a car bought or given up is the user\'s vehicle', () => {
  it('reads a purchase that names a make, with what was given up on the way', () => {
    expect(detectClaim('The user bought a Volvo XC40 in March.')).toMatchObject({ subject: 'vehicle', value: 'volvo xc40' });
    expect(detectClaim("The user sold the user's Prius and bought a Hyundai Ioniq 5 last month.")).toMatchObject({ subject: 'vehicle', value: 'hyundai ioniq 5', change: true });
    expect(detectClaim('The user traded in their old Jetta for a Subaru Forester.')).toMatchObject({ subject: 'vehicle', value: 'subaru forester', change: true });
    expect(detectClaim('The user upgraded from a Fiesta to a Ford Mustang convertible.')).toMatchObject({ subject: 'vehicle', value: 'ford mustang convertible' });
    expect(detectClaim('The user recently leased a used Audi A4 (as of 2 June 2026).')).toMatchObject({ subject: 'vehicle', value: 'audi a4' });
  });

  it('reads the model after the word car, whatever its make', () => {
    expect(detectClaim('The user got a new car, a Zeekr 001.')).toMatchObject({ subject: 'vehicle', value: 'zeekr 001', change: true });
  });

  it('ends the vehicle a sale names', () => {
    expect(detectClaim('The user sold their Nissan Leaf in May.')).toMatchObject({ subject: 'vehicle', value: 'nissan leaf', negated: true });
  });

  it('contradicts the car the user drove', () => {
    const drove = detectClaim('The user drives a Toyota Corolla.')!;
    expect(relateClaims(drove, detectClaim("The user sold the user's Corolla and bought a Kia EV6.")!)).toBe('contradiction');
    expect(relateClaims(drove, detectClaim('The user sold their Toyota Corolla in May.')!)).toBe('contradiction');
  });

  it('leaves a purchase of something else, or one that runs on, alone', () => {
    expect(detectClaim('The user bought a Kindle Paperwhite.')).toBeNull();
    expect(detectClaim('The user bought a Volvo XC40 for their daughter.')).toBeNull();
    expect(detectClaim('The user bought a new car.')).toBeNull();
    expect(detectClaim('The user sold their old bike and bought a Brompton.')).toBeNull();
    // planned, not done: the car the user drives today stays
    expect(detectClaim('The user is getting a Volvo XC40 in June.')).toBeNull();
    expect(detectClaim('The user ordered a Volvo XC40 in May.')).toBeNull();
  });
});

describe('count: one more of a thing gives the new count', () => {
  it('reads an ordinal as the count', () => {
    expect(detectClaim('The user and their household got a third hamster (as of 3 March 2026).')).toMatchObject({ subject: 'count:hamster', value: '3' });
    expect(detectClaim('The user adopted their fifth rescue greyhound last month.')).toMatchObject({ subject: 'count:greyhound', value: '5' });
    expect(detectClaim("The user picked up the user's second ukulele on 4 May 2026.")).toMatchObject({ subject: 'count:ukulel', value: '2' });
  });

  it('reads the total said after another one', () => {
    expect(detectClaim('The user rescued another tortoise, so now they have four.')).toMatchObject({ subject: 'count:tortois', value: '4', change: true });
    expect(detectClaim('The user bought one more bonsai last week and now owns eleven.')).toMatchObject({ subject: 'count:bonsai', value: '11' });
  });

  it('replaces the count said before', () => {
    const before = detectClaim('The user has two hamsters.')!;
    expect(relateClaims(before, detectClaim('The user got a third hamster.')!)).toBe('contradiction');
    expect(relateClaims(before, detectClaim('The user adopted another hamster, so now the user has three.')!)).toBe('contradiction');
  });

  it('leaves second chances, opinions and jobs alone', () => {
    expect(detectClaim('The user got a second opinion.')).toBeNull();
    expect(detectClaim('The user got a third chance.')).toBeNull();
    expect(detectClaim('The user got a second job.')).toBeNull();
    expect(detectClaim('The user bought another lamp for the study.')).toBeNull();
    expect(detectClaim('The user won a third medal.')).toBeNull();
  });
});

describe('a claim ends where a new subject starts', () => {
  it('reads the value before "and he / she / they …"', () => {
    expect(detectClaim("The user's husband's name is Omar and he's a dentist.")).toMatchObject({ subject: 'husband/name', value: 'omar' });
    expect(detectClaim("The user's sister Ines lives in Turin and she works as a nurse.")).toMatchObject({ subject: 'ines/residence', value: 'turin' });
  });
});

describe('an age said as a bare number, a name changed', () => {
  it("reads 'is 35 (now)' as an age, a person's only", () => {
    expect(detectClaim('The user is 35 now.')).toMatchObject({ subject: 'age', value: '35', change: true });
    expect(detectClaim("The user's daughter is 7.")).toMatchObject({ subject: 'daughter/age', value: '7' });
    expect(detectClaim('The user is 250.')).toBeNull();
    expect(detectClaim('The user is 35 minutes away.')).toBeNull();
  });

  it('reads a name changed as the new name', () => {
    expect(detectClaim("The user changed the user's name to Maria Okafor.")).toMatchObject({ subject: 'name', value: 'maria okafor', change: true });
    expect(detectClaim('The user legally changed their last name to Brandt.')).toMatchObject({ subject: 'name', value: 'brandt' });
  });
});
