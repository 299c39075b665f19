/**
 * After a job stores its memories, the configured embeddings endpoint (when there is one) gives each new
 * memory a vector, kept in `memories.embedding` with the model's name. Retrieval compares it with the
 * query's vector of the same model; memories without one (the endpoint was down, or configured later)
 * are ranked with the offline word vectors instead. A failure here never fails the job.
 */
import { type Db, and, eq, isNull, memories } from '@memory/db';
import type { Logger } from '../logger';
import { bumpMemoryVersion } from '../users';
import type { EmbeddingsProvider } from './types';

export async function embedJobMemories(db: Db, jobId: string, provider: EmbeddingsProvider, log?: Logger): Promise<number> {
  const pending = await db
    .select({ id: memories.id, userId: memories.userId, content: memories.content })
    .from(memories)
    .where(and(eq(memories.jobId, jobId), isNull(memories.embedding)));
  if (pending.length === 0) return 0;
  let vectors: Float32Array[];
  try {
    vectors = await provider.embed(pending.map((m) => m.content));
  } catch (err) {
    log?.warn({ job_id: jobId, provider: provider.name, err_name: (err as Error).name }, 'embedding new memories failed; word vectors rank them');
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
    await bumpMemoryVersion(tx as unknown as Db, pending.map((m) => m.userId));
  });
  return pending.length;
}
