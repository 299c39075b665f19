/** `metadata_filter` in SQL (docs/direct-operations.md): list filters with it, retrieve reads the matching events. */
import { type Db, rows, sql } from '@memory/db';
import type { MetadataFilter } from '../schemas/metadata-filter';

/**
 * The condition on `source_events se`: JSON containment of an object of scalars is exactly "each key holds this
 * value" (a scalar never contains-matches an array or an object). A row without a source event never matches.
 */
export const metadataMatches = (filter: MetadataFilter) => sql`se.metadata @> ${JSON.stringify(filter)}::jsonb`;

/**
 * The user's source events whose `metadata` matches, read per retrieve (the hot tier keeps no metadata): memories
 * and passages both carry their event's id, so one set filters both layers, and an item of another event (or of
 * none) is never returned.
 */
export async function matchingSourceEvents(db: Db, tenantId: string, userId: string, filter: MetadataFilter): Promise<Set<string>> {
  const found = await rows<{ id: string }>(
    db,
    sql`SELECT se.id FROM source_events se WHERE se.tenant_id = ${tenantId} AND se.user_id = ${userId} AND ${metadataMatches(filter)}`,
  );
  return new Set(found.map((r) => r.id));
}
