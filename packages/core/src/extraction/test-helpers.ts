/** Shared by the extraction rule tests (*.test.ts beside this file). */
import { expect, it } from 'vitest';
import type { ConversationMessage } from '../messages';
import { extractMemories } from './builtin';
import type { ExtractionResult } from './types';

/** `run(...)` extracts from user messages (strings) and other messages as of `observedAt`; `contents(...)` lists the memories. */
export function extractAt(observedAt: Date) {
  const run = (...messages: Array<string | ConversationMessage>): ExtractionResult =>
    extractMemories({ messages: messages.map((m) => (typeof m === 'string' ? { role: 'user', content: m } : m)), observedAt });
  const contents = (...messages: Array<string | ConversationMessage>) => run(...messages).memories.map((m) => m.content);
  return { run, contents };
}

/** One test per [message, memory] pair: the message alone yields exactly that memory. */
export function itExtracts(cases: Array<[string, string]>, observedAt: Date, title = '%s'): void {
  const { contents } = extractAt(observedAt);
  it.each(cases)(title, (input, expected) => {
    expect(contents(input)).toEqual([expected]);
  });
}
