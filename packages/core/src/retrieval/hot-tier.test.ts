import { describe, expect, it } from 'vitest';
import { PROMPT_MAX_WORDS } from '../evidence/passages';
import { stemCount } from './candidate-index';
import { HotTier, type PassageRow, type RankableRow, timeOf } from './hot-tier';
import { rankLayers } from './score';

const passage = (over: Partial<PassageRow> & Pick<PassageRow, 'message_index' | 'role' | 'content'>): PassageRow => ({
  id: `${over.source_event_id ?? 'e1'}-${over.message_index}-${over.part ?? 0}`,
  source_event_id: 'e1',
  job_id: null,
  agent_id: null,
  part: 0,
  speaker: null,
  observed_at: new Date('2026-05-21T00:00:00Z'),
  created_at: new Date('2026-05-21T00:00:00Z'),
  terms: null,
  vector: null,
  vector_model: null,
  ...over,
});

describe('HotTier: the prompt of each assistant passage', () => {
  const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
  const set = new HotTier().build('u1', 1, [], null, [
    // a prompt in two parts, stored out of order
    passage({ message_index: 0, part: 1, role: 'user', content: 'second half?' }),
    passage({ message_index: 0, part: 0, role: 'user', content: 'First half,' }),
    passage({ message_index: 1, part: 0, role: 'assistant', content: 'Reply part one.' }),
    passage({ message_index: 1, part: 1, role: 'assistant', content: 'Reply part two.' }),
    // an assistant message after another assistant message has no prompt
    passage({ message_index: 2, role: 'assistant', content: 'A follow-up.' }),
    // a prompt too long to quote whole (longer than one passage) is shortened and not cited
    passage({ message_index: 3, role: 'user', content: words(PROMPT_MAX_WORDS + 20) }),
    passage({ message_index: 4, role: 'assistant', content: 'Short answer.' }),
    // another event's message 3 is not the prompt of e2's message 4
    passage({ source_event_id: 'e2', message_index: 4, role: 'assistant', content: 'Elsewhere.' }),
    // a prompt of 90 words is one passage: quoted whole and cited
    passage({ message_index: 5, role: 'user', content: words(90) }),
    passage({ message_index: 6, role: 'assistant', content: 'A long story, then.' }),
  ]);

  it('quotes a prompt that is one passage whole and cites it, however long the passage', () => {
    expect(set.prompts[9]).toEqual({ messageIndex: 5, speaker: null, quote: words(90), whole: true });
    expect(set.passageIndex?.memories[9].messages).toEqual([5, 6]);
  });

  it('joins the parts of the user message before the reply in order, and cites it when quoted whole', () => {
    expect(set.prompts[2]).toEqual({ messageIndex: 0, speaker: null, quote: 'First half, second half?', whole: true });
    expect(set.prompts[3]).toBe(set.prompts[2]);
    expect(set.passageIndex?.memories[2].messages).toEqual([0, 1]);
  });

  it('gives user passages, replies to replies and replies without a stored prompt none', () => {
    expect(set.prompts[0]).toBeNull();
    expect(set.prompts[4]).toBeNull();
    expect(set.prompts[7]).toBeNull();
    expect(set.passageIndex?.memories[4].messages).toEqual([2]);
  });

  it('quotes a long prompt shortened and cites only the reply', () => {
    expect(set.prompts[6]).toMatchObject({ messageIndex: 3, whole: false });
    expect(set.passageIndex?.memories[6].messages).toEqual([4]);
  });
});

describe('HotTier: the question a named person answers', () => {
  const set = new HotTier().build('u1', 1, [], null, [
    passage({ message_index: 0, role: 'user', speaker: 'Priya', content: 'Lovely photos! Which island did you like best?' }),
    // the opening part of the answer is shown with the question; a later part is not
    passage({ message_index: 1, part: 0, role: 'user', speaker: 'Tomas', content: 'Vis, for the calm harbour.' }),
    passage({ message_index: 1, part: 1, role: 'user', speaker: 'Tomas', content: 'We also hiked a lot.' }),
    // a statement is no question: the reply to it stands alone
    passage({ message_index: 2, role: 'user', speaker: 'Priya', content: 'I framed the harbour photo.' }),
    passage({ message_index: 3, role: 'user', speaker: 'Tomas', content: 'Nice one.' }),
    // the same person twice: no question of another's to answer
    passage({ message_index: 4, role: 'user', speaker: 'Tomas', content: 'Did I mention the ferry?' }),
    passage({ message_index: 5, role: 'user', speaker: 'Tomas', content: 'It was late.' }),
    // the unnamed user's messages never quote what came before
    passage({ source_event_id: 'e2', message_index: 0, role: 'user', content: 'Which island is best?' }),
    passage({ source_event_id: 'e2', message_index: 1, role: 'user', content: 'I think Vis.' }),
  ]);

  it('quotes the question with the opening part of the answer, and cites it when whole', () => {
    expect(set.prompts[1]).toEqual({ messageIndex: 0, speaker: 'Priya', quote: 'Lovely photos! Which island did you like best?', whole: true });
    expect(set.passageIndex?.memories[1].messages).toEqual([0, 1]);
    expect([2, 3, 4, 5, 6, 7, 8].map((i) => set.prompts[i])).toEqual([null, null, null, null, null, null, null]);
    expect(set.passageIndex?.memories[4].messages).toEqual([3]);
  });
});

describe('HotTier: history passages', () => {
  it('indexes a superseded claim\'s words with the passage of its message, ranked below what is current', () => {
    const now = Date.parse('2026-06-01T00:00:00Z');
    const content = 'Could you suggest glazes for stoneware bowls? I go every week and my teacher likes earthy colours.';
    const set = new HotTier().build('u1', 1, [], null, [
      passage({ message_index: 0, role: 'user', content, superseded: true, history_terms: 'potteri class tuesdai schedul' }),
      passage({ message_index: 1, role: 'user', content, source_event_id: 'e2' }),
    ]);
    const terms = (i: number) => set.passageIndex!.memories[i].terms.split(' ');
    expect(terms(0)).toEqual(expect.arrayContaining(['glaze', 'potteri', 'tuesdai']));
    expect(terms(1)).not.toContain('potteri');
    // found by the words that found the memory, with history's lower importance
    const ranked = rankLayers({ memories: set.index, passages: set.passageIndex }, 'which day is the pottery class', {}, 10, now);
    expect(ranked.map((r) => r.index)).toEqual([0]);
    expect(set.passageIndex!.memories[0].importance).toBe(-1);
  });
});

describe("HotTier: a named speaker is the passage's entity", () => {
  it('links each passage to its speaker, so a question naming the speaker puts their words above the other person\'s', () => {
    const now = Date.parse('2026-06-01T00:00:00Z');
    const set = new HotTier().build('u1', 1, [], null, [
      passage({ message_index: 0, role: 'user', speaker: 'Imke', content: 'The lighthouse tour was windy but lovely.' }),
      passage({ message_index: 1, role: 'user', speaker: 'Bruno', content: 'Our lighthouse tour got cancelled, sadly.' }),
      passage({ message_index: 0, role: 'user', content: 'I booked a lighthouse tour.', source_event_id: 'e2' }),
    ]);
    expect(set.passageIndex!.memories.map((m) => m.entities ?? [])).toEqual([['imke'], ['bruno'], []]);
    expect([...set.entityNames].sort()).toEqual(['bruno', 'imke']);
    const ranked = (query: string, entities: string[]) =>
      rankLayers({ memories: set.index, passages: set.passageIndex }, query, {}, 10, now, { entities }).map((r) => r.index);
    expect(ranked('How was the lighthouse tour for Bruno?', ['bruno'])[0]).toBe(1);
    expect(ranked('How was the lighthouse tour for Imke?', ['imke'])[0]).toBe(0);
  });
});

describe('HotTier: a memory is linked to the person who said its message', () => {
  const now = Date.parse('2026-06-01T00:00:00Z');
  const memory = (id: string, content: string, message: number, entities: string[], event = 'e1') =>
    ({
      id,
      content,
      category: 'fact',
      importance: 0.5,
      agent_id: null,
      created_at: new Date('2026-05-21T00:00:00Z'),
      source_event_id: event,
      message_indices: [message],
      entity_names: entities,
    }) as unknown as RankableRow;

  it("takes the speaker of the message a memory cites, none when the speakers differ or are not named, the answerer's for an answer that quotes its question", () => {
    const set = new HotTier().build(
      'u1',
      1,
      [
        memory('m1', 'Lena is training for a marathon in the autumn.', 0, ['lena']),
        memory('m2', 'Tariq told Lena her marathon plan sounds tough.', 1, ['lena', 'tariq']),
        memory('m3', 'The user runs on Sundays.', 0, [], 'e2'),
        { ...memory('m4', 'Lena and Tariq agreed on a marathon pace.', 0, ['lena', 'tariq']), message_indices: [0, 1] } as RankableRow,
        // an answer that quotes the question it answers cites the asker's message too, and is the answerer's
        {
          ...memory('m5', 'Tariq said that the plan is fine (in reply to Lena: "Is my marathon plan too much?").', 3, ['lena', 'tariq']),
          message_indices: [2, 3],
        } as RankableRow,
        {
          ...memory('m6', 'Tariq said that the plan is fine (in reply to Priya: "Is it too much?").', 3, ['lena', 'tariq']),
          message_indices: [2, 3],
        } as RankableRow,
      ],
      null,
      [
        passage({ message_index: 0, role: 'user', speaker: 'Lena', content: 'I am training for a marathon in the autumn.' }),
        passage({ message_index: 1, role: 'user', speaker: 'Tariq', content: 'Lena, that marathon plan sounds tough!' }),
        passage({ message_index: 2, role: 'user', speaker: 'Lena', content: 'Is my marathon plan too much?' }),
        passage({ message_index: 3, role: 'user', speaker: 'Tariq', content: 'The plan is fine.' }),
        passage({ message_index: 0, role: 'user', content: 'I run on Sundays.', source_event_id: 'e2' }),
      ],
    );
    // m6 quotes someone other than the one whose message it cites: two people's, no one's
    expect(set.index.memories.map((m) => m.speaker)).toEqual(['lena', 'tariq', undefined, undefined, 'tariq', undefined]);
    expect(set.passageIndex!.memories.map((m) => m.speaker)).toEqual(['lena', 'tariq', 'lena', 'tariq', undefined]);
  });

  it("ranks what the person the question names said above what someone else said to them", () => {
    // by the words alone Tariq's remark about Lena matches a little better (shorter, the same query words); each
    // is the only memory of its conversation, so neither takes a share of the other's words (score-layer.ts)
    const rows = [
      memory('m1', 'Tariq thinks Lena is ready for the autumn marathon.', 1, ['lena', 'tariq'], 'e1'),
      memory('m2', 'Lena has started training with a running club near the harbour for the autumn marathon.', 0, ['lena'], 'e2'),
    ];
    const passages = [
      passage({ source_event_id: 'e2', message_index: 0, role: 'user', speaker: 'Lena', content: 'I am training for a marathon.' }),
      passage({ source_event_id: 'e1', message_index: 1, role: 'user', speaker: 'Tariq', content: 'Lena, the marathon in the autumn suits you!' }),
    ];
    const ranked = (set: ReturnType<HotTier['build']>) =>
      rankLayers({ memories: set.index, passages: null }, 'What about Lena and the autumn marathon?', {}, 10, now, { entities: ['lena'] }).map(
        (r) => set.rows[r.index].id,
      );
    expect(ranked(new HotTier().build('u1', 1, rows, null, passages))[0]).toBe('m2');
    // without the speakers (the conversation named none) both count Lena whole, and the words decide
    expect(ranked(new HotTier().build('u1', 1, rows, null, []))[0]).toBe('m1');
  });
});

describe('HotTier: the inputs read without a per-item cost', () => {
  it('reads a timestamp as milliseconds from a Date, an ISO string or milliseconds alike', () => {
    const ms = Date.UTC(2026, 4, 21, 10, 30);
    expect([timeOf(new Date(ms)), timeOf('2026-05-21T10:30:00.000Z'), timeOf('2026-05-21 10:30:00+00'), timeOf(ms)]).toEqual([ms, ms, ms, ms]);
  });

  it('counts the stems of a stored terms string', () => {
    expect([stemCount(''), stemCount('glaze'), stemCount('glaze stonewar bowl'), stemCount('a b c d e')]).toEqual([0, 1, 3, 5]);
  });

  it('gives a passage loaded with millisecond timestamps the same place on the timeline as one loaded with Dates', () => {
    const at = Date.UTC(2026, 4, 21);
    const one = (observed: Date | number) =>
      new HotTier().build('u1', 1, [], null, [passage({ message_index: 0, role: 'user', content: 'We adopted a cat.', observed_at: observed, created_at: observed })])
        .passageIndex!.memories[0];
    expect(one(at)).toMatchObject({ observedAt: at, createdAt: at });
    expect(one(new Date(at))).toMatchObject({ observedAt: at, createdAt: at });
  });
});
