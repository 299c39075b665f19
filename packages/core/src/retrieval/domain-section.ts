/**
 * The domain-aware section of `system_prompt_addition` (spec, retrieve rule 6; docs/domain-schemas.md).
 * With the EdTech schema, a short "Learner profile" follows the memory block, in the requested format:
 *
 *     bullets                      xml                                         json
 *     Learner profile:             Learner profile:                            {"memories":{…},"learner_profile":
 *     - Level: 10th grade          <learner_profile>                             {"level":["10th grade"],
 *     - Struggles: fractions       <field name="level">10th grade</field>         "struggles":["fractions"]}}
 *                                  </learner_profile>
 *
 * In bullets and xml the section is separated from the memory block by a blank line; in json it is a second
 * key of the same object, so the whole block still parses. Fields of one line are joined with `; `.
 *
 * Budget: the section may use at most SECTION_SHARE of `context_max_tokens`; its lines are dropped whole
 * (lowest priority last in `lines`), never cut. The memories get the rest, and the combined text is measured
 * again: `context_token_count` is always the exact count of the returned text and never exceeds the budget.
 */
import type { Db } from '@memory/db';
import type { RankableRow } from './hot-tier';
import { escapeXml, type ContextFormat, type RenderedContext } from './render';
import { countTokens } from './tokens';

export interface SectionLine {
  /** json key and xml `name`, e.g. `struggles`. */
  key: string;
  /** bullets label, e.g. `Struggles`. */
  label: string;
  values: string[];
}

export interface DomainSection {
  /** Heading of bullets and xml, e.g. `Learner profile:`. */
  heading: string;
  /** xml element and json key, e.g. `learner_profile`. */
  element: string;
  /** In priority order: the first lines are kept longest. */
  lines: SectionLine[];
}

/**
 * How a domain schema adds its section to retrieve (retrieve rule 6). Each domain module registers its own
 * (domains/edtech.ts, domains/support.ts), so retrieval names no domain: a new schema registers one more.
 */
export interface DomainSectionSource<Extra = unknown> {
  /** What the section reads beside the user's memories, fetched in parallel with them (null when absent). */
  load?: (db: Db, tenantId: string, userId: string) => Promise<Extra>;
  /** The section from the user's whole active set (not only the ranked memories), whatever the query. */
  build: (externalUserId: string, rows: readonly RankableRow[], now: Date, extra: Extra | null) => DomainSection | null;
}

const sources = new Map<string, DomainSectionSource>();

export function registerDomainSection<Extra>(schema: string, source: DomainSectionSource<Extra>): void {
  sources.set(schema, source as DomainSectionSource);
}

/** The registered section of a tenant's domain schema; none for `none` or a schema without a section. */
export const domainSectionSource = (schema: string): DomainSectionSource | null => sources.get(schema) ?? null;

/** The largest part of the budget the section may take; the memories always keep the rest. */
export const SECTION_SHARE = 0.4;

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

/** The section with its first `k` lines, in `format` (for json: the `"element":{…}` member without braces). */
export function renderSection(section: DomainSection, format: ContextFormat, k: number): string {
  const lines = section.lines.slice(0, k);
  if (lines.length === 0) return '';
  switch (format) {
    case 'bullets':
      return [section.heading, ...lines.map((l) => `- ${l.label}: ${oneLine(l.values.join('; '))}`)].join('\n');
    case 'xml':
      return [
        section.heading,
        `<${section.element}>`,
        ...lines.map((l) => `<field name="${escapeXml(l.key)}">${escapeXml(oneLine(l.values.join('; ')))}</field>`),
        `</${section.element}>`,
      ].join('\n');
    case 'json':
      return `${JSON.stringify(section.element)}:${JSON.stringify(Object.fromEntries(lines.map((l) => [l.key, l.values])))}`;
    default:
      throw new Error(`Unknown context format: ${String(format)}`);
  }
}

/** The memory block and the section as one text. */
function joinBlocks(memoryText: string, sectionText: string, format: ContextFormat): string {
  if (!sectionText) return memoryText;
  if (format === 'json') return memoryText ? `${memoryText.slice(0, -1)},${sectionText}}` : `{${sectionText}}`;
  return memoryText ? `${memoryText}\n\n${sectionText}` : sectionText;
}

/**
 * Renders memories (through `renderMemories`, the budgeted memory renderer) and the section together within
 * `maxTokens`. The section takes the longest prefix of its lines that fits in SECTION_SHARE of the budget;
 * the memories get what remains, re-rendered with a smaller budget in the rare case the join adds tokens.
 */
export function renderWithSection(
  renderMemories: (maxTokens: number) => RenderedContext,
  section: DomainSection | null,
  format: ContextFormat,
  maxTokens: number,
): RenderedContext & { sectionLines: number } {
  if (!section || section.lines.length === 0 || !(maxTokens > 0)) return { ...renderMemories(maxTokens), sectionLines: 0 };
  const share = Math.floor(maxTokens * SECTION_SHARE);
  // Section size in the combined text: measured as joined to an empty json object / after a blank line.
  const cost = (k: number) => countTokens(joinBlocks(format === 'json' ? '{}' : 'x', renderSection(section, format, k), format)) - 1;
  let k = section.lines.length;
  while (k > 0 && cost(k) > share) k--;
  const sectionText = renderSection(section, format, k);
  let memoryBudget = maxTokens - (k > 0 ? cost(k) : 0);
  for (;;) {
    const memories = renderMemories(memoryBudget);
    const text = joinBlocks(memories.text, sectionText, format);
    const tokenCount = countTokens(text);
    if (tokenCount <= maxTokens || memoryBudget <= 0) {
      if (tokenCount <= maxTokens) return { ...memories, text, tokenCount, sectionLines: k };
      break;
    }
    memoryBudget -= tokenCount - maxTokens;
  }
  // Only reachable if the section alone does not fit (it is within the share, so practically never).
  return { ...renderMemories(maxTokens), sectionLines: 0 };
}
