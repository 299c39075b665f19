/**
 * PATCH /v1/memories/{memory_id}: an edit of content, category or importance, recorded as a new revision of the
 * claim ledger (who, when, each field before and after; docs/direct-operations.md). New content is indexed as an
 * extracted memory's is (fingerprint, claim slot, stems and offline vector, entity links; the configured
 * embeddings model's vector right after the transaction), and the user's version moves so retrieval sees the edit.
 */
import { type Db, and, eq, memories, memoryEntities, sql } from '@memory/db';
import { embedMemoriesById } from '../embeddings/store';
import { Errors } from '../errors';
import { storeComposition } from '../jobs/store-composition';
import { prepareStore } from '../jobs/prepare-store';
import { getMemoryDetail } from '../memories/detail';
import { lockMemory } from '../memories/manage';
import { memoryFingerprint } from '../memories/fingerprint';
import { ledgerRow } from '../memories/ledger';
import { MemoryWriter } from '../memories/writer';
import type { MemoryCategory } from '../categories';
import type { MemoryDetail, UpdateMemoryRequest } from '../schemas/direct';
import type { Principal } from '../principal';
import type { DirectDeps } from './create';

type MemoryRow = typeof memories.$inferSelect;
type Field = 'content' | 'category' | 'importance';

/** The fields the edit really changes, with their values before and after (an unchanged field is left out). */
export function editedFields(m: Pick<MemoryRow, Field>, body: UpdateMemoryRequest): Partial<Record<Field, { before: unknown; after: unknown }>> {
  const out: Partial<Record<Field, { before: unknown; after: unknown }>> = {};
  const content = body.content?.trim();
  if (content !== undefined && content !== m.content) out.content = { before: m.content, after: content };
  if (body.category !== undefined && body.category !== m.category) out.category = { before: m.category, after: body.category };
  if (body.importance !== undefined && body.importance !== m.importance) out.importance = { before: m.importance, after: body.importance };
  return out;
}

/**
 * The REST API (an API key) and the console (`memories.edit`, an admin) both edit through here; the ledger revision
 * names `auth.actor` and where the edit came from.
 */
export async function updateMemory(
  deps: Pick<DirectDeps, 'db' | 'embeddings' | 'log'>,
  auth: Principal,
  memoryId: string,
  body: UpdateMemoryRequest,
): Promise<MemoryDetail> {
  const { changed, detail } = await deps.db.transaction(async (tx) => {
    const m = await lockMemory(tx, auth, memoryId);
    // An inactive memory lost a conflict or waits for a review, an archived one was deleted or decayed: the
    // ledger decides those, an edit would hide the decision. State the fact anew with POST /v1/memories instead.
    if (m.status !== 'active') {
      throw Errors.conflict(`Memory ${memoryId} is ${m.status}; only active memories can be edited (docs/direct-operations.md).`);
    }
    if (body.content === undefined && body.category === undefined && body.importance === undefined) {
      throw Errors.validation([{ path: '(body)', message: 'name at least one of content, category, importance' }]);
    }
    const fields = editedFields(m, body);
    if (Object.keys(fields).length === 0) return { changed: false, detail: await getMemoryDetail(tx, auth, memoryId) };
    const content = (fields.content?.after as string | undefined) ?? m.content;
    const category = (fields.category?.after as MemoryCategory | undefined) ?? (m.category as MemoryCategory);
    await tx
      .update(memories)
      .set({
        content,
        category,
        importance: body.importance ?? m.importance,
        ...(fields.content ? await reindexed(tx, m, content, category) : {}),
        updatedAt: sql`now()`,
      })
      .where(eq(memories.id, m.id));
    const writer = new MemoryWriter(tx, auth.tenantId);
    writer.record(
      ledgerRow(
        { ...m, content },
        {
          action: 'edited',
          from: m.status,
          to: m.status,
          reason: `edited ${auth.actor.startsWith('admin:') ? 'in the console' : 'through the API'}: ${Object.keys(fields).join(', ')}`,
          actor: auth.actor,
          details: Object.fromEntries(Object.entries(fields)),
        },
      ),
    );
    await writer.commit();
    return { changed: Boolean(fields.content), detail: await getMemoryDetail(tx, auth, memoryId) };
  });
  if (changed && deps.embeddings) await embedMemoriesById(deps.db, auth.tenantId, [memoryId], deps.embeddings, deps.log);
  return detail;
}

/**
 * The columns new content implies, computed as the store step computes them (jobs/prepare-store.ts): the
 * fingerprint, the claim, the stored ranking inputs; the old vector is dropped and the entity links are made anew.
 */
async function reindexed(tx: Db, m: MemoryRow, content: string, category: MemoryCategory) {
  const memory = { content, category, importance: m.importance, confidence: m.confidence, messageIndices: [] };
  const prepared = prepareStore({ memories: [memory] });
  const claim = prepared.claims[0];
  await tx.delete(memoryEntities).where(and(eq(memoryEntities.tenantId, m.tenantId), eq(memoryEntities.memoryId, m.id)));
  await storeComposition(tx, m, { memories: [memory] }, prepared.composition, [m.id]);
  return {
    fingerprint: memoryFingerprint(content),
    subject: claim?.subject ?? null,
    claimValue: claim?.value ?? null,
    claimNegated: claim?.negated ?? false,
    embedding: null,
    embeddingModel: null,
    ...prepared.analyses[0],
  };
}
