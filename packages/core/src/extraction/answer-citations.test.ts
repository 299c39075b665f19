import { describe, expect, it } from 'vitest';
import { extractMemories } from './builtin';
import type { ExtractionResult } from './types';

// which messages a memory cites when it answers a question (docs/provenance.md)
const at = new Date('2025-09-14T10:00:00Z');
const talk = (...turns: [string, string][]): ExtractionResult =>
  extractMemories({ messages: turns.map(([name, content]) => ({ role: 'user' as const, name, content })), observedAt: at });
const contents = (r: ExtractionResult) => r.memories.map((m) => m.content);

describe('extractMemories: the messages an answer cites', () => {
  it('cites the message of the question an answer quotes, between named people', () => {
    const asked = talk(['Priya', 'Lovely photos! Which island did you like best?'], ['Tomas', 'We liked Vis the most, the harbour was so calm.']);
    expect(asked.memories.map((m) => [m.content, m.messageIndices])).toEqual([
      ['Tomas said that we liked Vis the most, the harbour was so calm (in reply to Priya: "Which island did you like best?"; about Lovely photos, island, best).', [0, 1]],
    ]);
    // the same answer given twice cites both answers and both questions
    const twice = talk(['Priya', 'Which island did you like best?'], ['Tomas', 'I liked Vis.'], ['Priya', 'Which island did you like best?'], ['Tomas', 'I liked Vis.']);
    expect(twice.memories.map((m) => m.messageIndices)).toEqual([[0, 1, 2, 3]]);
  });

  it('cites only its own message when it quotes no question, or answers the assistant', () => {
    // what a reply refers back to without a question: its noun phrases are no quote
    const told = talk(['Priya', 'I finally framed the harbour photo.'], ['Tomas', 'I printed that one too.']);
    expect(told.memories.map((m) => m.messageIndices)).toEqual([[0], [1]]);
    expect(contents(told)[1]).toMatch(/^Tomas printed that one too \(in reply to Priya about /);
    // to the assistant: the reply quotes its question but cites only the user's message (the assistant's message is
    // evidence of its own, returned with its prompt)
    const r = extractMemories({
      messages: [
        { role: 'assistant', content: 'Pedals shape your sound. What kind of music do you play?' },
        { role: 'user', content: 'I bought it last week.' },
      ],
      observedAt: at,
    });
    expect(contents(r)[0]).toMatch(/\(in reply to the assistant: "What kind of music do you play\?"/);
    expect(r.memories.map((m) => m.messageIndices)).toEqual([[1]]);
  });
});
