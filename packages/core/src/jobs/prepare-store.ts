/**
 * The CPU work of the store step, done before its transaction and apart from the database: each memory's claim
 * and index analysis (terms, word vector), the compositional pass, and the passages of the conversation with
 * their analyses. It is a pure function of the extraction result and the messages, so it can run on an
 * extraction thread (extraction/threads.ts) while the event loop serves requests; its result is plain data
 * (structured-clone and JSON safe).
 */
import { type Claim, claimOfMemory, slotWords } from '../conflicts/claims';
import { type PassageDraft, splitPassages } from '../evidence/passages';
import { type Composition, composeMemories } from '../extraction/compose';
import type { ExtractionResult } from '../extraction/types';
import type { ConversationMessage } from '../messages';
import { type StoredAnalysis, analyseForIndex } from '../text/analysis';

export interface PreparedStore {
  /** Per memory of the result, in order. */
  claims: (Claim | null)[];
  analyses: StoredAnalysis[];
  /** The compositional pass's reading of the memories, or why it failed (never fails the job). */
  composition: Composition | { error: string };
  /** The conversation's passages (docs/evidence-layer.md) with their analyses; null when no messages were given. */
  passages: (PassageDraft & StoredAnalysis)[] | null;
}

export function prepareStore(result: Pick<ExtractionResult, 'memories' | 'composition'>, messages?: readonly ConversationMessage[]): PreparedStore {
  // The provider's own claim when it gave one (the pluggable step), else the built-in rules.
  const claims = result.memories.map((m) => claimOfMemory(m));
  return {
    claims,
    analyses: result.memories.map((m, i) => analyseForIndex(m.content, undefined, slotWords(claims[i]))),
    composition: composeOrError(result),
    passages: messages ? splitPassages(messages).map((d) => ({ ...d, ...analyseForIndex(d.content, undefined, d.answers) })) : null,
  };
}

/**
 * The compositional pass's results: the entities the stored memories mention (one row per user and
 * name, mention counts), links from each memory to them, and the relationships read from them.
 * An error here never fails the job: it is reported in `compositional_error`.
 */
function composeOrError(result: Pick<ExtractionResult, 'memories' | 'composition'>): Composition | { error: string } {
  if (result.memories.length === 0) return { entities: [], relationships: [] };
  try {
    return result.composition ?? composeMemories(result.memories);
  } catch (err) {
    return { error: `the compositional pass failed: ${(err as Error).name}` };
  }
}

/** Whether `prepared` was made for this result (a thread's answer is checked before it is trusted). */
export function preparedFits(prepared: PreparedStore, result: Pick<ExtractionResult, 'memories'>): boolean {
  return prepared.claims.length === result.memories.length && prepared.analyses.length === result.memories.length;
}
