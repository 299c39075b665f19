/**
 * What the rendering tests share (render.test.ts, render-budget.test.ts): a tiny strict XML parser that proves
 * the xml format well-formed, and thirty memories in ranking order with the helpers that read a block back.
 */
import { expect } from 'vitest';
import { CONTEXT_HEADING, type ContextFormat, type RenderableMemory } from './render';

// ---------------------------------------------------------------------------------------------
// A tiny strict XML parser (elements, attributes, text, the five predefined entities and numeric
// character references). Throws on anything not well-formed.

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: Array<XmlElement | string>;
}

const XML_NAME = /[A-Za-z_][A-Za-z0-9_.-]*/y;
const XML_CHAR = /^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export function parseXml(doc: string): XmlElement {
  if (!XML_CHAR.test(doc)) throw new Error('character not allowed in XML');
  let pos = 0;
  const fail = (why: string): never => {
    throw new Error(`${why} at ${pos}: ${JSON.stringify(doc.slice(pos, pos + 20))}`);
  };
  const name = (): string => {
    XML_NAME.lastIndex = pos;
    const m = XML_NAME.exec(doc);
    if (!m) fail('expected a name');
    pos += m![0].length;
    return m![0];
  };
  const spaces = (): number => {
    const start = pos;
    while (pos < doc.length && ' \t\r\n'.includes(doc[pos])) pos++;
    return pos - start;
  };
  const reference = (): string => {
    const m = /&(?:([a-z]+)|#([0-9]+)|#x([0-9a-fA-F]+));/y;
    m.lastIndex = pos;
    const r = m.exec(doc);
    if (!r) return fail('bad reference');
    pos += r[0].length;
    if (r[1] !== undefined) return ENTITIES[r[1]] ?? fail('unknown entity');
    const code = r[2] !== undefined ? Number(r[2]) : parseInt(r[3], 16);
    const ch = String.fromCodePoint(code);
    if (!XML_CHAR.test(ch)) fail('reference to a forbidden character');
    return ch;
  };
  const element = (): XmlElement => {
    if (doc[pos] !== '<') fail('expected <');
    pos++;
    const el: XmlElement = { name: name(), attrs: {}, children: [] };
    for (;;) {
      const gap = spaces();
      if (doc.startsWith('/>', pos)) {
        pos += 2;
        return el;
      }
      if (doc[pos] === '>') {
        pos++;
        break;
      }
      if (!gap) fail('expected whitespace before attribute');
      const attr = name();
      if (attr in el.attrs) fail('duplicate attribute');
      spaces();
      if (doc[pos] !== '=') fail('expected =');
      pos++;
      spaces();
      const quote = doc[pos];
      if (quote !== '"' && quote !== "'") fail('expected quoted value');
      pos++;
      let value = '';
      while (doc[pos] !== quote) {
        if (pos >= doc.length) fail('unterminated attribute');
        if (doc[pos] === '<') fail('< in attribute value');
        if (doc[pos] === '&') value += reference();
        else value += doc[pos++];
      }
      pos++;
      el.attrs[attr] = value;
    }
    let text = '';
    for (;;) {
      if (pos >= doc.length) fail(`unclosed <${el.name}>`);
      if (doc.startsWith('</', pos)) {
        if (text) el.children.push(text);
        pos += 2;
        if (name() !== el.name) fail('mismatched end tag');
        spaces();
        if (doc[pos] !== '>') fail('expected >');
        pos++;
        return el;
      }
      if (doc[pos] === '<') {
        if (text) el.children.push(text);
        text = '';
        el.children.push(element());
      } else if (doc[pos] === '&') {
        text += reference();
      } else {
        if (doc.startsWith(']]>', pos)) fail(']]> in text');
        text += doc[pos++];
      }
    }
  };
  spaces();
  const root = element();
  spaces();
  if (pos !== doc.length) fail('content after the root element');
  return root;
}

/** Checks the xml block layout and returns [category, text] per memory element. */
export function parseXmlBlock(text: string): Array<[string, string]> {
  const newline = text.indexOf('\n');
  expect(text.slice(0, newline)).toBe(CONTEXT_HEADING);
  const root = parseXml(text.slice(newline + 1));
  expect(root.name).toBe('memory_context');
  expect(root.attrs).toEqual({});
  const out: Array<[string, string]> = [];
  for (const child of root.children) {
    if (typeof child === 'string') {
      expect(child.trim()).toBe(''); // only line breaks between elements
      continue;
    }
    expect(child.name).toBe('memory');
    expect(Object.keys(child.attrs)).toEqual(['category']);
    expect(child.children.every((c) => typeof c === 'string')).toBe(true);
    out.push([child.attrs.category, child.children.join('')]);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Fixtures

export function mem(id: string, content: string, category: string, importance: number): RenderableMemory {
  return { id, content, category, importance };
}

/** 30 memories in ranking order, with importance ties, varied lengths and awkward characters. */
export const THIRTY: RenderableMemory[] = [
  mem('m01', 'Lives in Berlin with their partner Sam.', 'fact', 0.9),
  mem('m02', 'Prefers dark mode in every app.', 'preference', 0.4),
  mem('m03', 'Training for the Berlin marathon on 28 September; wants a sub-4-hour finish.', 'goal', 0.8),
  mem('m04', 'Senior Rust engineer, ten years of systems programming.', 'expertise', 0.7),
  mem('m05', 'Sister Ana lives in Lisbon.', 'relationship', 0.5),
  mem('m06', 'Reviews pull requests every morning before stand-up.', 'procedure', 0.3),
  mem('m07', 'Moved to Berlin in March 2021.', 'event', 0.6),
  mem('m08', 'Is vegetarian.', 'fact', 0.9),
  mem('m09', 'Wrote a note: <script>alert("x")</script> & \'quotes\'.', 'fact', 0.2),
  mem('m10', 'Likes short answers with code examples.', 'preference', 0.8),
  mem('m11', 'Allergic to peanuts.', 'fact', 1),
  mem('m12', 'Wants to learn Japanese before a trip to Kyoto next spring.', 'goal', 0.5),
  mem('m13', 'Knows PostgreSQL internals well (WAL, MVCC, vacuum).', 'expertise', 0.4),
  mem('m14', 'Works with a manager called Priya, who prefers written updates.', 'relationship', 0.3),
  mem('m15', 'Deploys on Fridays only with a rollback plan.', 'procedure', 0.2),
  mem('m16', 'Ran a half marathon in 1:52 in April 2024.', 'event', 0.5),
  mem('m17', 'Favourite café: Café Übersee — oat flat white, ☕ no sugar.', 'preference', 0.1),
  mem('m18', 'Uses Neovim with a Lua config.', 'preference', 0.3),
  mem('m19', 'Has two cats, Miso and Nori.', 'fact', 0.6),
  mem('m20', 'Mentioned the string <|endoftext|> in a bug report.', 'event', 0.1),
  mem('m21', 'Goal: save 20% of income for a flat deposit by 2027.', 'goal', 0.7),
  mem('m22', 'Speaks German (B2), Portuguese (native) and English (C2).', 'expertise', 0.6),
  mem('m23', 'Father is recovering from knee surgery.', 'relationship', 0.7),
  mem('m24', 'Plans meals on Sunday evenings.', 'procedure', 0.4),
  mem('m25', 'Started a new job at a fintech startup in January.', 'event', 0.8),
  mem('m26', 'Dislikes being asked follow-up questions before getting an answer.', 'preference', 0.5),
  mem('m27', 'Birthday is 14 May.', 'fact', 0.5),
  mem('m28', 'Tags: a&b <c> "d" \'e\' — keep & escape.', 'custom-tag', 0.2),
  mem('m29', 'Prefers metric units.', 'preference', 0.6),
  mem('m30', 'Wants weekly summaries on Monday mornings, not daily ones.', 'preference', 0.4),
];

export const byId = new Map(THIRTY.map((m) => [m.id, m]));

/** Every kept memory must outrank every dropped one (importance desc, then rank asc). */
export function outranks(a: RenderableMemory, b: RenderableMemory, list: RenderableMemory[]): boolean {
  if (a.importance !== b.importance) return a.importance > b.importance;
  return list.indexOf(a) < list.indexOf(b);
}

/** The memories' contents as the block shows them, in block order, checking the layout. */
export function blockContents(text: string, format: ContextFormat): Array<{ category?: string; content: string }> {
  switch (format) {
    case 'bullets': {
      const [heading, ...lines] = text.split('\n');
      expect(heading).toBe(CONTEXT_HEADING);
      return lines.map((line) => {
        expect(line.startsWith('- ')).toBe(true);
        return { content: line.slice(2) };
      });
    }
    case 'json': {
      const parsed = JSON.parse(text) as { memories: Record<string, string[]> };
      expect(Object.keys(parsed)).toEqual(['memories']);
      return Object.entries(parsed.memories).flatMap(([category, list]) => {
        expect(Array.isArray(list)).toBe(true);
        expect(list.length).toBeGreaterThan(0);
        return list.map((content) => {
          expect(typeof content).toBe('string');
          return { category, content };
        });
      });
    }
    case 'xml':
      return parseXmlBlock(text).map(([category, content]) => ({ category, content }));
  }
}

// ---------------------------------------------------------------------------------------------
