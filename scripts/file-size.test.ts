/**
 * A source file is read in one sitting: no tracked TypeScript or JavaScript file (tests included) is longer than
 * 400 lines, unless it is a table or a schema and says so in its header with a line that starts
 * "Over 400 lines: a table" or "Over 400 lines: a schema" followed by why (ARCHITECTURE.md, "File size").
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
export const MAX_LINES = 400;
const SOURCE = /\.(?:ts|tsx|mts|cts|js|mjs|cjs)$/;
const DECLARED = /^\s*(?:\*|\/\/)\s*Over 400 lines: a (?:table|schema)\b/im;

/** Lines of a file's text as an editor counts them (a final newline does not start a line). */
export function lineCount(text: string): number {
  if (text.length === 0) return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** The files over the limit that do not declare themselves a table or a schema in their first 30 lines. */
export function oversized(files: { path: string; text: string }[], max = MAX_LINES): string[] {
  return files
    .filter((f) => lineCount(f.text) > max && !DECLARED.test(f.text.split('\n').slice(0, 30).join('\n')))
    .map((f) => `${f.path} (${lineCount(f.text)} lines)`);
}

describe('file size', () => {
  it('counts lines and accepts only a declared table or schema over the limit', () => {
    const long = 'x\n'.repeat(401);
    expect(lineCount('a\nb\n')).toBe(2);
    expect(lineCount('a\nb')).toBe(2);
    expect(oversized([{ path: 'a.ts', text: long }])).toEqual(['a.ts (401 lines)']);
    expect(oversized([{ path: 'b.ts', text: `/**\n * Over 400 lines: a table of slots.\n */\n${long}` }])).toEqual([]);
    expect(oversized([{ path: 'c.ts', text: `// Over 400 lines: a schema (one per area).\n${long}` }])).toEqual([]);
    expect(oversized([{ path: 'd.ts', text: `/** Over 400 lines: because. */\n${long}` }])).toEqual(['d.ts (402 lines)']);
    expect(oversized([{ path: 'e.ts', text: 'x\n'.repeat(400) }])).toEqual([]);
  });

  it('holds for every tracked source file', () => {
    const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
      .split('\0')
      .filter((p) => SOURCE.test(p) && !p.includes('/generated/'));
    expect(tracked.length).toBeGreaterThan(100);
    const files = tracked.map((p) => ({ path: p, text: readFileSync(path.join(ROOT, p), 'utf8') }));
    expect(oversized(files)).toEqual([]);
  });
});
