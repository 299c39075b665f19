/** The messages between the calling thread and an extraction thread (jobs/threads.ts, jobs/thread-main.ts). */
import type { ExtractionInput, ExtractionResult } from '../extraction/types';
import type { ConversationMessage } from '../messages';
import type { PreparedStore } from './prepare-store';

export type ThreadRequest =
  | { type: 'extract'; id: number; input: ExtractionInput }
  | { type: 'prepare'; id: number; result: Pick<ExtractionResult, 'memories' | 'composition'>; messages: readonly ConversationMessage[] | null };

export type ThreadReply =
  | { id: number; ok: true; value: ExtractionResult | PreparedStore }
  | { id: number; ok: false; error: { name: string; message: string } };
