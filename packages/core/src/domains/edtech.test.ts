import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractMemories } from '../extraction/builtin';
import { renderContext } from '../retrieval/render';
import { renderWithSection } from '../retrieval/domain-section';
import { countTokens } from '../retrieval/tokens';
import { type ProfileMemory, buildStudentProfile, isoDateIn, learnerSection } from './edtech';
import { checkSelectable, domainSchemaView } from './settings';

const FIXTURE = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, '../../../../tests/fixtures/tutoring-conversations.json'), 'utf8'),
) as { student: string; sessions: Array<{ observed_at: string; messages: Array<{ role: 'user' | 'assistant'; content: string }> }> };

/** The fixture run through the built-in extractor, as the service would store it (one source event per session). */
function fixtureMemories(): ProfileMemory[] {
  return FIXTURE.sessions.flatMap((s, i) =>
    extractMemories({ messages: s.messages, observedAt: new Date(s.observed_at) }).memories.map((m, j) => ({
      id: `m${i}-${j}`,
      content: m.content,
      source_event_id: `ev${i}`,
      created_at: s.observed_at,
    })),
  );
}

const values = (entries: Array<{ value: string }>) => entries.map((e) => e.value);

describe('buildStudentProfile over the tutoring fixture', () => {
  const profile = buildStudentProfile(FIXTURE.student, fixtureMemories(), new Date('2025-06-04T00:00:00Z'));

  it('fills every documented field from the built-in extractor’s memories', () => {
    expect(values(profile.level)).toEqual(['10th grade']);
    expect(values(profile.struggles)).toEqual(['fractions']);
    expect(values(profile.strengths)).toEqual(['geometry']);
    expect(values(profile.learning_goals)).toEqual(['wants to pass the algebra final with a B']);
    expect(values(profile.misconceptions)).toEqual(['confuses mass with weight']);
    expect(values(profile.learning_style)).toEqual(['learns best with visual examples']);
    expect(values(profile.pace)).toEqual(['slowly']);
    expect(values(profile.accommodations).sort()).toEqual(['dyslexia', 'extra time on tests']);
    expect(profile.exam_dates).toEqual([
      { value: 'chemistry exam on 12 June 2025', date: '2025-06-12', memory_ids: ['m0-3'], source_event_ids: ['ev0'] },
    ]);
    expect(values(profile.subjects).sort()).toEqual(['algebra', 'chemistry', 'geometry'].sort());
    expect(profile.memory_count).toBe(10);
  });

  it('links each entry to the memories and source events it was read from', () => {
    expect(profile.level[0]).toMatchObject({ memory_ids: ['m0-0'], source_event_ids: ['ev0'] });
    expect(profile.struggles[0]).toMatchObject({ memory_ids: ['m0-1'], source_event_ids: ['ev0'] });
    expect(profile.pace[0]).toMatchObject({ memory_ids: ['m2-0'], source_event_ids: ['ev2'] });
  });
});

describe('buildStudentProfile rules', () => {
  const mem = (id: string, content: string, created_at = '2025-01-01T00:00:00Z'): ProfileMemory => ({
    id,
    content,
    source_event_id: null,
    created_at,
  });

  it('merges equal values, newest first, and keeps every supporting memory', () => {
    const p = buildStudentProfile('u', [
      mem('a', 'The user struggles with fractions.', '2025-01-01T00:00:00Z'),
      mem('b', 'The user has trouble with long division.', '2025-02-01T00:00:00Z'),
      mem('c', 'The user finds Fractions hard.', '2025-03-01T00:00:00Z'),
    ]);
    expect(p.struggles).toEqual([
      { value: 'Fractions', memory_ids: ['c', 'a'], source_event_ids: [] },
      { value: 'long division', memory_ids: ['b'], source_event_ids: [] },
    ]);
  });

  it('leaves unrelated memories out of every field and a new grade first', () => {
    const p = buildStudentProfile('u', [
      mem('a', 'The user lives in Lisbon.'),
      mem('b', 'The user is in 9th grade.', '2024-01-01T00:00:00Z'),
      mem('c', 'The user is in 10th grade.', '2025-01-01T00:00:00Z'),
    ]);
    expect(values(p.level)).toEqual(['10th grade', '9th grade']);
    for (const f of ['subjects', 'struggles', 'strengths', 'learning_goals', 'pace', 'accommodations', 'exam_dates'] as const) {
      expect(p[f]).toEqual([]);
    }
  });

  it('counts "enjoys" and "loves" as strengths only for school subjects', () => {
    const p = buildStudentProfile('u', [mem('a', 'The user loves pizza.'), mem('b', 'The user enjoys chemistry experiments.')]);
    expect(values(p.strengths)).toEqual(['chemistry experiments']);
  });

  it('reads exam dates in the extractor’s and ISO spellings, undated exams last', () => {
    expect(isoDateIn('on 3 March 2026')).toBe('2026-03-03');
    expect(isoDateIn('on March 3, 2026')).toBe('2026-03-03');
    expect(isoDateIn('on 2026-03-03')).toBe('2026-03-03');
    expect(isoDateIn('next spring')).toBeNull();
    const p = buildStudentProfile('u', [
      mem('a', 'The user has a history test.'),
      mem('b', 'The user has a physics exam on 2 May 2025.'),
    ]);
    expect(p.exam_dates.map((e) => [e.value, e.date])).toEqual([
      ['physics exam on 2 May 2025', '2025-05-02'],
      ['history test', null],
    ]);
  });
});

describe('learner section in system_prompt_addition', () => {
  const profile = buildStudentProfile(FIXTURE.student, fixtureMemories());
  const section = learnerSection(profile);
  const memories = fixtureMemories().map((m, i) => ({ id: m.id, content: m.content, category: 'fact', importance: 1 - i / 100 }));
  const render = (format: 'bullets' | 'json' | 'xml', max: number) =>
    renderWithSection((budget) => renderContext(memories, format, budget), section, format, max);

  it('follows the memory block in every format when the budget is generous', () => {
    const bullets = render('bullets', 2000).text;
    expect(bullets).toMatch(/^Known information about the user:\n- /);
    expect(bullets).toContain('\n\nLearner profile:\n- Level: 10th grade\n- Struggles: fractions\n');
    const json = JSON.parse(render('json', 2000).text);
    expect(json.learner_profile.level).toEqual(['10th grade']);
    expect(json.learner_profile.exam_dates).toEqual(['chemistry exam on 12 June 2025']);
    expect(Object.keys(json)).toEqual(['memories', 'learner_profile']);
    const xml = render('xml', 2000).text;
    expect(xml).toContain('\n\nLearner profile:\n<learner_profile>\n<field name="level">10th grade</field>\n');
    expect(xml.endsWith('</learner_profile>')).toBe(true);
  });

  it('stays within every budget, drops whole lines, and reports the exact count', () => {
    const lines = section.lines.map((l) => `- ${l.label}: ${l.values.join('; ')}`);
    for (const format of ['bullets', 'json', 'xml'] as const) {
      for (let max = 1; max <= 300; max += 7) {
        const r = render(format, max);
        expect(r.tokenCount).toBe(countTokens(r.text));
        expect(r.tokenCount).toBeLessThanOrEqual(max);
        if (format === 'json' && r.text) JSON.parse(r.text);
        if (format === 'bullets') {
          const kept = r.text.split('\n').filter((l) => /^- [A-Z][\w ]*: /.test(l));
          expect(kept).toEqual(lines.slice(0, kept.length)); // a prefix of the priority order, each line whole
        }
      }
    }
    // a tight budget still leaves most of it to the memories
    const tight = render('bullets', 60);
    expect(tight.includedIds.length).toBeGreaterThan(0);
  });

  it('without a section renders exactly the memory block', () => {
    const plain = renderContext(memories, 'bullets', 200);
    expect(renderWithSection((b) => renderContext(memories, 'bullets', b), null, 'bullets', 200)).toEqual({ ...plain, sectionLines: 0 });
  });
});

describe('domain schema catalogue', () => {
  it('lists six schemas, three available, and marks the active one', () => {
    const view = domainSchemaView('edtech');
    expect(view.catalogue.map((e) => [e.id, e.status, e.active])).toEqual([
      ['general', 'available', false],
      ['edtech', 'available', true],
      ['customer_support', 'available', false],
      ['hr_tech', 'announced', false],
      ['healthtech', 'announced', false],
      ['agritech', 'planned', false],
    ]);
  });

  it('refuses announced, planned and unknown schemas with 422 naming the status', () => {
    expect(checkSelectable('customer_support')).toBe('customer_support');
    for (const [id, status] of [['hr_tech', 'announced'], ['healthtech', 'announced'], ['agritech', 'planned']]) {
      expect(() => checkSelectable(id)).toThrow(expect.objectContaining({ status: 422, code: 'validation_failed' }));
      try {
        checkSelectable(id);
      } catch (e) {
        expect((e as { extra: { errors: Array<{ message: string }> } }).extra.errors[0].message).toContain(`is ${status}`);
      }
    }
    expect(() => checkSelectable('legal')).toThrow(expect.objectContaining({ status: 422 }));
  });
});
