import { describe, expect, it } from 'vitest';
import type { ConversationMessage } from '../messages';
import { detectClaim } from '../conflicts/claims';
import { BuiltinExtractor, extractMemories } from './builtin';
import type { ExtractionResult } from './types';

const observedAt = new Date('2024-05-01T12:00:00Z');

function run(...messages: Array<string | ConversationMessage>): ExtractionResult {
  return extractMemories({
    messages: messages.map((m) => (typeof m === 'string' ? { role: 'user', content: m } : m)),
    observedAt,
  });
}

function contents(r: ExtractionResult): string[] {
  return r.memories.map((m) => m.content);
}

function one(text: string) {
  const r = run(text);
  expect(r.memories).toHaveLength(1);
  return r.memories[0];
}

describe('extractMemories: canonical examples', () => {
  it('splits compound sentences and keeps the training goal whole', () => {
    const r = run("I'm a vegetarian and I live in Lisbon. I'm training for a marathon in April.");
    expect(r.memories.map((m) => [m.content, m.category])).toEqual([
      ['The user is a vegetarian.', 'fact'],
      ['The user lives in Lisbon.', 'fact'],
      ['The user is training for a marathon in April.', 'goal'],
    ]);
    expect(r.memories.every((m) => m.messageIndices.join() === '0')).toBe(true);
    expect(r.metadata.sentences_considered).toBe(2);
  });

  it('extracts one memory per self-disclosing sentence', () => {
    const r = run('I live in Berlin. I love jazz. I have a dog named Rex. I want to learn Japanese.');
    expect(contents(r)).toEqual([
      'The user lives in Berlin.',
      'The user loves jazz.',
      'The user has a dog named Rex.',
      'The user wants to learn Japanese.',
    ]);
    expect(r.memories.map((m) => m.category)).toEqual(['fact', 'preference', 'fact', 'goal']);
  });

  it('skips clauses containing redacted secrets', () => {
    const r = run('My card number is [REDACTED:card_number]. I live in Porto.');
    expect(contents(r)).toEqual(['The user lives in Porto.']);
    expect(r.metadata.skipped.redacted_secret).toBe(1);
  });

  it('keeps a job statement as a fact', () => {
    const m = one('I work as a nurse in Porto.');
    expect(m.content).toBe('The user works as a nurse in Porto.');
    expect(m.category).toBe('fact');
    expect(m.importance).toBeGreaterThanOrEqual(0.75);
  });

  it('has → relationship for children', () => {
    const m = one('I have two kids.');
    expect(m.content).toBe('The user has two kids.');
    expect(m.category).toBe('relationship');
  });
});

describe('extractMemories: third-person rewriting', () => {
  const cases: Array<[string, string]> = [
    ["I'm a vegetarian", 'The user is a vegetarian.'],
    ['I live in Lisbon', 'The user lives in Lisbon.'],
    ["I've been coding in Rust for 5 years", 'The user has been coding in Rust for 5 years.'],
    ['I was born in 1990', 'The user was born in 1990.'],
    ['I love hiking', 'The user loves hiking.'],
    ["I don't eat meat", 'The user does not eat meat.'],
    ["I can't stand cilantro", 'The user cannot stand cilantro.'],
    ['I usually run at 6am', 'The user usually runs at 6am.'],
    ["I'm not a morning person", 'The user is not a morning person.'],
    ['My sister Ana lives in Porto', "The user's sister Ana lives in Porto."],
    ["My dog's name is Rex", "The user's dog's name is Rex."],
    ["I'll be moving to Berlin next year", 'The user will be moving to Berlin in 2025.'],
    ['i live in berlin now', 'The user lives in berlin now.'],
    ['im allergic to peanuts', 'The user is allergic to peanuts.'],
    ["I'd love to visit Japan", 'The user would love to visit Japan.'],
    ['I watch documentaries', 'The user watches documentaries.'],
    ['I study law at university', 'The user studies law at university.'],
    ['I go climbing with my brother', "The user goes climbing with the user's brother."],
    ['My wife says I snore', "The user's wife says the user snores."],
    ['I taught myself to play guitar', 'The user taught themselves to play guitar.'],
    ['I always keep my keys in a bowl by the door', "The user always keeps the user's keys in a bowl by the door."],
    ["I didn't finish college", 'The user did not finish college.'],
    ["I won't eat seafood", 'The user will not eat seafood.'],
  ];
  it.each(cases)('%s', (input, expected) => {
    expect(one(input).content).toBe(expected);
  });
});

describe('extractMemories: categories', () => {
  const cases: Array<[string, string]> = [
    ['I love hiking in the mountains', 'preference'],
    ["I really don't like spicy food", 'preference'],
    ["I'm a huge fan of jazz", 'preference'],
    ['My favourite band is Radiohead', 'preference'],
    ['I want to learn Japanese', 'goal'],
    ["I'm saving for a house", 'goal'],
    ['I have 10 years of experience in Python', 'expertise'],
    ["I've been coding in Rust for 5 years", 'expertise'],
    ['I speak Portuguese and Spanish', 'expertise'],
    ["I'm good at statistics", 'expertise'],
    ['My husband works at a bank', 'relationship'],
    ['I live with my girlfriend', 'relationship'],
    ["I'm married", 'relationship'],
    ['I usually run at 6am', 'procedure'],
    ['I meditate every morning', 'procedure'],
    ['I got married in 2019', 'event'],
    ['I moved to Berlin last year', 'event'],
    ['I ran a half marathon last week', 'event'],
    ['I was born in 1990', 'fact'],
    ['I have a cat named Luna', 'fact'],
  ];
  it.each(cases)('%s → %s', (input, category) => {
    expect(one(input).category).toBe(category);
  });
});

describe('extractMemories: skipping', () => {
  it('greetings only → no memories, counted as small talk', () => {
    const r = run('Hi!', 'Thanks so much :)', 'ok cool, bye');
    expect(r.memories).toHaveLength(0);
    expect(r.metadata.skipped.small_talk).toBeGreaterThan(0);
  });

  it('skips questions and requests', () => {
    const r = run('Can you help me write an email?', 'What is the capital of France?', 'Tell me a joke', 'Do I need a visa?');
    expect(r.memories).toHaveLength(0);
    expect(r.metadata.skipped.question).toBe(4);
  });

  it('keeps the self-disclosure next to a question', () => {
    const r = run("I'm vegetarian. What should I cook tonight?");
    expect(contents(r)).toEqual(['The user is vegetarian.']);
    expect(r.memories[0].category).toBe('fact');
    expect(r.metadata.skipped.question).toBe(1);
  });

  it('keeps the self-disclosure before a comma question', () => {
    expect(contents(run("I'm lactose intolerant, what can I have for dessert?"))).toEqual([
      'The user is lactose intolerant.',
    ]);
  });

  it('ignores assistant and system turns', () => {
    const r = run(
      { role: 'system', content: 'I am a helpful assistant.' },
      { role: 'assistant', content: 'I live in Paris.' },
    );
    expect(r.memories).toHaveLength(0);
    expect(r.metadata.skipped.assistant_turn).toBe(1);
    expect(r.metadata.skipped.system_turn).toBe(1);
  });

  it('skips transient states', () => {
    const r = run(
      "I'm so tired today.",
      "I'm at the store.",
      "I'm on my way.",
      "I'm hungry right now.",
      'I feel sick this morning.',
    );
    expect(r.memories).toHaveLength(0);
    expect(r.metadata.skipped.transient).toBe(5);
  });

  it('keeps "currently" as durable, dated by the conversation', () => {
    expect(contents(run('I currently live in Madrid.'))).toEqual(['The user currently lives in Madrid (as of 1 May 2024).']);
  });

  it('skips sentences without a first-person subject and very short ones', () => {
    const r = run('The weather in Lisbon is lovely.', 'I cook.');
    expect(r.memories).toHaveLength(0);
    expect(r.metadata.skipped.no_self_reference).toBe(1);
    expect(r.metadata.skipped.too_short).toBe(1);
  });
});

describe('extractMemories: harder inputs', () => {
  it('handles curly apostrophes and comma splices', () => {
    expect(contents(run('I’m 34, I live in Lisbon and I work as a nurse.'))).toEqual([
      'The user is 34.',
      'The user lives in Lisbon.',
      'The user works as a nurse.',
    ]);
  });

  it('does not split "my wife and I"', () => {
    const m = one('My wife and I live in Porto.');
    expect(m.content).toBe("The user's wife and the user live in Porto.");
    expect(m.category).toBe('relationship');
  });

  it('strips leading greetings and discourse markers', () => {
    expect(contents(run("Hey there, I'm Ana and I'm a teacher."))).toEqual(['The user is Ana.', 'The user is a teacher.']);
    expect(contents(run('Actually, I moved to Porto two years ago.'))).toEqual(['The user moved to Porto in 2022.']);
  });

  it('keeps durable feelings but drops momentary moods', () => {
    expect(contents(run('I feel anxious in crowds.', "I'm so bored lol"))).toEqual(['The user feels anxious in crowds.']);
  });

  it('keeps a subordinate opening in front instead of mistaking it for a question', () => {
    const r = run('When I travel, I always bring my camera.');
    expect(contents(r)).toEqual(["When the user travels, the user always brings the user's camera."]);
    expect(r.memories[0].category).toBe('procedure');
    expect(r.metadata.skipped.question).toBeUndefined();
  });

  it('skips statements addressed to the assistant and requests', () => {
    const r = run('I told you I am vegan.', 'I need help with my essay.', "I'd like a coffee.");
    expect(r.memories).toHaveLength(0);
    expect(r.metadata.skipped.addressed_to_assistant).toBe(1);
    expect(r.metadata.skipped.question).toBe(2);
  });
});

describe('extractMemories: confidence, importance and negation', () => {
  it('hedged statements get low confidence', () => {
    const a = one('I think I might be allergic to cats.');
    expect(a.confidence).toBeLessThan(0.7);
    const b = one("Maybe I'll move to Canada.");
    expect(b.confidence).toBeLessThan(0.7);
    expect(one('I live in Canada.').confidence).toBeGreaterThanOrEqual(0.9);
  });

  it('keeps negation', () => {
    const m = one("I don't drink alcohol.");
    expect(m.content).toBe('The user does not drink alcohol.');
    expect(m.category).toBe('fact');
  });

  it('ranks health above preferences', () => {
    const allergy = one("I'm allergic to peanuts.");
    const pref = one('I like jazz.');
    expect(allergy.importance).toBeGreaterThanOrEqual(0.85);
    expect(pref.importance).toBeCloseTo(0.55);
    expect(one('I want to run a marathon.').importance).toBeCloseTo(0.7);
  });

  it('relationships', () => {
    const r = run('My sister Ana lives in Porto. My boss is very demanding.');
    expect(r.memories.map((m) => [m.content, m.category])).toEqual([
      ["The user's sister Ana lives in Porto.", 'relationship'],
      ["The user's boss is very demanding.", 'relationship'],
    ]);
  });
});

describe('extractMemories: indices, dedupe, metadata', () => {
  it('uses indices of the whole messages array', () => {
    const r = run(
      { role: 'system', content: 'Be nice.' },
      { role: 'user', content: 'Hello!' },
      { role: 'assistant', content: 'Hi, how can I help?' },
      { role: 'user', content: 'I have a dog named Rex.' },
      { role: 'assistant', content: 'Nice!' },
      { role: 'user', content: 'I work as a teacher.' },
    );
    expect(r.memories.map((m) => [m.content, m.messageIndices])).toEqual([
      ['The user has a dog named Rex.', [3]],
      ['The user works as a teacher.', [5]],
    ]);
  });

  it('deduplicates identical statements and merges indices', () => {
    const r = run(
      'I live in Berlin.',
      { role: 'assistant', content: 'Great city!' },
      'Like I said, I live in Berlin. I live in Berlin!',
    );
    expect(r.memories).toHaveLength(1);
    expect(r.memories[0].messageIndices).toEqual([0, 2]);
  });

  it('reports metadata', () => {
    const r = run('Hi! I live in Berlin.');
    expect(r.metadata).toEqual({
      provider: 'builtin',
      sentences_considered: 2,
      skipped: { small_talk: 1 },
      compositional_pass_attempted: false,
      compositional_pass_used: false,
      compositional_entities: 0,
      compositional_relationships: 0,
      compositional_error: null,
    });
  });

  it('provider wraps extractMemories', async () => {
    const p = new BuiltinExtractor();
    expect(p.name).toBe('builtin');
    const r = await p.extract({ messages: [{ role: 'user', content: 'I love jazz.' }], observedAt });
    expect(contents(r)).toEqual(['The user loves jazz.']);
  });
});

describe('extractMemories: what later questions need', () => {
  const at = new Date('2023-05-08T13:56:00Z');
  const talk = (...turns: [string, string][]) =>
    extractMemories({ messages: turns.map(([name, content]) => ({ role: 'user' as const, name, content })), observedAt: at });

  it('resolves relative time against the conversation date', () => {
    expect(contents(run('I went to a support group yesterday.'))).toEqual(['The user went to a support group on 30 April 2024.']);
    expect(contents(talk(['Caroline', 'I went to a LGBTQ support group yesterday and it was so powerful.']))).toEqual([
      'Caroline went to a LGBTQ support group on 7 May 2023 and it was so powerful.',
    ]);
    expect(contents(talk(['Caroline', 'Last weekend I joined a mentorship program for LGBTQ youth.']))).toEqual([
      'The weekend before 8 May 2023, Caroline joined a mentorship program for LGBTQ youth.',
    ]);
  });

  it('attributes statements to a named speaker and "you" to the other speaker', () => {
    const r = talk(['Melanie', 'How was the race?'], ['Caroline', 'I ran a charity race for mental health. Your painting inspired me!']);
    expect(contents(r)).toEqual([
      'Caroline ran a charity race for mental health (in reply to Melanie: "How was the race?"; about the race).',
      'Caroline said that Melanie\'s painting inspired Caroline (in reply to Melanie: "How was the race?"; about the race).',
    ]);
    // each answer quotes the question, so it cites the question's message too
    expect(r.memories.every((m) => m.messageIndices.join() === '0,1')).toBe(true);
  });

  it("keeps facts a named speaker states about others and events, and skips chatter", () => {
    const r = talk(['Gina', 'Thanks! We just did a contemporary piece called "Finding Freedom." Wow!']);
    expect(contents(r)).toEqual(['Gina said that we just did a contemporary piece called "Finding Freedom."']);
    expect(r.metadata.skipped.small_talk).toBe(2);
  });

  it('keeps facts the user states about named people', () => {
    expect(contents(run('Tom got promoted last week.', 'The weather is lovely.'))).toEqual([
      'The user said that Tom got promoted the week before 1 May 2024.',
    ]);
  });

  it('turns a shared photo caption into a memory of that message', () => {
    const r = talk(['Melanie', 'Take a look at this. [shares a photo: a photo of a painting of a sunset over a lake]']);
    expect(contents(r)).toContain('Melanie shared a photo of a painting of a sunset over a lake.');
    expect(r.memories.find((m) => m.content.includes('photo'))?.messageIndices).toEqual([0]);
  });

  it('adds what a reply refers back to', () => {
    const r = talk(['Melanie', "That's a great painting for the art show! What inspired it?"], ['Caroline', 'I painted this after I visited a LGBTQ center.']);
    expect(contents(r)).toContain(
      'Caroline painted this after Caroline visited a LGBTQ center (in reply to Melanie: "What inspired it?"; about a great painting, the art show).',
    );
    expect(contents(r)).toContain("Melanie said that that's a great painting for the art show.");
    // an answer carries the question it answers
    expect(contents(talk(['Melanie', 'How was the race?'], ['Caroline', 'I ran a charity race for mental health.']))).toEqual([
      'Caroline ran a charity race for mental health (in reply to Melanie: "How was the race?"; about the race).',
    ]);
    // a statement that stands on its own after a statement gets no context
    expect(contents(talk(['Melanie', 'I love the beach.'], ['Caroline', 'I ran a charity race for mental health.']))).toContain(
      'Caroline ran a charity race for mental health.',
    );
  });

  it('reads "there is" and a "that" that opens a clause as no reference back to the assistant', () => {
    const prompt: ConversationMessage = { role: 'assistant', content: 'Guitar pedals are a fun way to shape your sound. What kind of music do you play?' };
    const reply = (text: string) => contents(run(prompt, text));
    expect(reply('I have heard that there are some great boutique pedal makers in Austin.')).toEqual([
      'The user has heard that there are some great boutique pedal makers in Austin.',
    ]);
    expect(reply("I'm saving so that I can buy a fuzz pedal.")).toEqual(['The user is saving so that the user can buy a fuzz pedal.']);
    // a place or a thing the reply points back at still takes the assistant's message with it
    expect(reply('I went there last year with my sister.')[0]).toMatch(/^The user went there in 2023 with the user's sister \(in reply to the assistant: "What kind of music do you play\?"/);
    // so does a "that" at the end or in "that's": it is what the assistant said
    for (const text of ['I bought it last week.', 'I have actually read about that.', 'My brother always says that.', "I think that's the sound I want for my band."])
      expect(reply(text)[0], text).toMatch(/\(in reply to the assistant: /);
  });

  it('splits compound statements of a named speaker', () => {
    expect(contents(talk(['Jon', "I'm a vegetarian and I live in Lisbon."]))).toEqual(['Jon is a vegetarian.', 'Jon lives in Lisbon.']);
  });
});

describe('extractMemories: a move is the current residence', () => {
  it('"actually I moved to Porto" is a residence claim that can replace "lives in Lisbon"', () => {
    const lisbon = run('I live in Lisbon.').memories[0];
    const porto = run('actually I moved to Porto').memories[0];
    expect(porto.content).toBe('The user moved to Porto.');
    expect(detectClaim(lisbon.content)).toMatchObject({ subject: 'residence', value: 'lisbon' });
    expect(detectClaim(porto.content)).toMatchObject({ subject: 'residence', value: 'porto' });
  });

  it('with its time, a recent move is still the residence; a planned one is not', () => {
    const moved = run('I just moved to Porto two weeks ago.').memories[0];
    expect(moved.content).toBe('The user just moved to Porto around 17 April 2024.');
    expect(detectClaim(moved.content)).toMatchObject({ subject: 'residence', value: 'porto' });
    expect(detectClaim(run("I'm moving to Porto next month.").memories[0].content)).toBeNull();
  });
});
