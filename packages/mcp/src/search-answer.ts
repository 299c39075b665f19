/** search_memories' answer: the prompt block first (what a model pastes into its context), then everything as JSON. */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ok } from './result';

export function searchAnswer(result: { system_prompt_addition: string }): CallToolResult {
  const block = result.system_prompt_addition || '(no memories matched)';
  return ok(result as unknown as Record<string, unknown>, block);
}
