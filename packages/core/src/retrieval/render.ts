/**
 * Rendering of retrieved memories into the prompt-ready context block.
 *
 * Pure functions, no I/O. The retrieve endpoint uses them for:
 * - `context_snippet` of each memory: `renderSnippet(memory, format)`;
 * - `system_prompt_addition` and `context_token_count`: `renderContext(memories, format, max)`.
 *
 * Formats (the `format` request field, default `bullets`):
 *
 * bullets — the heading line, then one line per memory starting with `- `:
 *
 *     Known information about the user:
 *     - Lives in Berlin.
 *     - Prefers dark mode.
 *
 *   Line breaks inside a memory are replaced by a single space (in the block and in the
 *   snippet) so each memory stays on exactly one line and cannot forge extra lines.
 *
 * json — compact JSON (no whitespace; chosen over pretty-printing because the block counts
 *   against a token budget and indentation costs tokens without adding information). No heading:
 *   `system_prompt_addition` is exactly the JSON text, so it can be `JSON.parse`d as is:
 *
 *     {"memories":{"fact":["Lives in Berlin."],"preference":["Prefers dark mode."]}}
 *
 *   Only categories with at least one kept memory appear. Keys follow the canonical order of
 *   `MEMORY_CATEGORIES`; a category outside that list comes after them, in order of first
 *   appearance. Each array keeps the ranking order. The JSON snippet of one memory is
 *   `{"category":"fact","memory":"Lives in Berlin."}`.
 *
 * xml — the heading line, then a `memory_context` element with one `memory` element per memory
 *   (one per line, no indentation, again to save tokens):
 *
 *     Known information about the user:
 *     <memory_context>
 *     <memory category="fact">Lives in Berlin.</memory>
 *     <memory category="preference">Prefers dark mode.</memory>
 *     </memory_context>
 *
 *   Text and attribute values escape all of `& < > " '`. Characters XML 1.0 forbids outright
 *   (C0 controls other than tab/LF/CR, lone surrogates, U+FFFE/U+FFFF) cannot be written even as
 *   character references, so they are replaced by U+FFFD to keep the block well-formed.
 *
 * Token budget (`context_max_tokens`), counted with `countTokens` (o200k_base) over the WHOLE
 * rendered string, heading and wrapper included:
 * - Memories are dropped whole, never cut: lowest importance first, and among equal importance
 *   the lower-ranked (later in the input) first. The kept memories are therefore the longest
 *   prefix of the priority order (importance desc, rank asc) whose rendering fits; a less
 *   important memory is never kept in place of a more important one that was dropped.
 * - Kept memories stay in input (relevance) order.
 * - If not even the heading/wrapper plus the single most important memory fits, the result is
 *   the empty string with count 0 (a heading with no memories would tell the model nothing).
 *   Zero memories also give the empty string and count 0, as does a budget <= 0 or NaN.
 * - The returned `tokenCount` is always the exact count of the returned `text`, and never exceeds
 *   the budget: every candidate is verified by tokenising the final string.
 *
 * Cost: each memory is rendered and tokenised once; per-memory counts are summed to estimate the
 * largest prefix that fits, and the estimate is then verified (and corrected by a galloping plus
 * binary search on exact counts of the whole block). For bullets and xml the estimate is
 * almost always exact, so a call costs ~2 whole-block tokenisations (1 when everything fits);
 * the worst case is O(log n) whole-block tokenisations, never O(n²).
 */
import { MEMORY_CATEGORIES } from '../categories';
import { countTokens } from './tokens';

export type ContextFormat = 'bullets' | 'json' | 'xml';

export const CONTEXT_FORMATS: readonly ContextFormat[] = ['bullets', 'json', 'xml'];

export interface RenderableMemory {
  id: string;
  content: string;
  category: string;
  /** Higher = more important. NaN is treated as the lowest possible importance. */
  importance: number;
}

export interface RenderedContext {
  /** The block (`system_prompt_addition`); '' when nothing fits or there is nothing to render. */
  text: string;
  /** Exact token count of `text` (`context_token_count`); 0 for ''. */
  tokenCount: number;
  /** Ids of the memories in `text`, in input (ranking) order. */
  includedIds: string[];
  /** Ids of the memories left out for the budget, in input (ranking) order. */
  droppedIds: string[];
}

/** First line of the bullets and xml blocks (the json block has no heading). */
export const CONTEXT_HEADING = 'Known information about the user:';

const XML_OPEN = '<memory_context>';
const XML_CLOSE = '</memory_context>';

const XML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

/** Code points XML 1.0 does not allow anywhere in a document (lone surrogates included). */
const XML_INVALID_CHARS = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Escapes `& < > " '` and replaces characters XML 1.0 forbids with U+FFFD. */
export function escapeXml(text: string): string {
  return text
    .replace(XML_INVALID_CHARS, '\uFFFD')
    .replace(/[&<>"']/g, (ch) => XML_ESCAPES[ch]);
}

/** Line breaks (and the whitespace around them) collapse into one space. */
const LINE_BREAKS = /[^\S\r\n\v\f\u0085\u2028\u2029]*(?:\r\n|[\r\n\v\f\u0085\u2028\u2029])\s*/g;

function oneLine(text: string): string {
  return text.replace(LINE_BREAKS, ' ');
}

function bulletLine(content: string): string {
  return `- ${oneLine(content)}`;
}

function xmlElement(memory: RenderableMemory): string {
  return `<memory category="${escapeXml(memory.category)}">${escapeXml(memory.content)}</memory>`;
}

/**
 * This memory on its own (`context_snippet`):
 * - bullets: `- <content>` (line breaks in the content become spaces);
 * - json: `{"category":"<category>","memory":"<content>"}` (compact JSON text);
 * - xml: `<memory category="<category>"><content></memory>` (escaped).
 */
export function renderSnippet(memory: RenderableMemory, format: ContextFormat): string {
  switch (format) {
    case 'bullets':
      return bulletLine(memory.content);
    case 'json':
      return JSON.stringify({ category: memory.category, memory: memory.content });
    case 'xml':
      return xmlElement(memory);
    default:
      throw new Error(`Unknown context format: ${String(format)}`);
  }
}

/** How a format lays out a block, with additive token estimates for its parts. */
interface Layout {
  /** Estimated tokens of the block's fixed parts (heading, wrapper). */
  baseCost: number;
  /**
   * Estimated extra tokens for adding memory `i` (indices are added in priority order, each
   * once, so a layout may keep state such as which categories are already present).
   */
  addCost(i: number): number;
  /** The block holding exactly the memories whose `keep` flag is set, in input order. */
  render(keep: readonly boolean[]): string;
}

/**
 * bullets: `heading\n- a\n- b`. Cut into `heading\n`, `- a\n`, `- b` the pieces tokenise
 * independently (o200k's pre-tokeniser never joins a newline with a following `-`), so summing
 * `count(line + '\n')` over-counts by at most the one trailing newline.
 */
function bulletsLayout(memories: readonly RenderableMemory[]): Layout {
  const lines = memories.map((m) => bulletLine(m.content));
  return {
    baseCost: countTokens(`${CONTEXT_HEADING}\n`),
    addCost: (i) => countTokens(`${lines[i]}\n`),
    render(keep) {
      let text = CONTEXT_HEADING;
      for (let i = 0; i < lines.length; i++) if (keep[i]) text += `\n${lines[i]}`;
      return text;
    },
  };
}

/**
 * xml: `heading\n<memory_context>\n` + `<memory …>…</memory>\n` per memory + `</memory_context>`.
 * Every piece after the first starts with `<`, so the sum of piece counts is exact.
 */
function xmlLayout(memories: readonly RenderableMemory[]): Layout {
  const lines = memories.map((m) => `${xmlElement(m)}\n`);
  const head = `${CONTEXT_HEADING}\n${XML_OPEN}\n`;
  return {
    baseCost: countTokens(head) + countTokens(XML_CLOSE),
    addCost: (i) => countTokens(lines[i]),
    render(keep) {
      let text = head;
      for (let i = 0; i < lines.length; i++) if (keep[i]) text += lines[i];
      return text + XML_CLOSE;
    },
  };
}

/**
 * json: `{"memories":{"fact":["a","b"],"goal":["c"]}}`. o200k's pre-tokeniser turns each run of
 * punctuation into one piece, so a string's quotes merge with the commas and brackets around
 * it (`."],"`). The estimate therefore cuts the text at those runs: `{"memories":{"`, then per
 * category `fact":["`, per memory `a.","` (the content without its opening quote, plus `","`),
 * and one closing run. Close, not exact; the exact search in `renderContext` corrects it.
 */
function jsonLayout(memories: readonly RenderableMemory[]): Layout {
  const encoded = memories.map((m) => JSON.stringify(m.content));
  // Canonical categories first, then unknown ones by first appearance.
  const categoryOrder = new Map<string, number>();
  for (const c of MEMORY_CATEGORIES) categoryOrder.set(c, categoryOrder.size);
  for (const m of memories) if (!categoryOrder.has(m.category)) categoryOrder.set(m.category, categoryOrder.size);
  const orderedCategories = [...categoryOrder.keys()];
  const seen = new Set<string>();
  return {
    baseCost: countTokens('{"memories":{"') + 1, // + the closing `"]}}` run
    addCost(i) {
      const category = memories[i].category;
      let cost = countTokens(`${encoded[i].slice(1, -1)}","`);
      if (!seen.has(category)) {
        seen.add(category);
        cost += countTokens(`${JSON.stringify(category).slice(1, -1)}":["`);
      }
      return cost;
    },
    render(keep) {
      const groups = new Map<string, string[]>();
      for (let i = 0; i < memories.length; i++) {
        if (!keep[i]) continue;
        const category = memories[i].category;
        let group = groups.get(category);
        if (!group) groups.set(category, (group = []));
        group.push(encoded[i]);
      }
      const parts: string[] = [];
      for (const category of orderedCategories) {
        const group = groups.get(category);
        if (group) parts.push(`${JSON.stringify(category)}:[${group.join(',')}]`);
      }
      return `{"memories":{${parts.join(',')}}}`;
    },
  };
}

function layoutFor(format: ContextFormat, memories: readonly RenderableMemory[]): Layout {
  switch (format) {
    case 'bullets':
      return bulletsLayout(memories);
    case 'json':
      return jsonLayout(memories);
    case 'xml':
      return xmlLayout(memories);
    default:
      throw new Error(`Unknown context format: ${String(format)}`);
  }
}

/**
 * Largest k in [0, n] with fits(k), assuming fits is monotone (true up to some k, false after)
 * and fits(0) is true (never called). Gallops from `guess`, then binary-searches: one call to
 * `fits` when guess = n fits, two when guess is right, O(log n) in the worst case.
 */
function largestFitting(n: number, guess: number, fits: (k: number) => boolean): number {
  let lo: number; // known to fit
  let hi: number; // known not to fit (n + 1 = sentinel)
  if (guess === 0 || fits(guess)) {
    lo = guess;
    let step = 1;
    while (lo + step <= n && fits(lo + step)) {
      lo += step;
      step *= 2;
    }
    hi = Math.min(lo + step, n + 1);
  } else {
    hi = guess;
    let step = 1;
    while (hi - step > 0 && !fits(hi - step)) {
      hi -= step;
      step *= 2;
    }
    lo = Math.max(hi - step, 0);
  }
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (fits(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** NaN sorts as the lowest importance. */
function importanceKey(importance: number): number {
  return Number.isNaN(importance) ? -Infinity : importance;
}

/**
 * Renders the memories (given in ranking order, most relevant first) into one block of at most
 * `maxTokens` tokens, dropping whole memories by ascending importance (ties: lower-ranked first).
 * See the module comment for the layouts and the empty-result rules.
 */
export function renderContext(
  memories: readonly RenderableMemory[],
  format: ContextFormat,
  maxTokens: number,
): RenderedContext {
  const n = memories.length;
  const layout = layoutFor(format, memories); // validates `format` even for empty input
  if (n === 0 || !(maxTokens > 0)) {
    return { text: '', tokenCount: 0, includedIds: [], droppedIds: memories.map((m) => m.id) };
  }

  // Priority order: importance desc, then rank asc. Dropping walks it from the end.
  const priority = memories.map((_, i) => i);
  priority.sort((a, b) => {
    const d = importanceKey(memories[b].importance) - importanceKey(memories[a].importance);
    return d > 0 ? 1 : d < 0 ? -1 : a - b; // comparisons, not `d` itself: Infinity - Infinity = NaN
  });

  // Estimate: longest priority prefix whose summed piece costs fit. Stop tokenising once over.
  let estimate = layout.baseCost;
  let guess = 0;
  while (guess < n) {
    estimate += layout.addCost(priority[guess]);
    if (estimate > maxTokens) break;
    guess++;
  }

  // Verify on the whole rendered string, correcting the estimate in either direction.
  const exact = new Map<number, { text: string; tokenCount: number }>();
  const renderPrefix = (k: number) => {
    const keep: boolean[] = new Array(n).fill(false);
    for (let j = 0; j < k; j++) keep[priority[j]] = true;
    const text = layout.render(keep);
    return { text, tokenCount: countTokens(text) };
  };
  const fits = (k: number): boolean => {
    let rendered = exact.get(k);
    if (!rendered) exact.set(k, (rendered = renderPrefix(k)));
    return rendered.tokenCount <= maxTokens;
  };
  const kept = largestFitting(n, guess, fits);
  if (kept === 0) {
    return { text: '', tokenCount: 0, includedIds: [], droppedIds: memories.map((m) => m.id) };
  }

  const keep: boolean[] = new Array(n).fill(false);
  for (let j = 0; j < kept; j++) keep[priority[j]] = true;
  const includedIds: string[] = [];
  const droppedIds: string[] = [];
  memories.forEach((m, i) => (keep[i] ? includedIds : droppedIds).push(m.id));
  const { text, tokenCount } = exact.get(kept)!; // always measured: largestFitting saw it fit
  return { text, tokenCount, includedIds, droppedIds };
}
