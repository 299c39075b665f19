/**
 * The access log of a passport: one entry per agent read of the user's universal memories (retrieve or list, over
 * REST or MCP) with the agent, the time, how many memories it got and their categories — never content or the
 * query. The user reads it (GET /v1/uui/me/access-log, the /passport page, the export).
 *
 * Retention: each write drops that user's entries older than `days` and those beyond the newest `maxEntries`, in
 * the same statement as the insert's transaction, so the log is bounded per user without a periodic task.
 */
import { randomUUID } from 'node:crypto';
import { type AgentReadChannel, type AgentReadKind, type Db, passportAccessLog, rows, sql } from '@memory/db';
import { MEMORY_CATEGORIES } from '../categories';
import { decodeCursor, keysetPage } from '../pagination';
import type { AccessLogEntry } from '../schemas/passport-memories';
import { iso } from '../timestamps';

export const PASSPORT_ACCESS_LOG_RETENTION = { days: 90, maxEntries: 1_000 } as const;

export interface AgentRead {
  passportUserId: string;
  agent: { id: string; name: string };
  kind: AgentReadKind;
  channel: AgentReadChannel;
  /** The categories of the memories returned, one per memory (repeats allowed). */
  categories: readonly string[];
}

/** Records one read and prunes the user's log to the retention bounds. */
export async function recordAgentRead(db: Db, read: AgentRead, now = new Date()): Promise<void> {
  const categories = MEMORY_CATEGORIES.filter((c) => read.categories.includes(c));
  await db.transaction(async (tx) => {
    await tx.insert(passportAccessLog).values({
      id: randomUUID(),
      passportUserId: read.passportUserId,
      agentId: read.agent.id,
      agentName: read.agent.name,
      kind: read.kind,
      channel: read.channel,
      memoriesReturned: read.categories.length,
      categories,
      createdAt: now,
    });
    await pruneAccessLog(tx, read.passportUserId, now);
  });
}

/** Drops the user's entries past the retention bounds (both at once; the index serves both conditions). */
export async function pruneAccessLog(db: Db, passportUserId: string, now = new Date()): Promise<void> {
  const cutoff = new Date(now.getTime() - PASSPORT_ACCESS_LOG_RETENTION.days * 86_400_000);
  await db.execute(sql`
    DELETE FROM passport_access_log
    WHERE passport_user_id = ${passportUserId}
      AND (created_at < ${cutoff.toISOString()}::timestamptz
        OR id IN (SELECT id FROM passport_access_log WHERE passport_user_id = ${passportUserId}
                  ORDER BY created_at DESC, id DESC OFFSET ${PASSPORT_ACCESS_LOG_RETENTION.maxEntries}))`);
}

interface AccessLogRow {
  id: string;
  agent_id: string;
  agent_name: string;
  current_name: string | null;
  kind: AgentReadKind;
  channel: AgentReadChannel;
  memories_returned: number;
  categories: string[];
  created_at: Date | string;
  cursor_ts: string;
}

const toEntry = (r: AccessLogRow): AccessLogEntry => ({
  id: r.id,
  agent: { id: r.agent_id, name: r.current_name ?? r.agent_name },
  kind: r.kind,
  channel: r.channel,
  memories_returned: Number(r.memories_returned),
  categories: r.categories as AccessLogEntry['categories'],
  created_at: iso(r.created_at) as string,
});

const selectEntries = (where: ReturnType<typeof sql>, order: 'asc' | 'desc', limit: number | null) => sql`
  SELECT l.id, l.agent_id, l.agent_name, a.name AS current_name, l.kind, l.channel, l.memories_returned, l.categories,
         l.created_at, l.created_at::text AS cursor_ts
  FROM passport_access_log l LEFT JOIN global_agents a ON a.id = l.agent_id
  WHERE ${where}
  ORDER BY l.created_at ${sql.raw(order)}, l.id ${sql.raw(order)}
  ${limit === null ? sql`` : sql`LIMIT ${limit}`}`;

/** Newest first, keyset-paged on (created_at, id). */
export async function listAccessLog(db: Db, passportUserId: string, o: { limit: number; cursor?: string }) {
  const where = [sql`l.passport_user_id = ${passportUserId}`];
  if (o.cursor) {
    const c = decodeCursor(o.cursor);
    where.push(sql`(l.created_at, l.id) < (${c.ts}::timestamptz, ${c.id}::uuid)`);
  }
  const found = await rows<AccessLogRow>(db, selectEntries(sql.join(where, sql` AND `), 'desc', o.limit + 1));
  const { page, next_cursor } = keysetPage(found, o.limit);
  return { items: page.map(toEntry), limit: o.limit, next_cursor };
}

/** Every kept entry, oldest first (the export). */
export async function allAccessLog(db: Db, passportUserId: string): Promise<AccessLogEntry[]> {
  const found = await rows<AccessLogRow>(db, selectEntries(sql`l.passport_user_id = ${passportUserId}`, 'asc', null));
  return found.map(toEntry);
}
