/**
 * What an admin sees beside a held memory in the console (docs/review-before-write.md): the user's active memories
 * it may conflict with (the same claim slot or fingerprint, then the same category's memories that share words
 * with it) and the text it was extracted from — the source event's messages, the cited ones marked — or, when
 * retention redacted the payload, after how many days.
 */
import { type Db, and, eq, reviews, rows, sourceEvents, sql, tenants } from '@memory/db';
import { MEMORY_WITH_SOURCE_COLUMNS, type MemoryWithSourceRow, toMemoryRecord } from '../memories/serialize';
import type { MemoryRecord } from '../schemas/memories';

/** At most this many related memories are shown. */
export const RELATED_MEMORIES_MAX = 5;

export interface PendingWriteContext {
  related: MemoryRecord[];
  source:
    | { state: 'available'; messages: { role: string; name: string | null; content: string; cited: boolean }[] }
    | { state: 'redacted'; redacted_at: string; retention_days: number | null }
    | { state: 'none' };
}

/** null when the review is not the tenant's or not a pending write. */
export async function pendingWriteContext(db: Db, tenantId: string, reviewId: string): Promise<PendingWriteContext | null> {
  const [r] = await db
    .select({ memoryId: reviews.claimBId, userId: reviews.userId, kind: reviews.kind })
    .from(reviews)
    .where(and(eq(reviews.tenantId, tenantId), eq(reviews.id, reviewId)))
    .limit(1);
  if (!r || r.kind !== 'pending_write') return null;
  const [held] = await rows<{ content: string; category: string; fingerprint: string; subject: string | null; source_event_id: string | null; message_indices: unknown; external_user_id: string }>(
    db,
    sql`SELECT m.content, m.category, m.fingerprint, m.subject, m.source_event_id, m.message_indices, u.external_user_id
        FROM memories m JOIN end_users u ON u.id = m.user_id WHERE m.tenant_id = ${tenantId} AND m.id = ${r.memoryId}::uuid`,
  );
  if (!held) return { related: [], source: { state: 'none' } };
  // Same slot or fact first; then memories of the category sharing any of its words (an OR of its lexemes).
  const related = await rows<MemoryWithSourceRow>(
    db,
    sql`SELECT ${sql.raw(MEMORY_WITH_SOURCE_COLUMNS)}
        FROM memories m LEFT JOIN source_events se ON se.id = m.source_event_id
        WHERE m.tenant_id = ${tenantId} AND m.user_id = ${r.userId} AND m.status = 'active' AND m.id <> ${r.memoryId}::uuid
          AND (m.fingerprint = ${held.fingerprint} OR m.subject = ${held.subject}
               OR (m.category = ${held.category}
                   AND m.search @@ replace(plainto_tsquery('english', ${held.content})::text, '&', '|')::tsquery))
        ORDER BY (m.fingerprint = ${held.fingerprint} OR (m.subject IS NOT NULL AND m.subject = ${held.subject})) IS TRUE DESC,
                 ts_rank(m.search, replace(plainto_tsquery('english', ${held.content})::text, '&', '|')::tsquery) DESC, m.created_at DESC
        LIMIT ${RELATED_MEMORIES_MAX}`,
  );
  return { related: related.map((m) => toMemoryRecord(m, held.external_user_id)), source: await sourceText(db, tenantId, held) };
}

async function sourceText(db: Db, tenantId: string, held: { source_event_id: string | null; message_indices: unknown }): Promise<PendingWriteContext['source']> {
  if (!held.source_event_id) return { state: 'none' };
  const [event] = await db
    .select({ payload: sourceEvents.payload, redactedAt: sourceEvents.payloadRedactedAt, retentionDays: tenants.payloadRetentionDays })
    .from(sourceEvents)
    .innerJoin(tenants, eq(tenants.id, sourceEvents.tenantId))
    .where(and(eq(sourceEvents.tenantId, tenantId), eq(sourceEvents.id, held.source_event_id)))
    .limit(1);
  if (!event) return { state: 'none' };
  if (event.redactedAt) return { state: 'redacted', redacted_at: event.redactedAt.toISOString(), retention_days: event.retentionDays };
  const cited = new Set(Array.isArray(held.message_indices) ? (held.message_indices as number[]) : []);
  const messages = (event.payload as { messages?: { role: string; name?: string; content: string }[] } | null)?.messages ?? [];
  return {
    state: 'available',
    messages: messages.map((msg, i) => ({ role: msg.role, name: msg.name ?? null, content: msg.content, cited: cited.has(i) })),
  };
}
