import { describe, expect, it } from 'vitest';
import { type ClaimRelation, claimOfMemory, clarificationQuestion, detectClaim, isMultiValued, normaliseSlot, relateClaims, slotWords } from './claims';

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
    // slots beyond the first seven
    ["The user's favorite drink is black coffee.", 'favourite:drink', 'black coffee', 'black coffee'],
    ['The user works as a pediatric nurse.', 'job_title', 'pediatric nurse', 'pediatric nurse'],
    ['The user and their household have got 20 dozen eggs in the fridge (as of 21 May 2023).', 'count:egg', '20 dozen', '20 dozen'],
    ['The user has three cats.', 'count:cat', '3', 'three'],
    ['The user drives a Honda Civic.', 'vehicle', 'honda civic', 'Honda Civic'],
    ['The user is at level 12 in Duolingo French.', 'level:duolingo french', '12', '12'],
    ["The user's mother lives in Boston.", 'mother/residence', 'boston', 'Boston'],
    ["The user's sister lives in Porto.", 'sister/residence', 'porto', 'Porto'],
    ['Caroline lives in Boston.', 'caroline/residence', 'boston', 'Boston'],
    // a named relative is that person, so "the user's friend Tom" and "Tom" are one subject
    ["The user's friend Tom moved to Leeds.", 'tom/residence', 'leeds', 'Leeds'],
    ["The user's cousin Ines lives in the suburbs.", 'ines/residence', 'suburbs', 'suburbs'],
    // a statement that runs on past its claim
    ['The user lives in Lisbon, so the user takes the tram to work.', 'residence', 'lisbon', 'Lisbon'],
    ['The user moved to the countryside - the user wanted a garden.', 'residence', 'countryside', 'countryside'],
    // recurring days, what is still needed, where the user is in a book
    ['The user has a pottery class on Tuesday.', 'schedule:potteri class', 'tuesday', 'Tuesday'],
    ['The user takes violin lessons on Mondays and Thursdays.', 'schedule:violin lesson', 'monday thursday', 'Mondays and Thursdays'],
    ["The user's chess club is on Wednesday evenings.", 'schedule:chess club', 'wednesday', 'Wednesday'],
    ['The user has soccer practice every Saturday morning.', 'schedule:soccer practic', 'saturday', 'Saturday'],
    ['The user needs **40 points** to unlock the next badge.', 'need:point unlock', '40', '40'],
    ['The user needs 9 more credits to graduate.', 'need:credit graduat', '9', '9'],
    ['The user is now on page 143 of the novel.', 'progress:page', '143', '143'],
    // a season as the time, where the user is now, an employer with the role after it
    ['The user and their family relocated to Ghent in the autumn.', 'residence', 'ghent', 'Ghent'],
    ['The user moved to Leeds last winter.', 'residence', 'leeds', 'Leeds'],
    ['The user is in Valencia now.', 'residence', 'valencia', 'Valencia'],
    ['The user is now based in Oslo.', 'residence', 'oslo', 'Oslo'],
    ['The user works at Hooli as a data analyst.', 'employer', 'hooli', 'Hooli'],
    // an ending and a beginning of one slot: the beginning is the claim
    ['The user left Hooli and joined Pied Piper in March 2024.', 'employer', 'pied piper', 'Pied Piper'],
    ['The user moved out of Leeds and moved to York last summer.', 'residence', 'york', 'York'],
    // what follows "and now"; an adverb after the auxiliary; "now" after a claim whose rule takes no time phrase
    ['The user changed careers and now works at Hooli.', 'employer', 'hooli', 'Hooli'],
    ['The user is currently working at Pied Piper.', 'employer', 'pied piper', 'Pied Piper'],
    ['The user is pescatarian these days.', 'diet', 'pescatarian', 'pescatarian'],
    ["The user's favourite band is now Wilco.", 'favourite:band', 'wilco', 'Wilco'],
    ['The user has been living in Ghent since September.', 'residence', 'ghent', 'Ghent'],
    ['The user moved from Utrecht to Leiden in March 2026.', 'residence', 'leiden', 'Leiden'],
    ['The user relocated to Aarhus from Odense.', 'residence', 'aarhus', 'Aarhus'],
    ['The user finally moved to Bilbao after nine years in Madrid.', 'residence', 'bilbao', 'Bilbao'],
    ['The user has moved to Tartu after a decade in Tallinn.', 'residence', 'tartu', 'Tartu'],
  ])('%s -> %s = %s', (content, subject, value, display) => {
    expect(detectClaim(content)).toMatchObject({ subject, value, display, negated: false });
  });

  it.each([
    ['The user is not vegetarian anymore.', 'diet', 'vegetarian'],
    ['The user is no longer vegan.', 'diet', 'vegan'],
    ['The user quit smoking in 2025.', 'habit:smoke', 'yes'],
    ['The user stopped drinking coffee.', 'habit:drink coffe', 'yes'],
    ['The user used to live in Lisbon.', 'residence', 'lisbon'],
    ['The user no longer works at Acme.', 'employer', 'acme'],
    ['The user left Acme in March 2024.', 'employer', 'acme'],
    ['The user does not live in Lisbon.', 'residence', 'lisbon'],
    ['The user no longer likes jazz.', 'likes:jazz', 'yes'],
    ['The user hates cilantro.', 'likes:cilantro', 'yes'],
  ])('%s is a negated %s claim', (content, subject, value) => {
    expect(detectClaim(content)).toMatchObject({ subject, value, negated: true });
  });

  it('marks change language', () => {
    expect(detectClaim('The user moved to Porto in April 2023.')?.change).toBe(true);
    expect(detectClaim('The user now drives a Tesla Model 3.')?.change).toBe(true);
    expect(detectClaim('The user lives in Porto.')?.change).toBe(false);
    expect(detectClaim('The user left Hooli and joined Pied Piper.')?.change).toBe(true);
    expect(detectClaim('The user works at Initech, not Globex.')).toMatchObject({ subject: 'employer', value: 'initech', change: true });
  });

  it.each([
    'The user is training for a marathon in April.',
    'The user lives in a small flat.',
    'The user is moving to Porto next month.',
    'The user visited Lisbon in May 2023.',
    "The user's plan is to visit Japan.",
    'The user has a meeting tomorrow.',
    'The user drives to work.',
    'The user asked: which laptop should the user buy?',
    // a place without "now" may be a trip; two facts joined by "and" are not one claim
    'The user is in Valencia for a conference.',
    'The user is in Valencia.',
    'The user lives in Leeds and works at Hooli.',
    'The user moved to Bergen from the hospital job.',
    'The user moved the sofa from Oslo to Bergen.',
  ])('is not a claim: %s', (content) => {
    expect(detectClaim(content)).toBeNull();
  });
});

describe('normaliseSlot', () => {
  it.each([
    ['favorite drink', 'favourite:drink'],
    ['Favourite drinks', 'favourite:drink'],
    ['works at', 'employer'],
    ['is employed by', 'employer'],
    ['job title', 'job_title'],
    ['occupation', 'job_title'],
    ['marital status', 'marital_status'],
    ['lives in', 'residence'],
    ['preferred coffee shop', 'preferred:coffe shop'],
    ['number of cats', 'count:cat'],
    ['spanish level', 'level:spanish'],
    ['mother / residence', 'mother/residence'],
    ['residence', 'residence'],
    ['count:egg', 'count:egg'],
  ])('%s -> %s', (name, slot) => {
    expect(normaliseSlot(name)).toBe(slot);
  });

  it('knows which slots hold several values', () => {
    expect(isMultiValued('languages')).toBe(true);
    expect(isMultiValued('mother/pets')).toBe(true);
    expect(isMultiValued('residence')).toBe(false);
    expect(isMultiValued('favourite:drink')).toBe(false);
  });
});

/**
 * Pairs of statements in our own words, the first said earlier, each labelled by how the second relates to
 * the first. The statements are written the way the extractors phrase memories.
 */
const PAIRS: [string, string, ClaimRelation][] = [
  // residence
  ['The user lives in Lisbon.', 'The user moved to Porto in October 2026.', 'contradiction'],
  ['The user lives in Lisbon.', 'The user lives in Lisbon (as of 3 March 2026).', 'same'],
  ['The user lives in Lisbon.', 'The user is based in Lisbon.', 'same'],
  ['The user lives in Lisbon.', 'The user used to live in Lisbon.', 'contradiction'],
  ['The user lives in Lisbon.', 'The user relocated to Berlin last year.', 'contradiction'],
  ['The user lives in Porto.', 'The user lives in Porto, Portugal.', 'same'],
  ['The user lives in Lisbon.', "The user's mother lives in Porto.", 'compatible'],
  ['The user lives in Lisbon.', 'The user is from Porto.', 'compatible'],
  ['The user moved out of Lisbon in 2024.', 'The user lives in Porto.', 'compatible'],
  ['The user lives in Denver.', 'The user moved back to Denver.', 'same'],
  // hometown
  ['The user is from Brazil.', 'The user comes from Brazil.', 'same'],
  ['The user is from Brazil.', 'The user is originally from Chile.', 'contradiction'],
  ['The user grew up in Leeds.', 'The user is originally from Leeds.', 'same'],
  ['The user is from Ohio.', 'The user lives in Ohio.', 'compatible'],
  // diet
  ['The user is a vegetarian.', 'The user is not vegetarian anymore.', 'contradiction'],
  ['The user is a vegetarian.', 'The user is vegan.', 'contradiction'],
  ['The user is vegan.', 'The user is a strict vegan.', 'same'],
  ['The user is not vegetarian anymore.', 'The user is vegan.', 'compatible'],
  ['The user is a vegetarian.', 'The user eats meat.', 'contradiction'],
  ['The user is a pescatarian.', 'The user is no longer pescatarian.', 'contradiction'],
  ['The user is on a keto diet.', 'The user follows a paleo diet.', 'contradiction'],
  ['The user is on a keto diet.', 'The user is on a keto diet.', 'same'],
  ['The user is no longer vegan.', 'The user is vegan again.', 'contradiction'],
  // employer
  ['The user works at Acme.', 'The user joined Stripe.', 'contradiction'],
  ['The user works at Acme.', 'The user works for Acme.', 'same'],
  ['The user works at Acme.', 'The user is employed by Acme.', 'same'],
  ['The user works at Acme.', 'The user left Acme in March 2024.', 'contradiction'],
  ['The user works at Acme.', 'The user no longer works at Acme.', 'contradiction'],
  ['The user works at Acme.', 'The user started a new job as a data scientist at Stripe.', 'contradiction'],
  ['The user works at Acme.', 'The user got a job at Globex.', 'contradiction'],
  ['The user left Acme in March 2024.', 'The user works at Globex.', 'compatible'],
  ['The user started a new job at Globex the week before 3 March 2026.', 'The user works at Initech, not Globex.', 'contradiction'],
  ['The user lives in Lisbon.', 'The user lives in Porto instead of Lisbon.', 'contradiction'],
  ['The user works at Acme.', 'The user works as a designer.', 'compatible'],
  // job title
  ['The user works as a pediatric nurse.', 'The user works as a nurse practitioner.', 'contradiction'],
  ['The user works as a pediatric nurse.', 'The user works as a pediatric nurse at St Mary.', 'same'],
  ['The user works as a junior developer.', 'The user was promoted to senior developer.', 'contradiction'],
  ['The user works as an accountant.', 'The user no longer works as an accountant.', 'contradiction'],
  ['The user works as a barista.', 'The user likes coffee.', 'compatible'],
  // school and major
  ['The user studies at MIT.', 'The user attends Stanford.', 'contradiction'],
  ['The user studies at MIT.', 'The user is enrolled at MIT.', 'same'],
  ['The user goes to Lincoln High School.', 'The user attends Lincoln High School.', 'same'],
  ['The user is majoring in biology.', 'The user is majoring in chemistry.', 'contradiction'],
  ['The user is majoring in biology.', 'The user studies at MIT.', 'compatible'],
  // relationship status
  ['The user is married.', 'The user is divorced.', 'contradiction'],
  ['The user is single.', 'The user is dating a coworker.', 'contradiction'],
  ['The user is in a relationship.', "The user's girlfriend and the user broke up.", 'contradiction'],
  ['The user is engaged.', 'The user got married in June 2025.', 'contradiction'],
  ['The user is married.', 'The user is married.', 'same'],
  ['The user is single.', 'The user broke up with their boyfriend.', 'same'],
  ['The user is married.', 'The user is not married anymore.', 'contradiction'],
  // age
  ['The user is 34 years old.', 'The user is 35 years old.', 'contradiction'],
  ['The user is 34 years old.', 'The user turned 35.', 'contradiction'],
  ['The user is 34 years old.', 'The user is 34 years old (as of 1 May 2026).', 'same'],
  // name
  ["The user's name is Ana.", "The user's name is Joana.", 'contradiction'],
  ["The user's name is Ana.", "The user's first name is Ana.", 'same'],
  ["The user's name is Ana.", "The user's mother's name is Rosa.", 'compatible'],
  // favourites (one slot per thing)
  ["The user's favourite drink is green tea.", "The user's favorite drink is black coffee.", 'contradiction'],
  ["The user's favourite drink is green tea.", "The user's favourite drink is Green Tea.", 'same'],
  ["The user's favourite drink is green tea.", "The user's favourite food is sushi.", 'compatible'],
  ["The user's favourite colour is blue.", "The user's favourite colour is now green.", 'contradiction'],
  ["The user's favourite band is Radiohead.", "The user's favourite band is Radiohead.", 'same'],
  ["The user's favourite movie is Alien.", "The user's all-time favourite movie is Heat.", 'contradiction'],
  ["The user's favorite season is autumn.", "The user's favourite season is winter.", 'contradiction'],
  ["The user's favourite book is Dune.", "The user's favourite author is Le Guin.", 'compatible'],
  ["The user's favourite sport is tennis.", 'The user likes tennis.', 'compatible'],
  ["The user's favourite restaurant is Nopa.", "The user's favourite restaurant is no longer Nopa.", 'contradiction'],
  // preferred
  ["The user's preferred airline is KLM.", "The user's preferred airline is Delta.", 'contradiction'],
  ["The user's preferred airline is KLM.", "The user's preferred seat is the aisle.", 'compatible'],
  ["The user's preferred editor is Vim.", "The user's preferred editor is vim.", 'same'],
  // vehicle
  ['The user drives a Honda Civic.', 'The user now drives a Tesla Model 3.', 'contradiction'],
  ['The user drives a Honda Civic.', 'The user drives a Honda Civic.', 'same'],
  ["The user drives a Honda Civic.", "The user's car is a Toyota Corolla.", 'contradiction'],
  ['The user drives a Honda Civic.', 'The user no longer drives a Honda Civic.', 'contradiction'],
  // phone and laptop
  ["The user's phone is an iPhone 12.", "The user's phone is a Pixel 8.", 'contradiction'],
  ["The user's phone is an iPhone 12.", "The user's laptop is a MacBook Air.", 'compatible'],
  ["The user's laptop is a ThinkPad.", "The user's computer is a ThinkPad.", 'same'],
  // counts
  ['The user and their household have got 30 dozen eggs in the fridge.', 'The user and their household have got 20 dozen eggs in the fridge.', 'contradiction'],
  ['The user has 3 cats.', 'The user has three cats.', 'same'],
  ['The user has 3 cats.', 'The user has 4 cats.', 'contradiction'],
  ['The user has 3 cats.', 'The user has 2 dogs.', 'compatible'],
  ['The user owns 12 guitars.', 'The user owns 15 guitars.', 'contradiction'],
  ['The user has 250 books.', 'The user has about 250 books.', 'same'],
  ['The user has 5 houseplants.', 'The user now has 9 houseplants.', 'contradiction'],
  ["The user's mother has 2 cats.", 'The user has 3 cats.', 'compatible'],
  ['The user keeps 6 chickens.', 'The user keeps 8 chickens.', 'contradiction'],
  // money and body
  ['The user pays $1200 a month in rent.', 'The user pays $1400 in rent.', 'contradiction'],
  ['The user pays $1200 in rent.', 'The user pays $1200 a month in rent.', 'same'],
  ['The user earns $60,000 a year.', 'The user earns $75,000 a year.', 'contradiction'],
  ['The user earns $60,000 a year.', 'The user earns $60000 a year.', 'same'],
  ["The user's budget is $500.", "The user's budget is $800.", 'contradiction'],
  ['The user weighs 80 kg.', 'The user weighs 76 kg.', 'contradiction'],
  ['The user is 180 cm tall.', 'The user is 180 cm tall.', 'same'],
  ["The user's salary is $50k.", "The user's income is $50k.", 'same'],
  // levels and grades
  ['The user is at level 12 in Duolingo French.', 'The user reached level 15 in Duolingo French.', 'contradiction'],
  ['The user is at level 12 in Duolingo French.', 'The user is at level 3 in Duolingo Spanish.', 'compatible'],
  ['The user is an intermediate Spanish speaker.', 'The user is an advanced Spanish speaker.', 'contradiction'],
  ['The user is a beginner in chess.', 'The user is an intermediate in chess.', 'contradiction'],
  ['The user is in grade 7.', 'The user is in grade 8.', 'contradiction'],
  ['The user has a blue belt in karate.', 'The user has a brown belt in karate.', 'contradiction'],
  ['The user has a blue belt in karate.', 'The user has a blue belt in judo.', 'compatible'],
  ["The user's Spanish level is B1.", "The user's Spanish level is B2.", 'contradiction'],
  // schedules
  ['The user works night shifts.', 'The user works day shifts.', 'contradiction'],
  ['The user works night shifts.', 'The user works the night shift.', 'same'],
  ['The user wakes up at 6 am.', 'The user wakes up at 7:30 am.', 'contradiction'],
  ['The user wakes up at 6 am.', 'The user goes to bed at 11 pm.', 'compatible'],
  ['The user goes to bed at 11 pm.', 'The user goes to bed at midnight.', 'contradiction'],
  ['The user sleeps 6 hours a night.', 'The user sleeps 8 hours a night.', 'contradiction'],
  ["The user's work schedule is Monday to Thursday.", "The user's work schedule is Monday to Friday.", 'contradiction'],
  // habits that stop
  ['The user drinks coffee every morning.', 'The user used to drink coffee every morning.', 'contradiction'],
  ['The user drinks coffee every morning.', 'The user stopped drinking coffee.', 'contradiction'],
  ['The user drinks coffee every morning.', 'The user drinks tea every morning.', 'compatible'],
  ['The user smokes.', 'The user quit smoking in 2025.', 'contradiction'],
  ['The user smokes.', 'The user no longer smokes.', 'contradiction'],
  ['The user quit smoking in 2025.', 'The user smokes again.', 'contradiction'],
  ['The user runs every morning.', 'The user runs every day.', 'same'],
  ['The user runs every morning.', 'The user swims every week.', 'compatible'],
  ['The user meditates daily.', 'The user gave up meditating.', 'contradiction'],
  ['The user plays guitar.', 'The user plays the piano.', 'compatible'],
  ['The user plays guitar.', 'The user no longer plays guitar.', 'contradiction'],
  ['The user volunteers at the shelter every Saturday.', 'The user stopped volunteering at the shelter.', 'contradiction'],
  ['The user drinks coffee every morning.', 'The user quit smoking.', 'compatible'],
  // likes (many at once)
  ['The user likes jazz.', 'The user likes hip hop.', 'compatible'],
  ['The user likes jazz.', 'The user loves jazz.', 'same'],
  ['The user likes jazz.', 'The user no longer likes jazz.', 'contradiction'],
  ['The user likes cilantro.', 'The user hates cilantro.', 'contradiction'],
  ['The user enjoys hiking.', 'The user likes hiking.', 'same'],
  ['The user is a big fan of Arsenal.', 'The user likes Chelsea.', 'compatible'],
  // languages (many at once)
  ['The user speaks Spanish.', 'The user speaks French.', 'compatible'],
  ['The user speaks Spanish.', 'The user speaks Spanish.', 'same'],
  ['The user speaks Spanish.', 'The user no longer speaks Spanish.', 'contradiction'],
  // other people keep their own slots
  ["The user's mother lives in Boston.", "The user's mother moved to Miami.", 'contradiction'],
  ["The user's mother lives in Boston.", "The user's father lives in Miami.", 'compatible'],
  ["The user's sister works at Google.", "The user's sister joined Meta.", 'contradiction'],
  ["The user's brother is 17 years old.", "The user's brother is 18 years old.", 'contradiction'],
  ["The user's son is in grade 3.", "The user's son is in grade 4.", 'contradiction'],
  ["The user's daughter is in grade 3.", "The user's son is in grade 5.", 'compatible'],
  ["The user's wife is a vegetarian.", 'The user eats meat.', 'compatible'],
  ["The user's husband works as a teacher.", "The user's husband works as a principal.", 'contradiction'],
  ['Caroline lives in Boston.', 'Caroline moved to Denver.', 'contradiction'],
  ['Caroline lives in Boston.', 'Melanie lives in Denver.', 'compatible'],
  ['Melanie has 2 kids.', 'Melanie has 3 kids.', 'contradiction'],
  ["Melanie's favourite book is Charlotte's Web.", "Melanie's favourite book is Matilda.", 'contradiction'],
  // birthday, commute, timezone, religion, native language
  ["The user's birthday is 3 May.", "The user's birthday is 4 May.", 'contradiction'],
  ["The user's birthday is 3 May.", "The user's date of birth is 3 May.", 'same'],
  ["The user's commute is 40 minutes by train.", "The user's commute is 15 minutes by bike.", 'contradiction'],
  ["The user's time zone is CET.", "The user's timezone is PST.", 'contradiction'],
  ["The user's religion is Buddhism.", "The user's faith is Buddhism.", 'same'],
  ["The user's native language is Polish.", "The user's first language is Polish.", 'same'],
  ["The user's native language is Polish.", 'The user speaks German.', 'compatible'],
  ["The user's goal weight is 70 kg.", "The user's target weight is 65 kg.", 'contradiction'],
  // a named relative: the same person however introduced, and different people never conflict
  ["The user's friend Tom lives in Leeds.", 'Tom moved to York in May 2026.', 'contradiction'],
  ["The user's friend Tom lives in Leeds.", "The user's friend Ana lives in York.", 'compatible'],
  ["The user's friend Tom moved to the city.", "The user's friend Tom actually moved back to the suburbs, so the user visits less.", 'contradiction'],
  ["The user's sister Mia lives in Oslo.", "The user's sister Mia lives in Oslo (as of 2 May 2026).", 'same'],
  // a recurring day of an activity
  ['The user has a pottery class on Tuesday.', 'The user has a pottery class on Thursday.', 'contradiction'],
  ['The user has a pottery class on Tuesday.', 'The user has a pottery class on Thursday now.', 'contradiction'],
  ['The user goes to the gym on Mondays.', 'The user goes to the gym on Fridays these days.', 'contradiction'],
  ['The user has a pottery class on Tuesday.', "The user's pottery class is on Tuesdays.", 'same'],
  ['The user has a pottery class on Tuesday.', 'The user takes violin lessons on Tuesdays.', 'compatible'],
  ['The user takes violin lessons on Mondays and Thursdays.', 'The user takes violin lessons on Thursdays and Mondays.', 'same'],
  ['The user takes violin lessons on Mondays and Thursdays.', 'The user now takes violin lessons on Fridays.', 'contradiction'],
  ['The user goes to the gym on Tuesdays.', 'The user goes to the gym on Tuesdays and Saturdays.', 'contradiction'],
  ['The user has soccer practice every Saturday morning.', 'The user has soccer practice every Sunday.', 'contradiction'],
  // what is still needed for a goal
  ['The user needs 40 points to unlock the next badge.', 'The user needs 25 points to unlock the next badge.', 'contradiction'],
  ['The user needs 9 more credits to graduate.', 'The user needs nine more credits to graduate.', 'same'],
  ['The user needs 9 more credits to graduate.', 'The user needs 40 points to unlock the next badge.', 'compatible'],
  ['The user needs 40 points to unlock the next badge.', 'The user needs 60 points for a free coffee.', 'compatible'],
  // where the user is in a book
  ['The user is on page 143 of the novel.', 'The user is now on page 210.', 'contradiction'],
  ['The user is on page 143.', 'The user is at page 143 of the novel.', 'same'],
  // the same fact in other words, different slots, and unrelated facts
  ['The user works at Acme.', 'The user lives in Lisbon.', 'compatible'],
  ['The user is 34 years old.', 'The user is married.', 'compatible'],
  ['The user has 3 cats.', 'The user likes cats.', 'compatible'],
  ['The user drives a Honda Civic.', "The user's favourite car is a Porsche 911.", 'compatible'],
  ['The user is vegan.', "The user's favourite food is tofu.", 'compatible'],
];

describe('relateClaims: a table of statement pairs', () => {
  it('has at least 150 pairs across at least 25 slots', () => {
    const slots = new Set(PAIRS.flatMap(([a, b]) => [detectClaim(a)?.subject, detectClaim(b)?.subject]).filter(Boolean));
    expect(PAIRS.length).toBeGreaterThanOrEqual(150);
    expect(slots.size).toBeGreaterThanOrEqual(25);
  });

  it.each(PAIRS)('%s / %s: %s', (earlier, later, relation) => {
    const a = detectClaim(earlier);
    const b = detectClaim(later);
    expect(a, earlier).not.toBeNull();
    expect(b, later).not.toBeNull();
    expect(relateClaims(a!, b!)).toBe(relation);
  });
});

describe('slotWords', () => {
  it('names the slot in the words a question about it uses', () => {
    expect(slotWords(detectClaim('The user moved to Porto in February 2026.'))).toBe('lives live home residence');
    expect(slotWords(detectClaim("The user's favourite drink is green tea."))).toBe('favourite favorite drink');
    expect(slotWords(detectClaim('The user and their household have got 20 dozen eggs.'))).toBe('many number egg');
    expect(slotWords(detectClaim("The user's mother moved to Miami."))).toBe('mother lives live home residence');
    expect(slotWords(null)).toBe('');
  });
});

describe('claimOfMemory', () => {
  it("uses a provider's claim with its slot normalised, and the built-in rules otherwise", () => {
    expect(claimOfMemory({ content: 'The user is not vegetarian anymore.', claim: { subject: 'Diet', value: 'Vegetarian', negated: true } })).toEqual({
      subject: 'diet',
      value: 'vegetarian',
      display: 'Vegetarian',
      negated: true,
      change: true,
    });
    expect(claimOfMemory({ content: "The user's favorite drink is black coffee." })).toMatchObject({ subject: 'favourite:drink', value: 'black coffee' });
  });
});

describe('clarificationQuestion', () => {
  it('asks the user in their own terms', () => {
    expect(clarificationQuestion('residence', 'Lisbon', 'Porto')).toBe('Do you currently live in Lisbon or in Porto?');
    expect(clarificationQuestion('favourite:drink', 'green tea', 'black coffee')).toBe('Is your favourite drink green tea or black coffee?');
    expect(clarificationQuestion('count:egg', '30 dozen', '20 dozen')).toBe('How many eggs do you have now: 30 dozen or 20 dozen?');
    expect(clarificationQuestion('schedule:work', 'night', 'day')).toBe('Which is correct now: night or day?');
    expect(clarificationQuestion('schedule:potteri class', 'Tuesday', 'Thursday')).toBe('Which day is it now: Tuesday or Thursday?');
  });
});
