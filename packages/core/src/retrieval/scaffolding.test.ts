import { describe, expect, it } from 'vitest';
import { PASSAGE_CATEGORY, buildIndex, rankLayers } from './score';
import { withoutRequestWording } from './scaffolding';

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
