/**
 * Writes a source event's passages (docs/evidence-layer.md) with their stored ranking inputs. Called by the
 * extraction job inside its transaction, and by the add path for a conversation the gate found nothing to
 * extract from (a question answered by the assistant is still evidence). `(source_event_id, message_index,
 * part)` is unique, so writing the same event twice stores each passage once. The caller bumps the user's
 * memory version when passages were written.
 */
import { randomUUID } from 'node:crypto';
import { type Db, passages } from '@memory/db';
import type { ConversationMessage } from '../messages';
import { type StoredAnalysis, analyseForIndex } from '../text/analysis';
import { type PassageDraft, splitPassages } from './passages';

export interface PassageSource {
  tenantId: string;
  userId: string;
  sourceEventId: string;
  jobId: string | null;
  agentId: string | null;
  observedAt: Date;
}

/** Rows per INSERT: a long conversation is hundreds of passages. */
const BATCH = 200;

export async function storePassages(db: Db, source: PassageSource, messages: readonly ConversationMessage[]): Promise<number> {
  return storeAnalysedPassages(db, source, splitPassages(messages).map((d) => ({ ...d, ...analyseForIndex(d.content, undefined, d.answers) })));
}

/** Writes passages already split and analysed (jobs/prepare-store.ts does it off the event loop). */
export async function storeAnalysedPassages(db: Db, source: PassageSource, drafts: readonly (PassageDraft & StoredAnalysis)[]): Promise<number> {
  let stored = 0;
  for (let i = 0; i < drafts.length; i += BATCH) {
    const values = drafts.slice(i, i + BATCH).map((d) => ({
      id: randomUUID(),
      ...source,
      messageIndex: d.messageIndex,
      part: d.part,
      role: d.role,
      speaker: d.speaker,
      content: d.content,
      terms: d.terms,
      vector: d.vector,
      vectorModel: d.vectorModel,
    }));
    const inserted = await db.insert(passages).values(values).onConflictDoNothing().returning({ id: passages.id });
    stored += inserted.length;
  }
  return stored;
}
