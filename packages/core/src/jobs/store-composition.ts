/**
 * The store step's compositional part (extraction-pipeline.ts): the entities and relationships the compositional
 * pass found, linked to the memories of this run.
 */
import { randomUUID } from 'node:crypto';
import {
  type Db,
  and,
  entities,
  entityRelationships,
  eq,
  inArray,
  memoryEntities,
  sql,
} from '@memory/db';
import type { Composition } from '../extraction/compose';
import type { ExtractionResult } from '../extraction/types';

export async function storeComposition(
  tx: Db,
  /** The user whose memories these are (a job, or a memory edited directly). */
  job: { tenantId: string; userId: string },
  result: Pick<ExtractionResult, 'memories'>,
  composed: Composition | { error: string },
  stored: (string | null)[],
) {
  const report = {
    compositional_pass_attempted: true,
    compositional_pass_used: false,
    compositional_entities: 0,
    compositional_relationships: 0,
    compositional_error: null as string | null,
  };
  if (result.memories.length === 0) return { ...report, compositional_pass_attempted: false };
  if ('error' in composed) return { ...report, compositional_error: composed.error };
  const composition = composed;
  // Three statements for the whole job, whatever the number of entities: the entities (new ones inserted, known
  // ones counted once more), the memory links, the relationships.
  const linked = new Map<string, { e: Composition['entities'][number]; memoryIds: string[] }>();
  for (const e of composition.entities) {
    const memoryIds = [...new Set(e.memoryIndices.map((i) => stored[i]).filter((id): id is string => Boolean(id)))];
    if (memoryIds.length === 0) continue;
    const seen = linked.get(e.normalized);
    // one row per normalized name: a statement may not update the same row twice
    if (seen) seen.memoryIds = [...new Set([...seen.memoryIds, ...memoryIds])];
    else linked.set(e.normalized, { e, memoryIds });
  }
  const ids = new Map<string, string>();
  if (linked.size > 0) {
    const rows = await tx
      .insert(entities)
      .values([...linked.values()].map(({ e }) => ({ id: randomUUID(), tenantId: job.tenantId, userId: job.userId, name: e.name, normalized: e.normalized, kind: e.kind })))
      .onConflictDoUpdate({
        target: [entities.tenantId, entities.userId, entities.normalized],
        set: { mentionCount: sql`${entities.mentionCount} + 1`, updatedAt: sql`now()` },
      })
      .returning({ id: entities.id, normalized: entities.normalized });
    for (const row of rows) ids.set(row.normalized, row.id);
    await tx
      .insert(memoryEntities)
      .values([...linked].flatMap(([normalized, { memoryIds }]) => memoryIds.map((memoryId) => ({ tenantId: job.tenantId, memoryId, entityId: ids.get(normalized)! }))))
      .onConflictDoNothing();
  }
  const relationshipRows = composition.relationships.flatMap((r) => {
    const subject = ids.get(r.subject);
    const object = ids.get(r.object);
    if (!subject || !object) return [];
    return [{ id: randomUUID(), tenantId: job.tenantId, userId: job.userId, subjectEntityId: subject, predicate: r.predicate, objectEntityId: object, memoryId: stored[r.memoryIndex] ?? null }];
  });
  const relationships =
    relationshipRows.length === 0
      ? 0
      : (await tx.insert(entityRelationships).values(relationshipRows).onConflictDoNothing().returning({ id: entityRelationships.id })).length;
  return {
    ...report,
    compositional_pass_used: ids.size > 0,
    compositional_entities: ids.size,
    compositional_relationships: relationships,
  };
}
