/**
 * A passport user's own universal memories (docs/passport.md, "Your memories and who read them"): the list with
 * the agent that wrote each memory and when, erasing one, and the export bundle. Every function takes the passport
 * user from the session: another user's memory is 404, never 403.
 */
import { type Db, and, eq, passportReviews, passportUsers, rows, sql, universalMemories } from '@memory/db';
import { MEMORY_CATEGORIES } from '../categories';
import { Errors } from '../errors';
import { decodeCursor, keysetPage } from '../pagination';
import { externalUserIdHint } from '../passport/rules';
import { recordPassportAudit } from '../passport/audit';
import type { PassportExportBundle, PassportMemoriesQuery, PassportMemory } from '../schemas/passport-memories';
import { iso } from '../timestamps';
import { bumpPassportMemoryVersion } from '../users';
import { allAccessLog } from './access-log';
import { settleQuestionsAbout } from './questions';

export const PASSPORT_EXPORT_FORMAT_VERSION = 1;

interface MemoryRow {
  id: string;
  content: string;
  category: string;
  status: PassportMemory['status'];
  importance: number;
  agent_id: string | null;
  agent_name: string | null;
  job_id: string | null;
  observed_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
  access_count: number;
  last_accessed: Date | string | null;
  cursor_ts: string;
}

const MEMORY_COLUMNS = sql`m.id, m.content, m.category, m.status, m.importance, m.agent_id::text AS agent_id, a.name AS agent_name,
  m.job_id, m.observed_at, m.created_at, m.updated_at, m.access_count, m.last_accessed, m.created_at::text AS cursor_ts`;

const toPassportMemory = (r: MemoryRow): PassportMemory => ({
  id: r.id,
  content: r.content,
  category: r.category as PassportMemory['category'],
  status: r.status,
  importance_score: Number(r.importance),
  // a memory of an agent that no longer exists keeps its id; the name is gone with the agent
  written_by: r.agent_id ? { id: r.agent_id, name: r.agent_name ?? 'A removed agent' } : null,
  job_id: r.job_id,
  observed_at: iso(r.observed_at),
  created_at: iso(r.created_at) as string,
  updated_at: iso(r.updated_at) as string,
  access_count: Number(r.access_count),
  last_accessed: iso(r.last_accessed),
});

/** Newest first, keyset-paged on (created_at, id); every status unless `status` narrows it. */
export async function listPassportMemories(db: Db, passportUserId: string, q: PassportMemoriesQuery) {
  const where = [sql`m.passport_user_id = ${passportUserId}`];
  if (q.status !== 'all') where.push(sql`m.status = ${q.status}`);
  if (q.category) where.push(sql`m.category = ${q.category}`);
  if (q.cursor) {
    const c = decodeCursor(q.cursor);
    where.push(sql`(m.created_at, m.id) < (${c.ts}::timestamptz, ${c.id}::uuid)`);
  }
  const found = await rows<MemoryRow>(
    db,
    sql`SELECT ${MEMORY_COLUMNS} FROM universal_memories m LEFT JOIN global_agents a ON a.id = m.agent_id
        WHERE ${sql.join(where, sql` AND `)}
        ORDER BY m.created_at DESC, m.id DESC LIMIT ${q.limit + 1}`,
  );
  const { page, next_cursor } = keysetPage(found, q.limit);
  return { items: page.map(toPassportMemory), limit: q.limit, next_cursor };
}

/**
 * Erases one of the user's memories (the row is deleted, not archived: the user asked for it to be gone). An open
 * question about it is settled for the other claim. `memory_version` is bumped, so no agent's next retrieve (hot
 * tier included) returns it. Audited as `memory.deleted` with the id and category, never the content.
 */
export async function deletePassportMemory(db: Db, passportUserId: string, memoryId: string) {
  return db.transaction(async (tx) => {
    const [m] = await tx
      .select({ id: universalMemories.id, category: universalMemories.category })
      .from(universalMemories)
      .where(and(eq(universalMemories.passportUserId, passportUserId), eq(universalMemories.id, memoryId)))
      .for('update');
    if (!m) throw Errors.notFound(`Memory ${memoryId}`);
    const settled = await settleQuestionsAbout(tx, passportUserId, m.id);
    await tx.update(universalMemories).set({ supersededBy: null }).where(and(eq(universalMemories.passportUserId, passportUserId), eq(universalMemories.supersededBy, m.id)));
    await tx.delete(universalMemories).where(eq(universalMemories.id, m.id));
    await bumpPassportMemoryVersion(tx, passportUserId);
    await recordPassportAudit(tx, passportUserId, 'memory.deleted', {
      memory_id: m.id,
      category: m.category,
      questions_settled: settled,
    });
    return { id: m.id, deleted: true as const, questions_settled: settled };
  });
}

/** Everything the passport holds about the user (GDPR Art. 20), documented in docs/passport.md ("Export"). */
export async function exportPassport(db: Db, passportUserId: string, now = new Date()): Promise<PassportExportBundle> {
  const [user] = await db.select().from(passportUsers).where(eq(passportUsers.id, passportUserId)).limit(1);
  if (!user) throw Errors.notFound('The passport');
  const [memoryRows, grantRows, connectionRows, questionRows, accessLog] = await Promise.all([
    rows<MemoryRow>(
      db,
      sql`SELECT ${MEMORY_COLUMNS} FROM universal_memories m LEFT JOIN global_agents a ON a.id = m.agent_id
          WHERE m.passport_user_id = ${passportUserId} ORDER BY m.created_at, m.id`,
    ),
    rows<{ id: string; agent_id: string; agent_name: string | null; categories: string[]; access_type: 'read_only' | 'read_write'; status: 'active' | 'revoked'; created_at: Date | string; updated_at: Date | string; revoked_at: Date | string | null }>(
      db,
      sql`SELECT g.id, g.agent_id, a.name AS agent_name, g.categories, g.access_type, g.status, g.created_at, g.updated_at, g.revoked_at
          FROM grants g LEFT JOIN global_agents a ON a.id = g.agent_id
          WHERE g.passport_user_id = ${passportUserId} ORDER BY g.created_at, g.id`,
    ),
    rows<{ id: string; agent_id: string; agent_name: string | null; external_user_id: string; created_at: Date | string; disconnected_at: Date | string | null }>(
      db,
      sql`SELECT c.id, c.agent_id, a.name AS agent_name, c.external_user_id, c.created_at, c.disconnected_at
          FROM passport_connections c LEFT JOIN global_agents a ON a.id = c.agent_id
          WHERE c.passport_user_id = ${passportUserId} ORDER BY c.created_at, c.id`,
    ),
    db.select().from(passportReviews).where(eq(passportReviews.passportUserId, passportUserId)).orderBy(passportReviews.createdAt, passportReviews.id),
    allAccessLog(db, passportUserId),
  ]);
  await recordPassportAudit(db, passportUserId, 'passport.exported', { memories: memoryRows.length, access_log_entries: accessLog.length });
  const memories = memoryRows.map(toPassportMemory);
  const content = new Map(memories.map((m) => [m.id, m.content]));
  return {
    format_version: PASSPORT_EXPORT_FORMAT_VERSION,
    exported_at: now.toISOString(),
    passport: { id: user.id, email: user.email, created_at: user.createdAt.toISOString() },
    memories,
    grants: grantRows.map((g) => ({
      id: g.id,
      agent: { id: g.agent_id, name: g.agent_name ?? 'A removed agent' },
      categories: MEMORY_CATEGORIES.filter((c) => (g.categories as string[]).includes(c)),
      access_type: g.access_type,
      status: g.status,
      created_at: iso(g.created_at) as string,
      updated_at: iso(g.updated_at) as string,
      revoked_at: iso(g.revoked_at),
    })),
    connections: connectionRows.map((c) => ({
      id: c.id,
      agent: { id: c.agent_id, name: c.agent_name ?? 'A removed agent' },
      external_user_id_hint: externalUserIdHint(c.external_user_id),
      created_at: iso(c.created_at) as string,
      disconnected_at: iso(c.disconnected_at),
    })),
    questions: questionRows.map((r) => ({
      id: r.id,
      question: r.question,
      subject: r.subject,
      options: [r.claimAId, r.claimBId].filter((id) => content.has(id)).map((id) => ({ memory_id: id, content: content.get(id) as string })),
      status: r.status,
      resolution_memory_id: r.resolutionMemoryId,
      created_at: r.createdAt.toISOString(),
    })),
    access_log: accessLog,
  };
}
