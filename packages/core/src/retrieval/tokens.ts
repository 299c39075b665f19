/**
 * Exact token counting for prompt-ready context blocks.
 *
 * Counts use the OpenAI `o200k_base` BPE encoding (GPT-4o, GPT-4.1, GPT-5, o-series) through the
 * pure-JS `gpt-tokenizer` package. Only that one encoding is imported (per-encoding entry point),
 * so the other vocabularies are never loaded.
 *
 * Memory content is user-derived text, so it is always counted as plain text: a string such as
 * `<|endoftext|>` inside a memory is counted as the ordinary characters it is made of (exactly
 * what an OpenAI chat API does with message content), instead of throwing as `gpt-tokenizer`
 * does by default for special-token text.
 */
import {
  countTokens as countO200k,
  isWithinTokenLimit as isWithinO200kLimit,
} from 'gpt-tokenizer/encoding/o200k_base';

/** Name of the encoding every count in this module uses. */
export const TOKENIZER_NAME = 'o200k_base';

/**
 * Encode options treating special-token text as plain text. An empty `disallowedSpecial` set (and
 * no `allowedSpecial`) disables both the "disallowed special token" check and special-token
 * matching. Module-private: gpt-tokenizer never mutates a `disallowedSpecial` set.
 */
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * Counts of short strings are remembered: the same memory lines are counted on every retrieve, and a
 * count depends on the text alone. Bounded; cleared when full.
 */
const memo = new Map<string, number>();
const MEMO_MAX_ENTRIES = 50_000;
const MEMO_MAX_CHARS = 512;

/** Exact number of `o200k_base` tokens in `text` (0 for the empty string). Never throws. */
export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  if (text.length > MEMO_MAX_CHARS) return countO200k(text, PLAIN_TEXT);
  let n = memo.get(text);
  if (n === undefined) {
    n = countO200k(text, PLAIN_TEXT);
    if (memo.size >= MEMO_MAX_ENTRIES) memo.clear();
    memo.set(text, n);
  }
  return n;
}

/**
 * Whether `text` has at most `limit` tokens. Stops encoding as soon as the limit is passed, so
 * it is cheaper than `countTokens(text) <= limit` for long texts. A negative or NaN limit is
 * never satisfied; `Infinity` always is.
 */
export function withinTokenLimit(text: string, limit: number): boolean {
  if (!(limit >= 0)) return false;
  if (text.length === 0) return true;
  // isWithinTokenLimit returns the count (possibly 0) when within the limit, `false` otherwise.
  return isWithinO200kLimit(text, limit, PLAIN_TEXT) !== false;
}
