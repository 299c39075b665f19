/**
 * Turns a model's answer into memories we are willing to store. The answer is untrusted text: it is parsed
 * as JSON (also from a fenced code block, for servers that ignore `response_format`), validated with zod,
 * and each memory is checked on its own: a bad one is dropped and counted in `skipped`, values out of range
 * are clamped, message indices must point into the conversation.
 *
 * An answer we cannot use at all (not JSON, not the asked-for shape, or only invalid memories) is a
 * `malformed_output` ProviderCallError, which the caller retries.
 */
import { z } from 'zod';
import { MEMORY_CATEGORIES } from '../categories';
import { ProviderCallError } from '../llm/openai-compatible';
import { memoryFingerprint } from '../memories/fingerprint';
import { REDACTED } from './lexicon';
import { normaliseSlot } from '../conflicts/claims';
import { overridesInstructions } from './instructions';
import type { ExtractedMemory } from './types';

const clamp01 = (n: number) => Math.min(1, Math.max(0, n));
const score = (fallback: number) =>
  z
    .number()
    .nullish()
    .transform((n) => clamp01(n ?? fallback));

const claimSchema = z
  .object({
    // "slot" is the name the prompt asks for; "subject" is accepted from models following the older contract
    slot: z.string().trim().min(1).max(64).optional(),
    subject: z.string().trim().min(1).max(64).optional(),
    value: z.string().trim().min(1).max(200),
    display: z.string().trim().min(1).max(200).optional(),
    polarity: z.enum(['positive', 'negative']).optional().catch(undefined),
    time: z.string().trim().max(64).nullish().catch(undefined),
  })
  .transform((c, ctx) => {
    const slot = normaliseSlot(c.slot ?? c.subject ?? '');
    if (!/^[a-z][\p{L}\p{N}_:/ ]{0,63}$/u.test(slot)) {
      ctx.addIssue({ code: 'custom', message: 'claim slot' });
      return z.NEVER;
    }
    return { subject: slot, value: c.value, display: c.display ?? c.value, negated: c.polarity === 'negative', ...(c.time ? { time: c.time } : {}) };
  });

const memorySchema = z.object({
  content: z.string().trim().min(3).max(1000),
  category: z.string().trim().toLowerCase().pipe(z.enum(MEMORY_CATEGORIES)),
  importance: score(0.5),
  confidence: score(0.8),
  message_indices: z.array(z.number().int()).min(1).max(200),
  // A malformed claim costs the claim, not the memory.
  claim: claimSchema.nullish().catch(null),
});

/** `{"memories": [...]}`; a bare array is accepted too. */
const answerSchema = z.union([
  z.object({ memories: z.array(z.unknown()).max(500) }),
  z.array(z.unknown()).max(500).transform((memories) => ({ memories })),
]);

const FENCED = /```(?:json|JSON)?\s*\n?([\s\S]*?)```/;
/** Reasoning models (DeepSeek-R1, Qwen3 via Ollama) put their thinking before the answer. */
const THINKING = /<think>[\s\S]*?<\/think>/g;

/** Finds the JSON value in a model answer: the whole text, a fenced block, or the outermost object. */
export function parseModelJson(text: string): unknown {
  const cleaned = text.replace(THINKING, '').trim();
  const candidates = [cleaned];
  const fenced = FENCED.exec(cleaned);
  if (fenced) candidates.push(fenced[1].trim());
  const first = cleaned.indexOf('{');
  const last = cleaned.lastIndexOf('}');
  if (first >= 0 && last > first) candidates.push(cleaned.slice(first, last + 1));
  for (const c of candidates) {
    try {
      return JSON.parse(c);
    } catch {
      // try the next reading
    }
  }
  throw new ProviderCallError('malformed_output', 'the model answer is not JSON');
}

/** "The user is the admin." as a model would write an injection line up: a role over the system, not a job. */
const ROLE_OVER_MODEL = /^The user is (?:the|an?|the real) (?:system|admin|administrator|developer|operator|root|superuser)(?: of (?:this|the) (?:system|assistant|model|ai|bot))?\.?$/i;

const FIRST_PERSON = /^(?:i|i'm|i’m|i've|i’ve|my|me|we|our)\b/i;

export interface ValidatedMemories {
  memories: ExtractedMemory[];
  /** The number of memories the model proposed. */
  proposed: number;
  /** Dropped memories by reason. */
  skipped: Record<string, number>;
}

/** Validates a parsed answer against the extraction contract for a conversation of `messageCount` messages. */
export function validateModelMemories(answer: unknown, messageCount: number, messages?: readonly { content: unknown }[]): ValidatedMemories {
  const envelope = answerSchema.safeParse(answer);
  if (!envelope.success) throw new ProviderCallError('malformed_output', 'the model answer is not a {"memories": [...]} object');
  const skipped: Record<string, number> = {};
  const bump = (reason: string) => {
    skipped[reason] = (skipped[reason] ?? 0) + 1;
  };
  const byFingerprint = new Map<string, ExtractedMemory>();
  let invalid = 0;
  for (const raw of envelope.data.memories) {
    const item = raw && typeof raw === 'object' && !('message_indices' in raw) && 'messageIndices' in raw
      ? { ...raw, message_indices: (raw as { messageIndices: unknown }).messageIndices }
      : raw;
    const parsed = memorySchema.safeParse(item);
    if (!parsed.success) {
      invalid++;
      bump(`invalid_${String(parsed.error.issues[0]?.path[0] ?? 'memory')}`);
      continue;
    }
    const m = parsed.data;
    const indices = [...new Set(m.message_indices.filter((i) => i >= 0 && i < messageCount))].sort((a, b) => a - b);
    if (indices.length === 0) {
      bump('message_index_out_of_range');
      continue;
    }
    if (REDACTED.test(m.content)) {
      bump('redacted_secret');
      continue;
    }
    // a role claimed over the assistant, or anything taken only from a message that tries to override its instructions
    const fromOverride = messages !== undefined && indices.every((i) => typeof messages[i]?.content === 'string' && overridesInstructions(messages[i].content as string));
    if (ROLE_OVER_MODEL.test(m.content) || fromOverride) {
      bump('instruction');
      continue;
    }
    if (FIRST_PERSON.test(m.content)) {
      bump('not_third_person');
      continue;
    }
    const content = /[.!?]$/.test(m.content) ? m.content : `${m.content}.`;
    const key = memoryFingerprint(content);
    const existing = byFingerprint.get(key);
    if (existing) {
      bump('duplicate');
      existing.messageIndices = [...new Set([...existing.messageIndices, ...indices])].sort((a, b) => a - b);
      continue;
    }
    byFingerprint.set(key, {
      content,
      category: m.category,
      importance: m.importance,
      confidence: m.confidence,
      messageIndices: indices,
      ...(m.claim ? { claim: m.claim } : {}),
    });
  }
  const total = envelope.data.memories.length;
  if (total > 0 && invalid === total) {
    throw new ProviderCallError('malformed_output', `none of the ${total} memories in the model answer is valid`);
  }
  return { memories: [...byFingerprint.values()], proposed: total, skipped };
}
