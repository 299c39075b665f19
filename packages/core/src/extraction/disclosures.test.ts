import { describe, expect, it } from 'vitest';
import { LEADING_TOPIC, companionFirst, embeddedStatements, questionSpeaksOfUser } from './disclosures';
import { extractAt, itExtracts } from './test-helpers';

// Sunday, 21 May 2023
const observedAt = new Date('2023-05-21T19:50:00Z');
const { run, contents } = extractAt(observedAt);

describe('openers do not hide a self-disclosure', () => {
  itExtracts(
    [
      ['By the way, speaking of gardening, I planted 12 tomato seedlings last weekend.', 'The user planted 12 tomato seedlings the weekend before 21 May 2023.'],
      ['Oh, and I adopted a rescue greyhound named Biscuit.', 'The user adopted a rescue greyhound named Biscuit.'],
      ['Also, my son started violin lessons.', "The user's son started violin lessons."],
      ['Actually, I switched to a standing desk.', 'The user switched to a standing desk.'],
      ['Besides hiking, I also enjoy bouldering.', 'Besides hiking, the user also enjoys bouldering.'],
      ['Wait, to correct myself, I need 125 points for the next tier, not 400.', 'The user needs 125 points for the next tier, not 400.'],
      ['Talking about coffee, my favourite roaster is a tiny shop in Leeds.', "The user's favourite roaster is a tiny shop in Leeds."],
      ['I just remembered that I left my umbrella on the tram last Tuesday.', "The user left the user's umbrella on the tram on Tuesday, 16 May 2023."],
      ['Not gonna lie, I still sleep with a night light.', 'The user still sleeps with a night light.'],
      ["Just wanted to give you the heads up on the move - I signed the lease in Ghent.", 'The user signed the lease in Ghent.'],
      ["Wanted to let you know that I'm running for the council again.", 'The user is running for the council again.'],
      ["You won't believe it - I got picked for the regional choir!", 'The user got picked for the regional choir.'],
      ['For example, I keep a bullet journal for my night shifts.', 'The user keeps a bullet journal for the user\'s night shifts.'],
      // "now" before the "I" goes behind it
      ['Now I coach the under-12 football team on Saturdays.', 'The user now coaches the under-12 football team on Saturdays.'],
      ["Now, I'm saving for a trip to Patagonia.", 'The user is now saving for a trip to Patagonia.'],
      ['Now I can finally swim a whole length underwater.', 'The user can now finally swim a whole length underwater.'],
      ["Now I think I'll sign up for the spring half marathon.", 'The user will now sign up for the spring half marathon.'],
    ],
    observedAt,
  );

  itExtracts(
    [
      ['In March, I visited my grandmother in Ohio.', "In March, the user visited the user's grandmother in Ohio."],
      ['During my trip to Kyoto, I bought a hand-thrown tea set.', "During the user's trip to Kyoto, the user bought a hand-thrown tea set."],
      ['When I was a kid I lived in Goa.', 'When the user was a kid, the user lived in Goa.'],
      ['Since October I work night shifts at the depot.', 'Since October, the user works night shifts at the depot.'],
      ['After the wedding, we moved into a flat above a bakery.', 'After the wedding, the user and their household moved into a flat above a bakery.'],
      // two comma pieces are one scene
      [
        'During my last visit to Oslo, where I met an old classmate, I realised how much I miss snow.',
        "During the user's last visit to Oslo, where the user met an old classmate, the user realised how much the user misses snow.",
    ],
    ],
    observedAt,
    'keeps a scene-setting opening in front: %s',
  );

  itExtracts(
    [
      ['Before that I had also asked my pharmacist, who suggested an antihistamine.', "Before that, the user had also asked the user's pharmacist, who suggested an antihistamine."],
      ['Since then I have been cycling to work every day.', 'Since then, the user has been cycling to work every day.'],
      ['Two days later I got the offer from the bakery.', 'Two days later, the user got the offer from the bakery.'],
      ['The next day I called the landlord about the boiler.', 'The next day, the user called the landlord about the boiler.'],
      ['Then my sister moved to Porto.', "Then, the user's sister moved to Porto."],
      ['At first I hated running in the rain.', 'At first, the user hated running in the rain.'],
      ['Eventually I switched to decaf.', 'Eventually, the user switched to decaf.'],
    ],
    observedAt,
    'keeps where a story goes next in front, without a comma too: %s',
  );

  it('reads such an opening only before a first-person subject', () => {
    expect(contents('Then they left the party early.')).toEqual([]);
    expect(contents('Later that day the bakery closed.')).toEqual([]);
  });

  itExtracts(
    [
      ['Great news: I have finished nine short stories in total.', 'The user has finished nine short stories in total.'],
      ['Good news, I got the job at the bakery!', 'The user got the job at the bakery.'],
      ['Big news - we adopted a rescue dog named Biscuit.', 'The user and their household adopted a rescue dog named Biscuit.'],
      ['Exciting update: my daughter started kindergarten this week.', "The user's daughter started kindergarten the week of 21 May 2023."],
      ['Some news: I moved to Porto last month.', 'The user moved to Porto in April 2023.'],
      ['Update: I switched to a standing desk.', 'The user switched to a standing desk.'],
      ['The good news is that my visa was approved.', "The user's visa was approved."],
    ],
    observedAt,
    'drops news announced before the statement: %s',
  );

  it('keeps "news" and "update" that do not announce a first-person statement', () => {
    const opener = (text: string) => text.slice(0, text.length - text.replace(LEADING_TOPIC, '').length);
    expect(opener('Great news: I got the job.')).toBe('Great news: ');
    expect(opener('The good news is that my visa was approved.')).toBe('The good news is that ');
    // a verb, a request, news about someone else, or nothing first-person after it: not an opener
    expect(opener('Update my address to 14 Rua Augusta, please.')).toBe('');
    expect(opener('Good news for my sister: she got into medical school.')).toBe('');
    expect(opener('Big news: the bakery on our street closed.')).toBe('');
    expect(opener('News travels fast in my village.')).toBe('');
    expect(contents('I update my budget spreadsheet every Sunday.')).toEqual(["The user updates the user's budget spreadsheet every Sunday."]);
  });

  it('a conditional opening makes the statement hedged', () => {
    const r = run('If I eat gluten, I get terrible cramps.');
    expect(r.memories.map((m) => [m.content, m.confidence])).toEqual([['If the user eats gluten, the user gets terrible cramps.', 0.5]]);
  });

  it('a subject that names something of the user\'s is kept', () => {
    expect(contents('The bike I ordered is a gravel bike with a steel frame.')).toEqual(['The bike the user ordered is a gravel bike with a steel frame.']);
  });

  it('an event in a time-led sentence is an event', () => {
    const r = run('Last Saturday I ran my first half marathon.');
    expect(r.memories.map((m) => m.category)).toEqual(['event']);
  });
});

describe('questions and requests keep what they say about the user', () => {
  it('the statement before a dash, a colon or "but is it" is kept', () => {
    expect(contents("I'm considering upgrading from a Stratocaster to a Les Paul - what are the differences?")).toEqual([
      'The user is considering upgrading from a Stratocaster to a Les Paul.',
    ]);
    expect(contents("I'm thinking of getting a second cat but is it fair on my first one?")).toEqual([
      'The user is thinking of getting a second cat.',
    ]);
    expect(contents("I'm hosting 14 people for Thanksgiving and was wondering how big a turkey to buy?")).toEqual([
      'The user is hosting 14 people for Thanksgiving.',
    ]);
  });

  it('a constraint after the question is kept', () => {
    expect(contents("Can you suggest some dinner recipes? I'm vegetarian.")).toEqual(['The user is vegetarian.']);
  });

  it('a reason inside the question is kept', () => {
    expect(contents("Can you suggest some dinner recipes since I'm allergic to sesame?")).toEqual(['The user is allergic to sesame.']);
    expect(contents('Skip the basics, as I work as a radiographer.')).toEqual(['The user works as a radiographer.']);
  });

  it('a reason inside a request said as wondering is kept', () => {
    expect(contents("I'm wondering if you could suggest a carry-on bag, since I'm flying with a budget airline to Riga.")).toEqual([
      'The user is flying with a budget airline to Riga.',
    ]);
    expect(contents('I was wondering whether you know a quiet campsite, because my son gets anxious in crowds.')).toEqual([
      "The user's son gets anxious in crowds.",
    ]);
    // a passing state with a reason of its own is not a request
    expect(contents("I'm exhausted today because I barely slept.")).toEqual([]);
  });

  it('a role stated before a question is kept', () => {
    expect(contents('As a nurse on night shifts, how can I sleep better during the day?')).toEqual(['The user is a nurse on night shifts.']);
    expect(contents("As someone who can't stand crowds, which Lisbon neighbourhoods would you pick?")).toEqual([
      "The user is someone who can't stand crowds.",
    ]);
  });

  itExtracts(
    [
      // "… for someone like me" and "my <relation> who …"
      ['What boots would you recommend for a beginner like me?', 'The user is a beginner.'],
      ["What's a good birthday gift for my sister who loves rock climbing?", "The user's sister loves rock climbing."],
      // a reminder in question form is a statement
      ['Remember when I adopted two kittens from the shelter?', 'The user adopted two kittens from the shelter.'],
      // … also where it ends a longer sentence, after a dash or a comma
      [
        "I can't wait to start the new job, it's been a long search - remember when I got the offer of $95,000 from Acme?",
        'The user got the offer of $95,000 from Acme.',
      ],
      ["It's been a busy spring, remember how I signed up for 3 pottery classes?", 'The user signed up for 3 pottery classes.'],
    ],
    observedAt,
  );

  it('any other question about the user\'s own things is kept as what the user asked', () => {
    const r = run('How often should I water my new fiddle-leaf fig?');
    expect(r.memories.map((m) => [m.content, m.importance])).toEqual([["The user asked: how often should the user water the user's new fiddle-leaf fig?", 0.4]]);
    expect(contents('I was wondering if you could recommend a lens for my old Pentax camera?')).toEqual([
      "The user asked: could you recommend a lens for the user's old Pentax camera?",
    ]);
  });

  it('questions that say nothing about the user are still skipped', () => {
    const r = run(
      'What is the boiling point of water at altitude?',
      'Can you help me with my question?',
      'How do I convert Celsius to Fahrenheit?',
      'How has astronomy changed our understanding of time?',
    );
    expect(r.memories).toEqual([]);
    expect(r.metadata.skipped.question).toBe(4);
  });
});

describe('disclosures.ts helpers', () => {
  it('embeddedStatements', () => {
    expect(embeddedStatements('Any tips for a first-time runner like me?')).toEqual(['I am a first-time runner']);
    expect(embeddedStatements('Which tent should I buy because my kids want to camp?')).toEqual(['my kids want to camp']);
    expect(embeddedStatements('As I mentioned, what time is it in Tokyo?')).toEqual([]);
    // mid-sentence only "remember"/"recall": "…, know how I …" is a request more often than a reminder
    expect(embeddedStatements('Could you explain, you know how I always mix up the tenses?')).toEqual([]);
    expect(embeddedStatements('Thanks - do you recall that my brother is a pilot?')).toEqual(['my brother is a pilot']);
  });

  it('questionSpeaksOfUser', () => {
    expect(questionSpeaksOfUser('Can you check my essay?')).toBe(false);
    expect(questionSpeaksOfUser('Should I repaint my kitchen?')).toBe(true);
    expect(questionSpeaksOfUser('Do I have to renew a passport?')).toBe(false);
    expect(questionSpeaksOfUser("What should I do since I'm new to chess?")).toBe(true);
  });
});

describe('a companion named before "I" keeps the user as a subject', () => {
  itExtracts(
    [
      ['Noor and I split up in April.', 'The user and Noor split up in April.'],
      ['Last weekend, Tobias and I repainted the kitchen.', 'The weekend before 21 May 2023, the user and Tobias repainted the kitchen.'],
    ],
    observedAt,
  );

  it('reads the companion first only where the clause starts, and leaves other uses of "and I" alone', () => {
    expect(companionFirst('Later, Ines Duarte and I shared a flat.')).toBe('Later, me and Ines Duarte shared a flat.');
    // "my brother and I" was read whole before: left to that rule
    expect(companionFirst('My brother and I opened a bike shop.')).toBe('My brother and I opened a bike shop.');
    expect(companionFirst('Then Noor and I left.')).toBe('Then Noor and I left.');
    expect(companionFirst("Noor and I've been friends for years.")).toBe("Noor and I've been friends for years.");
    expect(companionFirst('I cooked and I cleaned.')).toBe('I cooked and I cleaned.');
    expect(companionFirst('Between you and I, it was hard.')).toBe('Between you and I, it was hard.');
  });
});
