/**
 * After a job stores its memories, the configured embeddings model (an OpenAI-compatible endpoint, or the
 * offline encoder) gives each new memory a vector, kept in `memories.embedding` with the model's name.
 * Retrieval compares it with the query's vector of the same model; memories without one are ranked with the
 * offline word vectors meanwhile. A failure here never fails the job: a memory the job could not embed (the
 * endpoint was down, the encoder timed out under load) or one embedded by another model (the model was
 * changed) gets its vector when its user's memories are next loaded for retrieval (`healMissingEmbeddings`).
 */
import { type Db, and, eq, inArray, isNull, memories } from '@memory/db';
import type { Logger } from '../logger';
import { bumpMemoryVersion } from '../users';
import type { EmbeddingsProvider } from './types';

export async function embedJobMemories(db: Db, jobId: string, provider: EmbeddingsProvider, log?: Logger): Promise<number> {
  const pending = await db
    .select({ id: memories.id, userId: memories.userId, content: memories.content })
    .from(memories)
    .where(and(eq(memories.jobId, jobId), isNull(memories.embedding)));
  return storeEmbeddings(db, provider, pending, log, { job_id: jobId });
}

/** Vectors for memories written or edited directly (docs/direct-operations.md), right after their transaction. */
export async function embedMemoriesById(db: Db, tenantId: string, ids: readonly string[], provider: EmbeddingsProvider, log?: Logger): Promise<number> {
  if (ids.length === 0) return 0;
  const pending = await db
    .select({ id: memories.id, userId: memories.userId, content: memories.content })
    .from(memories)
    .where(and(eq(memories.tenantId, tenantId), inArray(memories.id, [...ids]), isNull(memories.embedding)));
  return storeEmbeddings(db, provider, pending, log, { direct: true });
}

/** At most this many memories are embedded by one heal; the rest on the next load. */
export const HEAL_BATCH = 256;

const healing = new Set<string>();

/**
 * Gives the user's active memories that lack a vector of `provider`'s model one, in the background (the
 * caller does not wait; one heal per user at a time in this process). `rows` are the memories retrieval
 * loaded, with their text: nothing is read again. Returns the heal's promise, for tests.
 */
export function healMissingEmbeddings(
  db: Db,
  provider: EmbeddingsProvider,
  user: { tenantId: string; userId: string },
  rows: readonly { id: string; content: string; embedding?: unknown; embedding_model?: string | null }[],
  log?: Logger,
): Promise<number> | null {
  const missing = rows.filter((r) => r.embedding == null || r.embedding_model !== provider.name);
  if (missing.length === 0 || healing.has(user.userId)) return null;
  healing.add(user.userId);
  const pending = missing.slice(0, HEAL_BATCH).map((r) => ({ id: r.id, userId: user.userId, content: r.content }));
  return storeEmbeddings(db, provider, pending, log, { healed: true })
    .catch((err: unknown) => {
      log?.warn({ provider: provider.name, err_name: (err as Error).name }, 'healing missing memory vectors failed');
      return 0;
    })
    .finally(() => healing.delete(user.userId));
}

async function storeEmbeddings(
  db: Db,
  provider: EmbeddingsProvider,
  pending: { id: string; userId: string; content: string }[],
  log: Logger | undefined,
  fields: Record<string, unknown>,
): Promise<number> {
  if (pending.length === 0) return 0;
  let vectors: Float32Array[];
  try {
    vectors = await provider.embed(pending.map((m) => m.content));
  } catch (err) {
    log?.warn({ ...fields, provider: provider.name, err_name: (err as Error).name }, 'embedding memories failed; word vectors rank them until the next load heals them');
    return 0;
  }
  await db.transaction(async (tx) => {
    for (let i = 0; i < pending.length; i++) {
      await tx
        .update(memories)
        .set({ embedding: Array.from(vectors[i]), embeddingModel: provider.name })
        .where(eq(memories.id, pending[i].id));
    }
    // retrieval's hot tier notices the new vectors through the version
    await bumpMemoryVersion(tx, [...new Set(pending.map((m) => m.userId))]);
  });
  return pending.length;
}
