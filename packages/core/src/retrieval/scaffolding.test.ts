import { describe, expect, it } from 'vitest';
import { PASSAGE_CATEGORY, buildIndex, rankLayers } from './score';
import { asksForAdvice, withoutRequestWording } from './scaffolding';

describe('withoutRequestWording', () => {
  it.each([
    ["I'm heading to Vilnius next month. Any tips on what to see?", "I'm heading to Vilnius next month. on what to see?"],
    ['Could you recommend some board games for a rainy weekend?', 'board games for a rainy weekend?'],
    ['Can you give me some tips on repotting a cactus?', 'repotting a cactus?'],
    ["I've been thinking about baking sourdough, but I'm not sure where to start. Do you have any advice?", 'baking sourdough, but . ?'],
    ['I was wondering if there are vegan bakeries near the station.', 'I was there are vegan bakeries near the station.'],
    ['What would you recommend for a sore lower back?', 'for a sore lower back?'],
    ["I'm considering a weekend in Oslo. What do you suggest?", 'a weekend in Oslo. ?'],
    ["I'm thinking of learning the cello and was wondering if you could suggest a first piece.", 'learning the cello and was a first piece.'],
  ])('%s', (query, scored) => {
    expect(withoutRequestWording(query)).toBe(scored);
  });

  it('keeps a query that asks about a recommendation, or is nothing but the request', () => {
    for (const q of ['What did you recommend for my trip to Rome?', 'What was I thinking of buying for my mom?', 'Which suggestions did I like best?', 'Any suggestions?', 'Can you recommend something?']) {
      expect(withoutRequestWording(q)).toBe(q);
    }
  });
});

describe('rankLayers scores the topic of a request, not its wording', () => {
  it('ranks the message about the topic above memories that share only the request’s words', () => {
    const NOW = Date.UTC(2024, 5, 1);
    const memories = [
      'The user asked: can you recommend any good dentists in the user’s area?',
      'The user has been thinking about the user’s schedule for the coming week.',
      'The user is not sure which one to choose between two job offers.',
    ];
    const passages = ['On 2 May 2024 the user said: "I took a fermentation workshop and now I make my own kombucha."'];
    const layers = {
      memories: buildIndex(
        memories.map((_, i) => ({ id: `m${i}`, category: 'fact', importance: 0.5, agentId: null, createdAt: NOW, sourceEventId: `e${i}`, messages: [0] })),
        memories,
        null,
      ),
      passages: buildIndex([{ id: 'p0', category: PASSAGE_CATEGORY, importance: 0, agentId: null, createdAt: NOW, sourceEventId: 'e9', messages: [0] }], passages, null),
    };
    const query = "I've been thinking about brewing kombucha at home, but I'm not sure which one to choose. Can you recommend any starter kits?";
    const top = rankLayers(layers, query, {}, 3, NOW)[0];
    expect(top.layer).toBe('passage');
  });
});

describe('asksForAdvice', () => {
  it('reads a request to the assistant for a suggestion, a recommendation, tips or ideas', () => {
    for (const q of [
      'Could you recommend a pair of hiking boots for wet trails?',
      'Can you please suggest a weekend trip from Madrid?',
      'What do you suggest for a rainy Sunday?',
      "My balcony gets little sun. Any good ideas for what to plant?",
      "I'd love some tips for keeping basil alive.",
      'Got any advice on learning to juggle?',
    ]) {
      expect(asksForAdvice(q)).toBe(true);
    }
  });

  it('does not read a question about advice someone gave, or about the assistant’s past answers', () => {
    for (const q of [
      'What did Evan suggest Sam try for stress relief?',
      'What book recommendations has Joanna given to Nate?',
      'Which restaurant did you recommend for my trip to Rome?',
      'What was the name of the trail you recommended?',
      'Where does the user live?',
    ]) {
      expect(asksForAdvice(q)).toBe(false);
    }
  });
});

describe('rankLayers: a request for advice puts what the user likes first', () => {
  it('ranks a preference above a fact that matches the request as well', () => {
    const NOW = Date.UTC(2024, 5, 1);
    const memories = ['The user stayed at a hotel.', 'The user likes hotels with a rooftop pool and a view.'];
    const index = buildIndex(
      memories.map((_, i) => ({ id: `m${i}`, category: i === 0 ? 'fact' : 'preference', importance: 0.5, agentId: null, createdAt: NOW })),
      memories,
      null,
    );
    const order = (query: string) => rankLayers({ memories: index, passages: null }, query, {}, 10, NOW).map((r) => r.index);
    // both share one word with each query; the fact, shorter, ranks first where nothing asks for advice
    expect(order('Which hotel?')).toEqual([0, 1]);
    expect(order('Can you suggest a hotel?')).toEqual([1, 0]);
    expect(order('Any tips for a good hotel?')).toEqual([1, 0]);
  });
});
