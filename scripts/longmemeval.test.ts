import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../packages/core/src/schemas/limits';
import {
  type LmeQuestion,
  answerTerms,
  answerWordsFound,
  coverageOfItem,
  evidenceOf,
  loadQuestions,
  newestEvidence,
  newestFirst,
  parseHaystackDate,
  planAdds,
  roundsOf,
  scoreRanking,
} from './longmemeval';

const question = (): LmeQuestion => ({
  question_id: 'q1',
  question_type: 'multi-session',
  question: 'Where did I buy my bike?',
  answer: 'Cycle Hub',
  haystack_dates: ['2023/05/21 (Sun) 19:50', '2023/05/20 (Sat) 08:05', '2023/05/22 (Mon) 10:00'],
  haystack_session_ids: ['answer_abc_1', 'sharegpt_x', 'sharegpt_x'],
  haystack_sessions: [
    [
      { role: 'user', content: 'I bought my bike at Cycle Hub.', has_answer: true },
      { role: 'assistant', content: '   ' },
      { role: 'assistant', content: 'Nice bike!' },
    ],
    [
      { role: 'assistant', content: 'Hello.' },
      { role: 'user', content: 'x'.repeat(LIMITS.messageChars + 5) },
    ],
    [{ role: 'user', content: 'Unrelated.' }],
  ],
});

describe('parseHaystackDate', () => {
  it('reads the data set’s date format as UTC', () => {
    expect(parseHaystackDate('2023/05/21 (Sun) 19:50').toISOString()).toBe('2023-05-21T19:50:00.000Z');
    expect(() => parseHaystackDate('May 21, 2023')).toThrow(/unparseable/);
  });
});

describe('planAdds', () => {
  const plan = planAdds(question(), 'lme-user');

  it('sends sessions in date order and never an empty or over-long message', () => {
    expect(plan.adds.map((a) => a.session)).toEqual([1, 0, 2]);
    expect(plan.droppedEmpty).toBe(1);
    expect(plan.cut).toBe(1);
    for (const add of plan.adds) for (const m of add.messages) expect(m.content.trim().length).toBeGreaterThan(0);
    expect(plan.adds[0].messages[1].content).toHaveLength(LIMITS.messageChars);
  });

  it('remembers which original turn each sent message was', () => {
    expect(plan.adds[1].turnOf).toEqual([0, 2]);
    expect(plan.adds[1].messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  it('gives opaque event ids, distinct for a session id that occurs twice', () => {
    const ids = plan.adds.map((a) => a.eventId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).not.toMatch(/answer|sharegpt/);
    expect(planAdds(question(), 'other-user').adds[0].eventId).not.toBe(ids[0]);
  });

  it('splits a session longer than one add may be', () => {
    const q = question();
    q.haystack_sessions[2] = Array.from({ length: LIMITS.messagesPerAdd + 3 }, (_, i) => ({ role: 'user' as const, content: `turn ${i}` }));
    const parts = planAdds(q, 'lme-user').adds.filter((a) => a.session === 2);
    expect(parts.map((p) => p.messages.length)).toEqual([LIMITS.messagesPerAdd, 3]);
    expect(parts[1].turnOf[0]).toBe(LIMITS.messagesPerAdd);
  });
});

describe('scoring', () => {
  const q = question();
  const plan = planAdds(q, 'lme-user');
  const byEvent = new Map(plan.adds.map((a) => [a.eventId, a]));
  const evidence = evidenceOf(q);

  it('maps provenance back through the sent -> original turn map', () => {
    expect(coverageOfItem({ event_id: plan.adds[1].eventId, message_indices: [1] }, byEvent)).toEqual({ sessions: [0], turns: ['0:2'] });
    expect(coverageOfItem({ event_id: 'someone-else', message_indices: [0] }, byEvent)).toBeNull();
    expect(coverageOfItem(null, byEvent)).toBeNull();
  });

  it('scores recall_all, recall_any and the covered fraction at each k', () => {
    const miss = { sessions: [1], turns: ['1:0'] };
    const hit = { sessions: [0], turns: ['0:0'] };
    const scores = scoreRanking([...Array(5).fill(miss), hit], { sessions: evidence.sessions, turns: new Set(['0:0', '2:0']) });
    expect(scores.session.recall_all).toEqual({ 5: 0, 10: 1, 25: 1, 50: 1 });
    expect(scores.turn.recall_all[10]).toBe(0);
    expect(scores.turn.recall_any).toEqual({ 5: 0, 10: 1, 25: 1, 50: 1 });
    expect(scores.turn.covered[10]).toBe(0.5);
  });

  it('makes a round of a user turn and the assistant turns after it', () => {
    expect(roundsOf(q).map((r) => r.coverage.turns)).toEqual([['0:0', '0:1', '0:2'], ['1:0'], ['1:1'], ['2:0']]);
  });
});

describe('answer words', () => {
  it('checks only short string answers, by the service’s stems', () => {
    expect(answerTerms('Cycle Hub')).toEqual(['cycl', 'hub']);
    expect(answerTerms(7)).toBeNull();
    expect(answerTerms('one two three four five six seven')).toBeNull();
    expect(answerWordsFound(['cycl', 'hub'], ['They cycled to the hub.'])).toBe(true);
    expect(answerWordsFound(['cycl', 'hub'], ['Cycling.'])).toBe(false);
    expect(answerWordsFound(null, ['anything'])).toBeNull();
  });
});

describe('newest value first', () => {
  const update = (): LmeQuestion => {
    const q = question();
    q.question_type = 'knowledge-update';
    // the old value on 21 May (session 0), the new one on 22 May (session 2)
    q.haystack_sessions[2] = [{ role: 'user', content: 'I sold it and bought one at Spoke Shop.', has_answer: true }];
    q.haystack_session_ids[2] = 'answer_abc_2';
    return q;
  };

  it('finds the evidence of the newest session, and nothing when the evidence is one session or one date', () => {
    expect(newestEvidence(update())).toEqual(new Set(['2:0']));
    expect(newestEvidence(question())).toBeNull();
    const sameDay = update();
    sameDay.haystack_dates[2] = sameDay.haystack_dates[0];
    expect(newestEvidence(sameDay)).toBeNull();
  });

  it('scores 1 when the first evidence item in the top k is the newest, 0 when an older one or none comes first', () => {
    const q = update();
    const evidence = evidenceOf(q);
    const newest = newestEvidence(q);
    const other = { sessions: [1], turns: ['1:1'] };
    const old = { sessions: [0], turns: ['0:0'] };
    const recent = { sessions: [2], turns: ['2:0'] };
    expect(newestFirst([other, recent, old], evidence, newest)).toBe(1);
    expect(newestFirst([old, recent], evidence, newest)).toBe(0);
    expect(newestFirst([other], evidence, newest)).toBe(0);
    expect(newestFirst([other, recent], evidence, newest, 1)).toBe(0);
    expect(newestFirst([recent], evidence, null)).toBeNull();
  });
});

describe('loadQuestions', () => {
  it('leaves abstention questions out, keeps only the asked types, and takes the types in turn under --limit', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'lme-load-'));
    const write = (id: string, type: string) =>
      writeFileSync(path.join(dir, `${id}.json`), JSON.stringify({ ...question(), question_id: id, question_type: type }));
    write('a1', 'knowledge-update');
    write('a2', 'knowledge-update');
    write('b1', 'temporal-reasoning');
    write('b2_abs', 'temporal-reasoning');
    const ids = (r: { questions: LmeQuestion[] }) => r.questions.map((q) => q.question_id);
    const all = loadQuestions(dir, null);
    expect(ids(all)).toEqual(['a1', 'a2', 'b1']);
    expect(all.abstentionLeftOut).toBe(1);
    expect(ids(loadQuestions(dir, null, ['knowledge-update']))).toEqual(['a1', 'a2']);
    expect(ids(loadQuestions(dir, 2))).toEqual(['a1', 'b1']);
    expect(ids(loadQuestions(dir, null, ['single-session-user']))).toEqual([]);
  });
});
