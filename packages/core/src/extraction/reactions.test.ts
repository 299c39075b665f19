import { describe, expect, it } from 'vitest';
import { extractMemories } from './builtin';
import { isReaction } from './reactions';

describe('isReaction', () => {
  it.each([
    'Wow, that looks awesome!',
    'Oh wow - that garden is so beautiful',
    'That photo of the harbour looks super peaceful.',
    'What an amazing view',
    'How lovely',
    'It must have been scary.',
    "Priya, those mugs are absolutely gorgeous, well done",
    'Congrats on the new role at the clinic!',
    'Thanks for the tips on the bread dough.',
    'Cheers for the support.',
    'for sharing that recipe with me',
    'for the helpful advice',
    'Glad you enjoyed the concert!',
    'Good luck with the exam tomorrow',
    'Aww, they are so cute together',
    'Keep up the great work, Tomas!',
    // wishes for what the other speaker is about to do, and looking forward to the next talk
    'Have a great time in Valencia!',
    'Have a safe trip, see ya',
    'Have fun at the climbing wall with the kids.',
    'Have a blast on tour',
    'Enjoy your trip to the Dolomites',
    'Looking forward to hearing all about it!',
    'Looking forward to the next chat.',
    // with the subject left out, as chat does
    'Must have been magical!',
    'Must be so exciting',
    'Really appreciate your help with the move.',
    'Would love to hear more about it!',
    'Sorry to hear about your knee.',
    'So sorry for your loss',
    "Can't wait to see the pics!",
    // good wishes to the other speaker, and the talk itself
    'Wishing you all the best with the new bakery!',
    'Sending healing vibes to you and the pups.',
    'Sending hugs',
    'Hope all is well with the twins.',
    "Hope you're feeling better after the surgery",
    'Hope your knee heals quickly',
    'Glad to help, Ines.',
    'Great chatting with you as always.',
    'Nice to talk again.',
    'Great to hear it!',
    // what is thanked for, once "Thanks" went as an opener
    'for always being there for me',
    'for letting me help, Maria.',
    'for believing in me!',
    'for the offer, Dave.',
  ])('%s', (clause) => {
    expect(isReaction(clause)).toBe(true);
  });

  it.each([
    // news, plans and opinions with a subject of their own
    'Glad to be home after three weeks in Chile.',
    'Hoping to move to Porto in June.',
    'My sister got a job at the bakery.',
    'That bakery on Elm Street closes at six on Sundays.',
    "It's amazing how much calmer the dog is since we started walking her twice a day",
    'The hike was tough but the lake at the top was worth it.',
    'Gardening really does help me forget about work.',
    'Tomas and Inés are moving to Lisbon next spring.',
    'Cool, the band is playing in Leeds next Friday with two new songs on the set list.',
    "That's awful, my car broke down.",
    'For the past year, my sister has been teaching in Osaka.',
    'Thanks to my brother, the shop opened on time.',
    'That sounds tough - my dog got sick too',
    // the speaker's own plans and advice with a subject of its own
    'Looking forward to my sister\'s wedding in Cork next month.',
    'Have a look at the roof tiles before you buy that house.',
    'Must feel great to finally own a workshop where you can build the boat you designed for years.',
    'Would love to see the old mill in Ronda one day.',
    // encouragement and advice: what one friend advises another is asked about
    'Keep at it and never forget your dreams!',
    "Don't give up, the second draft will be better",
    'Keeping bees is harder than it looks.',
    'Kept the old piano from my grandmother in the hall.',
    // a hope for the speaker's own people, something sent that is a thing, and talking about a thing
    'Hope my brother gets the apprenticeship in Graz.',
    'Sending the recipe now, it uses lots of ginger.',
    'Talking to my landlord about the leak tomorrow.',
    'to talk again about the lease next week',
    // a topic, and news after the thanks
    'For hiking, boots with ankle support are best.',
    "for asking, they're good - we got another cat named Bailey too",
  ])('%s', (clause) => {
    expect(isReaction(clause)).toBe(false);
  });
});

describe('a named speaker\'s reactions in extraction', () => {
  it('keeps the news and what the other speaker adds to it, not the reactions', () => {
    const r = extractMemories({
      messages: [
        { role: 'user', name: 'Priya', content: 'I finally finished the blue glaze mugs for the market. Here is a photo.' },
        { role: 'user', name: 'Tomas', content: 'Wow, those mugs are so gorgeous! Congrats on finishing them. My cousin Ana sells pottery in Leeds.' },
      ],
      observedAt: new Date('2024-05-01T12:00:00Z'),
    });
    const contents = r.memories.map((m) => m.content);
    expect(contents.some((c) => c.startsWith('Priya finally finished the blue glaze mugs'))).toBe(true);
    expect(contents.some((c) => c.includes('Ana sells pottery in Leeds'))).toBe(true);
    expect(contents.filter((c) => /gorgeous|congrats/i.test(c))).toEqual([]);
    expect(r.metadata.skipped.reaction).toBe(2);
  });
});

describe('greetings and goodbyes to the other speaker', () => {
  const extract = (name: string, content: string) =>
    extractMemories({
      messages: [
        { role: 'user', name: 'Priya', content: 'Hey Tomas, how have you been?' },
        { role: 'user', name, content },
      ],
      observedAt: new Date('2024-05-01T12:00:00Z'),
    }).memories.map((m) => m.content);

  it.each(['Long time no talk!', 'So good to hear from you again.', 'Have a lovely weekend!', 'Take care and talk soon.', 'It is great to catch up with you too', 'Been ages since we last talked!', "It's been a few weeks."])(
    '"%s" alone is no memory',
    (content) => {
      expect(extract('Tomas', content)).toEqual([]);
    },
  );

  it.each(['I totally get it, Priya.', "I couldn't agree more!", "I'm always here for you.", "I'll keep you posted!", 'I have to go, bye.', 'I can tell.'])(
    'the acknowledgement "%s" is no memory',
    (content) => {
      expect(extract('Tomas', content)).toEqual([]);
    },
  );

  it('an acknowledgement that goes on to say something is kept', () => {
    expect(extract('Tomas', "I'm here for the regatta until Sunday.")).toEqual([expect.stringMatching(/^Tomas is here for the regatta\b/)]);
    expect(extract('Tomas', 'I get that people hate the new bus route.')).toEqual([expect.stringMatching(/^Tomas gets that people hate the new bus route\b/)]);
  });

  it('a statement after a greeting is the speaker\'s own, without the greeting', () => {
    const contents = extract('Tomas', 'Long time no chat - I adopted a greyhound from the shelter in Kendal last week.');
    expect(contents).toHaveLength(1);
    expect(contents[0]).toMatch(/^Tomas adopted a greyhound from the shelter in Kendal the week before 1 May 2024\b/);
  });

  it.each(['Take a look at this!', 'Check it out.', 'By the way, check this out!', 'Here you go', 'Look at this one!', 'Take a look at this photo', 'Just look at the result!', 'Take a look at the photo.', 'Check out this creation', "Here's a pic, take a look", 'Here is one example.'])(
    'the bare pointer "%s" is no memory',
    (content) => {
      expect(extract('Tomas', content)).toEqual([]);
    },
  );

  it('a statement after a pointer is the speaker\'s own, without the pointer', () => {
    const contents = extract('Tomas', 'Check it out - I repainted the garden shed in sage green last weekend.');
    expect(contents).toHaveLength(1);
    expect(contents[0]).toMatch(/^Tomas repainted the garden shed in sage green\b/);
  });

  it('a statement after a pointer to a photo is the speaker\'s own, without the pointer', () => {
    const contents = extract('Tomas', 'Take a look at this picture, the harbour in Vigo was packed with boats.');
    expect(contents).toHaveLength(1);
    expect(contents[0]).not.toMatch(/look/i);
    expect(contents[0]).toMatch(/harbour in Vigo was packed with boats/);
  });

  it('a pointer that says what is shown stays', () => {
    expect(extract('Tomas', 'Check out this pic of the sage green garden shed my brother Luis built.')).toHaveLength(1);
    expect(extract('Tomas', "Here's a photo I took of the harbour in Vigo.")).toHaveLength(1);
    expect(extract('Tomas', 'Look at the sunset over the estuary in Aveiro!')).toHaveLength(1);
  });

  it('"take care of", "have a good time at" and "it\'s been a while since I …" say something', () => {
    expect(extract('Tomas', 'I take care of my grandmother on weekends.')).toHaveLength(1);
    expect(extract('Tomas', "It's been a while since I went skiing in Andorra.")).toHaveLength(1);
    expect(extract('Tomas', 'Have a good look at the roof tiles before you buy that house.')).toHaveLength(1);
  });
});
