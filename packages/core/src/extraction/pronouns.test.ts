import { describe, expect, it } from 'vitest';
import type { ConversationMessage } from '../messages';
import { extractMemories } from './builtin';
import { mentions, resolvePronoun, rewriteWe, weSubject } from './pronouns';
import { extractAt, itExtracts } from './test-helpers';

const observedAt = new Date('2023-05-21T19:50:00Z');
const user = (content: string): ConversationMessage => ({ role: 'user', content });
const assistant = (content: string): ConversationMessage => ({ role: 'assistant', content });
const { contents } = extractAt(observedAt);

describe('pronouns resolved to the person named earlier', () => {
  it('"she" after "my wife Sarah", in the same message', () => {
    expect(contents("My wife Sarah is planning a surprise party. She's allergic to shellfish.")).toEqual([
      "The user's wife Sarah is planning a surprise party.",
      "The user's wife Sarah is allergic to shellfish.",
    ]);
  });

  it('"he" after "a friend named Tomás", a message later, across an assistant turn', () => {
    expect(contents('I have a friend named Tomás who teaches salsa.', assistant('That sounds fun!'), 'He moved to Valencia in January.')).toContain(
      "The user's friend Tomás moved to Valencia in January.",
    );
  });

  it('"they" after a plural relation; "her" as a possessive; a health fact keeps its importance', () => {
    expect(contents('My parents are retired now. They live near the coast in Devon.')).toContain("The user's parents live near the coast in Devon.");
    const r = extractMemories({ messages: [user('We adopted a cat last year, my cat Miso. Her favourite toy is a felt mouse.')], observedAt });
    expect(r.memories.map((m) => m.content)).toContain("The user's cat Miso's favourite toy is a felt mouse.");
    const allergy = extractMemories({ messages: [user('My daughter Lena starts school in September. She has a severe peanut allergy.')], observedAt });
    const m = allergy.memories.find((x) => x.content.includes('peanut'));
    expect(m?.content).toBe("The user's daughter Lena has a severe peanut allergy.");
    expect(m?.category).toBe('relationship');
    expect(m?.importance).toBeGreaterThanOrEqual(0.9);
  });

  it('"she" and "he" after a professional the user saw, visited or hired; not one someone else did, or a wish', () => {
    expect(contents('I saw a new physiotherapist last week. He gave me a set of stretches for my lower back.')).toContain(
      "The user's physiotherapist gave the user a set of stretches for the user's lower back.",
    );
    expect(contents('We hired an electrician named Ravi. He rewired the kitchen in two days.')).toContain("The user's electrician Ravi rewired the kitchen in two days.");
    // the second word is the occupation; a name after another word is none of the mention's
    expect(contents('I visited a family doctor, Dr. Okafor. He ordered blood tests.')).toContain("The user's doctor Dr. Okafor ordered blood tests.");
    expect(contents("I've been seeing a dentist since March. She suggested a night guard.")).toContain("The user's dentist suggested a night guard.");
    expect(contents('I’ve hired a tutor. He comes on Tuesdays.')).toContain("The user's tutor comes on Tuesdays.");
    expect(contents('The bank hired a lawyer. He said the case was weak.')).toEqual([]);
    expect(contents('I saw a therapist. She suggested journaling.')).toContain("The user's therapist suggested journaling.");
    expect(contents('I saw a baby at the park. She smiled at me.')).not.toContain("The user's baby smiled at the user.");
    expect(contents('I want to become a nurse. She said it was hard.')).toEqual(['The user wants to become a nurse.']);
  });

  it('"she" and "he" after any occupation named with "my", with a title before the name', () => {
    expect(contents('I finally went to my podiatrist, Dr. Mensah, about my heel. She gave me a brace and told me to rest it.')).toEqual([
      "The user finally went to the user's podiatrist, Dr. Mensah, about the user's heel.",
      "The user's podiatrist Dr. Mensah gave the user a brace and told the user to rest it.",
    ]);
    expect(contents('My new accountant is very thorough. He found a deduction I had missed.')).toContain(
      "The user's accountant found a deduction the user had missed.",
    );
    // a capitalised word after the name opens the next clause, and is no part of the name
    expect(contents('I saw my dentist Dr. Ruiz And Then I went home. She said my gums look healthy.')).toContain(
      "The user's dentist Dr. Ruiz said the user's gums look healthy.",
    );
    // a word that is no occupation stays unresolved ("my neighbourhood")
    expect(contents('My neighbourhood is quiet. She walks her dog at six.')).toEqual(["The user's neighbourhood is quiet."]);
  });

  it('"she" does not take a male antecedent, and an old mention is out of reach', () => {
    expect(contents('My brother Ivan lives in Riga. She loves jazz.')).toEqual(["The user's brother Ivan lives in Riga."]);
    expect(contents('My aunt Rosa paints.', 'I love jazz.', 'I play chess.', 'I like tea.', 'She moved to Madrid.')).not.toContain(
      "The user's aunt Rosa moved to Madrid.",
    );
  });
});

describe('"we" and "our" are the user and someone', () => {
  it('a person named earlier in the message', () => {
    expect(contents("I went climbing with my brother Ivan, and we've booked a trip to the Dolomites.")).toContain(
      "The user and the user's brother Ivan have booked a trip to the Dolomites.",
    );
  });

  itExtracts(
    [
      // the team when the clause speaks of work, else the household; "our X" is the user's X
      ['We shipped the new billing platform to our first customers.', 'The user and their team shipped the new billing platform to their first customers.'],
      ['We keep chickens in the back garden.', 'The user and their household keep chickens in the back garden.'],
      ['Our landlord raised the rent by 8 percent.', "The user's landlord raised the rent by 8 percent."],
    ],
    observedAt,
  );

  it('"we" as people in general is not the user\'s household', () => {
    expect(contents('We should all recycle more.')).toEqual(['The user said that we should all recycle more.']);
  });
});

describe('pronouns.ts helpers', () => {
  it('mentions', () => {
    expect(mentions('My little sister Ana and my dog Rex', 0).map((a) => [a.phrase, a.gender, a.pet])).toEqual([
      ['my sister Ana', 'f', false],
      ['my dog Rex', 'n', true],
    ]);
  });

  it('resolvePronoun', () => {
    const a = mentions('my kids', 0);
    expect(resolvePronoun("They're learning Mandarin", a, 0, (i) => i)).toBe('my kids are learning Mandarin');
    expect(resolvePronoun('It is broken', a, 0, (i) => i)).toBeNull();
    expect(resolvePronoun("They don't like broccoli", mentions('my roommate Kai', 0), 0, (i) => i)).toBe('my roommate Kai does not like broccoli');
  });

  it('rewriteWe and weSubject', () => {
    expect(rewriteWe("We're repainting our kitchen", weSubject('repainting the kitchen', [], 0))).toBe(
      'The user and their household are repainting their kitchen',
    );
  });
});

describe('"it" resolved to a thing the user just said they got', () => {
  it('at the start of a clause that describes it, in the same message or the next', () => {
    expect(contents("I just got a new bike. It's a Trek Domane.")).toContain("The user's new bike is a Trek Domane.");
    expect(contents('I finally got my new laptop.', assistant('Nice, enjoy it!'), 'It has 32 GB of RAM.')).toContain("The user's new laptop has 32 GB of RAM.");
    expect(contents("I ordered a new mattress online. It's arriving on Friday.")).toContain("The user's new mattress is arriving on Friday.");
    expect(contents("My new kettle is loud. It's made of glass.")).toContain("The user's new kettle is made of glass.");
    expect(contents("I bought a new bed. It's a king size.")).toContain("The user's new bed is a king size.");
    expect(contents("My old phone crashed again. It's a Pixel 4.")).toContain("The user's old phone is a Pixel 4.");
  });

  it('as the object of liking or using, or after "with"', () => {
    expect(contents("I bought a standing desk last week and I'm really happy with it.")).toContain("The user is really happy with the user's standing desk.");
    expect(contents('I just bought a Kindle Paperwhite. I use it every night before bed.')).toContain(
      "The user uses the user's Kindle Paperwhite every night before bed.",
    );
  });

  it('a pet got with "a" is "she" or "he" as well, and "she\'s called" is a name, not a past', () => {
    expect(contents("We adopted a cat last month. She's called Miso.")).toContain("The user's cat is called Miso.");
    expect(contents("I got a puppy on Sunday. He's a beagle mix.")).toContain("The user's puppy is a beagle mix.");
    expect(contents("My daughter Ava started school. She's named after her grandmother.")).toContain("The user's daughter Ava is named after her grandmother.");
  });

  it('"it" that stands for nothing, or for something one does not own, stays as it is', () => {
    expect(contents('I got a call from my boss. It was about the budget.').join(' ')).not.toMatch(/call (?:is|was) about/);
    expect(contents("I got a new job. It's been hard to adjust.").join(' ')).not.toMatch(/job (?:has|is) been/);
    expect(contents('I got a chance to visit Rome. It was amazing.').join(' ')).not.toMatch(/chance (?:is|was) amazing/i);
    expect(contents('I bought a car. I love it when it rains.').join(' ')).not.toMatch(/the user's car when/);
    expect(contents("I bought a new lamp. It's hard to say if it helps.").join(' ')).not.toMatch(/lamp is hard/);
    expect(contents("I bought a new lamp. It's great.").join(' ')).not.toMatch(/lamp is great/);
    expect(contents("I bought a new smart plug. It's a great way to save energy.").join(' ')).not.toMatch(/plug is a great way/);
    expect(contents("I bought a bunch of spices. It's a Moroccan blend.").join(' ')).not.toMatch(/bunch is/);
  });

  it('a thing is out of reach after one more user message, and never taken by "she", "he" or "they"', () => {
    expect(contents('I bought a kayak.', 'I like tea.', "It's bright yellow.").join(' ')).not.toMatch(/kayak is/);
    expect(contents("I bought a new guitar. She's a great teacher.").join(' ')).not.toMatch(/guitar is a great teacher/);
  });

  it('mentions lists the thing with its words cut at a time or a preposition, and a person is not a thing', () => {
    expect(mentions('I bought a standing desk last week', 0)).toEqual([
      { phrase: 'my standing desk', gender: 'n', plural: false, pet: false, thing: true, message: 0 },
    ]);
    expect(mentions('I got a text from my new boss', 0).map((a) => a.phrase)).toEqual(['my boss']);
  });
});

describe('"the <thing>" and "them" resolved to a thing the user said they got', () => {
  it('a clause that opens with the same words is about the user\'s one, up to two user messages later', () => {
    expect(contents('I also got a new desk last month.', assistant('Nice!'), 'The new desk is from Wayfair, and it fits the room.')).toContain(
      "The user's new desk is from Wayfair, and it fits the room.",
    );
    expect(contents('I bought a rowing machine. The rowing machine arrived in two boxes.')).toContain("The user's rowing machine arrived in two boxes.");
    expect(contents('We adopted a kitten. The kitten is called Pip.')).toContain("The user's kitten is called Pip.");
    // the thing's words as the user wrote them, and a comma after them
    expect(contents('I finally bought a new MacBook Air. The new MacBook Air, sadly, has only 8 GB of memory.')).toContain(
      "The user's new MacBook Air, sadly, has only 8 GB of memory.",
    );
  });

  it('leaves "the" alone when the words differ, the adjective differs or nothing was got', () => {
    expect(contents('I got a new phone. The new season of Severance is out.')).toEqual(['The user got a new phone.']);
    expect(contents('I bought a new lamp. The old lamp went to my sister.').join(' ')).not.toMatch(/user's (?:new|old) lamp went/);
    expect(contents('The new desk is from Wayfair.')).toEqual([]);
    expect(contents('I bought a desk.', 'I like tea.', 'I play chess.', 'The desk wobbles.').join(' ')).not.toMatch(/desk wobbles/);
  });

  it('"them" after keeping or using is the plural thing said before it in the message', () => {
    expect(contents("I need to clean my old boots, I've been keeping them in the garage all winter.")).toContain(
      "The user has been keeping the user's old boots in the garage all winter.",
    );
    expect(mentions('I bought my new headphones', 0)).toEqual([{ phrase: 'my new headphones', gender: 'n', plural: true, pet: false, thing: true, message: 0 }]);
  });

  it('"them" after a plural thing bought with "some" or no article, and after handling it', () => {
    expect(contents("I ordered some house plants. I've been watering them daily.")).toContain(
      "The user has been watering the user's house plants daily.",
    );
    expect(contents('I purchased new headphones, but I returned them.')).toContain("The user returned the user's new headphones.");
    // a singular thing needs its article: "some bread" and "trust" are no things to stand for
    expect(mentions('I bought some bread', 0)).toEqual([]);
    expect(mentions('I built trust with the team', 0)).toEqual([]);
    // people said after the thing may be who "them" is
    expect(contents('I bought new tires and my brothers helped; I thanked them.').join(' ')).not.toMatch(/thanked the user's/);
  });

  it('"it" after a verb of keeping or handling', () => {
    expect(contents('I bought a new kayak. I keep it at the marina.')).toContain("The user keeps the user's new kayak at the marina.");
    expect(contents("I bought an old bike at a flea market, and I've been fixing it every weekend.")).toContain(
      "The user has been fixing the user's old bike every weekend.",
    );
    // "play it" is mostly a game the user plays on the thing they got, not the thing
    expect(contents("I got a new PC. I'm excited to play it.").join(' ')).not.toMatch(/play the user's/);
    // "it" in a turn of phrase stays
    expect(contents("I got my new laptop on Monday. I'll keep it simple.").join(' ')).not.toMatch(/laptop simple/);
    expect(contents('I bought a new bike. I keep it in mind.').join(' ')).not.toMatch(/bike in mind/);
    expect(contents('I bought a new tent. I play it safe.').join(' ')).not.toMatch(/tent safe/);
    expect(contents("I bought a new planner. I'll keep it digital, around $20.").join(' ')).not.toMatch(/planner digital/);
    expect(contents("I switched to a new fertilizer, and I've been using it on all my plants.")).toContain(
      "The user has been using the user's new fertilizer on all the user's plants.",
    );
  });

  it('"they" again after the resolved "them" names the same thing, not what the assistant said', () => {
    const prompt = assistant('What would you like to do about your gear?');
    expect(contents(prompt, 'I bought new hiking boots. I wear them daily, and they pinch my toes.')).toContain(
      "The user wears the user's new hiking boots daily, and they pinch the user's toes.",
    );
    expect(contents(prompt, "I need to sort out my old boots, I've been keeping them in the car trunk, and they're getting mouldy.")).toContain(
      "The user has been keeping the user's old boots in the car trunk, and they're getting mouldy.",
    );
    // nothing resolved: "them" is what the assistant spoke of
    expect(contents(prompt, 'I agree with them.')).toEqual([expect.stringMatching(/^The user agrees with them \(in reply to the assistant/)]);
  });

  it('a thing said before "we" is not who "we" is', () => {
    expect(contents('I bought my new hiking boots last week. We went hiking in the Alps on Sunday.')).toContain(
      'The user and their household went hiking in the Alps on Sunday.',
    );
  });

  it('never a person, and never "it"', () => {
    expect(contents('I got my new sneakers and my parents came over; I showed them the sneakers.').join(' ')).not.toMatch(/showed the user's/);
    expect(contents('I love my new sneakers. My sister borrowed them and I used them.').join(' ')).not.toMatch(/used the user's new sneakers/);
    expect(contents('I bought my new sneakers. I love it.').join(' ')).not.toMatch(/loves the user's new sneakers/);
  });
});
