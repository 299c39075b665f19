import { describe, expect, it } from 'vitest';
import { clarificationQuestion, detectClaim } from './claims';

describe('detectClaim', () => {
  it.each([
    ['The user lives in Lisbon.', 'residence', 'lisbon', 'Lisbon'],
    ['The user lives in New York City.', 'residence', 'new york city', 'New York City'],
    ['The user moved to Porto.', 'residence', 'porto', 'Porto'],
    ['The user is a vegetarian.', 'diet', 'vegetarian', 'vegetarian'],
    ['The user is vegan.', 'diet', 'vegan', 'vegan'],
    ['The user eats meat.', 'diet', 'meat eater', 'meat eater'],
    ['The user works at Acme.', 'employer', 'acme', 'Acme'],
    ['The user is married.', 'marital_status', 'married', 'married'],
    ['The user is 34 years old.', 'age', '34', '34'],
    ["The user's name is Ana.", 'name', 'ana', 'Ana'],
    ['The user is from Brazil.', 'hometown', 'brazil', 'Brazil'],
    // the asides and times the built-in extractor writes do not change the claim
    ['The user lives in Porto (as of 21 May 2023).', 'residence', 'porto', 'Porto'],
    ['The user currently lives in Madrid (as of 1 May 2024).', 'residence', 'madrid', 'Madrid'],
    ['The user is vegan (as of 3 June 2023).', 'diet', 'vegan', 'vegan'],
    ['The user moved to Porto (in reply to the assistant: "Where to?").', 'residence', 'porto', 'Porto'],
    ['The user just moved to Porto in April 2023.', 'residence', 'porto', 'Porto'],
    ['The user actually moved to Porto.', 'residence', 'porto', 'Porto'],
    ['In 2021, the user moved to New York City.', 'residence', 'new york city', 'New York City'],
    ['The user moved to Porto the week before 8 May 2023.', 'residence', 'porto', 'Porto'],
  ])('%s -> %s = %s', (content, subject, value, display) => {
    expect(detectClaim(content)).toEqual({ subject, value, display });
  });

  it.each(['The user loves jazz.', 'The user does not live in Lisbon.', 'The user is training for a marathon in April.', "The user's sister lives in Porto.", 'The user lives in a small flat.'])(
    'is not a claim: %s',
    (content) => {
      expect(detectClaim(content)).toBeNull();
    },
  );
});

describe('clarificationQuestion', () => {
  it('asks the user in their own terms', () => {
    expect(clarificationQuestion('residence', 'Lisbon', 'Porto')).toBe('Do you currently live in Lisbon or in Porto?');
  });
});
