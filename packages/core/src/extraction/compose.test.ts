import { describe, expect, it } from 'vitest';
import { USER_ENTITY, composeMemories } from './compose';

const names = (c: ReturnType<typeof composeMemories>) => c.entities.map((e) => `${e.kind}:${e.normalized}`).sort();
const rels = (c: ReturnType<typeof composeMemories>) => c.relationships.map((r) => `${r.subject} ${r.predicate} ${r.object}`).sort();

describe('composeMemories', () => {
  it('finds people, places and organisations and links memories to them', () => {
    const c = composeMemories([
      { content: "Caroline's sister Ana lives in Porto." },
      { content: 'The user works at Google.' },
      { content: 'Melanie took the kids to the Grand Canyon.' },
    ]);
    expect(names(c)).toEqual(expect.arrayContaining(['person:caroline', 'person:ana', 'place:porto', 'organization:google', 'person:melanie', 'place:grand canyon']));
    expect(c.entities.find((e) => e.normalized === 'caroline')?.memoryIndices).toEqual([0]);
    expect(names(c)).not.toContain('thing:caroline sister ana');
    expect(c.entities.find((e) => e.normalized === USER_ENTITY)?.memoryIndices).toEqual([1]);
  });

  it('reads relationships', () => {
    const c = composeMemories([
      { content: "Caroline's sister Ana lives in Porto." },
      { content: 'The user works at Google.' },
      { content: 'On 7 May 2023, Jon moved to Berlin.' },
      { content: 'Gina is from Toronto.' },
    ]);
    expect(rels(c)).toEqual(['ana lives_in porto', 'ana sister_of caroline', 'gina from toronto', 'jon lives_in berlin', 'the user works_at google']);
  });

  it('skips calendar words, interjections and numbers', () => {
    const c = composeMemories([{ content: 'Caroline said that Wow, on Monday in May 2023 it rained.' }]);
    expect(names(c)).toEqual(['person:caroline']);
    expect(c.relationships).toEqual([]);
  });

  it('relates co-mentioned people when nothing more specific is stated', () => {
    const c = composeMemories([{ content: "Caroline said that Melanie's painting inspired Caroline." }]);
    expect(rels(c)).toEqual(['caroline mentions melanie']);
  });
});
