import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MEMORY_CATEGORIES } from '../categories';
import {
  CONTEXT_FORMATS,
  CONTEXT_HEADING,
  escapeXml,
  renderContext,
} from './render';
import { countTokens } from './tokens';
import { THIRTY, blockContents, byId, mem, outranks } from './render-test-support';

// Wrap the real counter so the efficiency test can see how often whole blocks are tokenised.
vi.mock('./tokens', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./tokens')>();
  return { ...actual, countTokens: vi.fn(actual.countTokens) };
});

describe('renderContext budget', () => {
  it.each(CONTEXT_FORMATS)('%s: zero memories give the empty string and count 0', (format) => {
    expect(renderContext([], format, 10_000)).toEqual({ text: '', tokenCount: 0, includedIds: [], droppedIds: [] });
  });

  it.each(CONTEXT_FORMATS)('%s: a budget of 0, negative or NaN gives the empty string', (format) => {
    for (const max of [0, -5, Number.NaN]) {
      expect(renderContext(THIRTY.slice(0, 3), format, max)).toEqual({
        text: '',
        tokenCount: 0,
        includedIds: [],
        droppedIds: ['m01', 'm02', 'm03'],
      });
    }
  });

  it.each(CONTEXT_FORMATS)('%s: an infinite budget keeps everything in input order', (format) => {
    const r = renderContext(THIRTY, format, Infinity);
    expect(r.includedIds).toEqual(THIRTY.map((m) => m.id));
    expect(r.droppedIds).toEqual([]);
  });

  it.each(CONTEXT_FORMATS)('%s: empty when the heading plus the top memory does not fit', (format) => {
    const top = mem('top', 'The most important memory of all, fairly long at that.', 'fact', 1);
    const other = mem('low', 'Less important.', 'preference', 0.1);
    const alone = renderContext([top], format, Infinity);
    expect(alone.tokenCount).toBeGreaterThan(0);

    const exactFit = renderContext([other, top], format, alone.tokenCount);
    expect(exactFit.includedIds).toEqual(['top']);
    expect(exactFit.droppedIds).toEqual(['low']);
    expect(exactFit.text).toBe(alone.text);
    expect(exactFit.tokenCount).toBe(alone.tokenCount);

    // One token short: the top memory is dropped too, so nothing is rendered. The less important
    // memory would fit on its own, but it is never kept in place of a more important one.
    expect(renderContext([other, top], format, alone.tokenCount - 1)).toEqual({
      text: '',
      tokenCount: 0,
      includedIds: [],
      droppedIds: ['low', 'top'],
    });
  });

  it.each(CONTEXT_FORMATS)('%s: drops lower importance first and keeps ranking order', (format) => {
    const list = [
      mem('a', 'Alpha memory about the user.', 'fact', 0.5),
      mem('b', 'Bravo memory about the user.', 'preference', 0.9),
      mem('c', 'Charlie memory about the user.', 'goal', 0.1),
      mem('d', 'Delta memory about the user.', 'fact', 0.7),
    ];
    // Budget that fits exactly the three most important memories (b, d, a).
    const three = renderContext([list[0], list[1], list[3]], format, Infinity);
    const r = renderContext(list, format, three.tokenCount);
    expect(r.includedIds).toEqual(['a', 'b', 'd']);
    expect(r.droppedIds).toEqual(['c']);
    expect(r.text).toBe(three.text);

    const two = renderContext([list[1], list[3]], format, Infinity);
    expect(renderContext(list, format, two.tokenCount).includedIds).toEqual(['b', 'd']);
    expect(renderContext(list, format, three.tokenCount - 1).includedIds).toEqual(['b', 'd']);
  });

  it.each(CONTEXT_FORMATS)('%s: on equal importance the lower-ranked memory is dropped first', (format) => {
    const list = [
      mem('first', 'Same importance, ranked first.', 'fact', 0.5),
      mem('second', 'Same importance, ranked second.', 'fact', 0.5),
      mem('third', 'Same importance, ranked third.', 'fact', 0.5),
    ];
    const two = renderContext(list.slice(0, 2), format, Infinity);
    expect(renderContext(list, format, two.tokenCount).includedIds).toEqual(['first', 'second']);
    const one = renderContext(list.slice(0, 1), format, Infinity);
    expect(renderContext(list, format, one.tokenCount).includedIds).toEqual(['first']);
  });

  it('treats NaN importance as the lowest', () => {
    const list = [mem('nan', 'Unknown importance.', 'fact', Number.NaN), mem('low', 'Low importance.', 'fact', 0)];
    const one = renderContext([list[1]], 'bullets', Infinity);
    expect(renderContext(list, 'bullets', one.tokenCount).includedIds).toEqual(['low']);
  });

  it.each(CONTEXT_FORMATS)(
    '%s: every budget from 0 to 300 over 30 memories (never exceeded, exact, maximal, nothing cut)',
    (format) => {
      const full = renderContext(THIRTY, format, Infinity);
      expect(full.tokenCount).toBeGreaterThan(300); // so the loop really exercises dropping
      let previousKept = 0;
      let nonEmpty = 0;
      for (let max = 0; max <= 300; max++) {
        const r = renderContext(THIRTY, format, max);

        // Never over budget, and the count is the exact count of the whole returned string.
        expect(r.tokenCount).toBeLessThanOrEqual(max);
        expect(r.tokenCount).toBe(countTokens(r.text));
        expect(r.text === '').toBe(r.includedIds.length === 0);

        // Ids: a partition of the input, each side in input order.
        expect([...r.includedIds, ...r.droppedIds].sort()).toEqual(THIRTY.map((m) => m.id).sort());
        const rank = (id: string) => THIRTY.findIndex((m) => m.id === id);
        expect(r.includedIds.map(rank)).toEqual([...r.includedIds.map(rank)].sort((x, y) => x - y));
        expect(r.droppedIds.map(rank)).toEqual([...r.droppedIds.map(rank)].sort((x, y) => x - y));

        // Lower importance (then lower rank) dropped first.
        const kept = r.includedIds.map((id) => byId.get(id)!);
        const dropped = r.droppedIds.map((id) => byId.get(id)!);
        for (const k of kept) expect(dropped.every((d) => outranks(k, d, THIRTY))).toBe(true);

        // Whole memories only: the block holds exactly the kept memories' full contents, in order.
        const shown = r.text === '' ? [] : blockContents(r.text, format);
        if (format === 'json') {
          // Grouped by category; within each category the ranking order holds.
          const grouped = new Map<string, string[]>();
          for (const m of kept) grouped.set(m.category, [...(grouped.get(m.category) ?? []), m.content]);
          expect(new Set(shown.map((s) => s.category)).size).toBe(grouped.size);
          for (const [category, contents] of grouped) {
            expect(shown.filter((s) => s.category === category).map((s) => s.content)).toEqual(contents);
          }
          expect(shown).toHaveLength(kept.length);
        } else {
          expect(shown.map((s) => s.content)).toEqual(kept.map((m) => m.content));
          if (format === 'xml') expect(shown.map((s) => s.category)).toEqual(kept.map((m) => m.category));
        }
        for (const m of kept) {
          if (format === 'bullets') expect(r.text).toContain(`- ${m.content}`);
          if (format === 'json') expect(r.text).toContain(JSON.stringify(m.content));
          if (format === 'xml') expect(r.text).toContain(escapeXml(m.content));
        }

        // Maximal: the next memory in drop order would not have fit.
        if (dropped.length > 0) {
          const next = [...dropped].sort((x, y) => (outranks(x, y, THIRTY) ? -1 : 1))[0];
          const withNext = THIRTY.filter((m) => kept.includes(m) || m === next);
          expect(renderContext(withNext, format, Infinity).tokenCount).toBeGreaterThan(max);
        }

        // Raising the budget never removes memories.
        expect(r.includedIds.length).toBeGreaterThanOrEqual(previousKept);
        previousKept = r.includedIds.length;
        if (r.text) nonEmpty++;
      }
      expect(nonEmpty).toBeGreaterThan(250);
      expect(previousKept).toBeGreaterThan(3);
      expect(previousKept).toBeLessThan(THIRTY.length);
    },
  );

  it('bullets: a multi-line memory is kept whole on one line', () => {
    const r = renderContext([mem('ml', 'Line one.\nLine two.', 'fact', 1)], 'bullets', 100);
    expect(r.text).toBe(`${CONTEXT_HEADING}\n- Line one. Line two.`);
  });
});

describe('renderContext efficiency', () => {
  const counter = vi.mocked(countTokens);
  // Whole rendered blocks, not the fixed parts (`heading\n`, `heading\n<memory_context>\n`).
  const isWholeBlock = (text: string) =>
    (text.startsWith(CONTEXT_HEADING) && !/^[^\n]*\n(<memory_context>\n)?$/.test(text)) ||
    text.startsWith('{"memories":{"');
  beforeEach(() => {
    counter.mockClear(); // (a function returned from beforeEach would run as a teardown)
  });

  it.each(CONTEXT_FORMATS)('%s: tokenises each memory once and the whole block only a few times', (format) => {
    const fifty = [...THIRTY, ...THIRTY.slice(0, 20).map((m) => ({ ...m, id: `${m.id}-bis` }))];
    let worst = 0;
    for (const max of [50, 120, 200, 333, 500, 800, 1000, 100_000]) {
      counter.mockClear();
      renderContext(fifty, format, max);
      const calls = counter.mock.calls.map(([text]) => text);
      const whole = calls.filter(isWholeBlock).length;
      worst = Math.max(worst, whole);
      expect(whole).toBeLessThanOrEqual(2 * Math.ceil(Math.log2(fifty.length + 1)) + 1);
      expect(calls.length).toBeLessThanOrEqual(fifty.length + 2 + whole + MEMORY_CATEGORIES.length + 2);
    }
    // bullets/xml: the summed per-memory estimate is exact, so one verification plus one check of
    // the next memory. json: the estimate is approximate, corrected in a few steps.
    expect(worst).toBeLessThanOrEqual(format === 'json' ? 4 : 2);
  });
});
