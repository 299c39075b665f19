/**
 * A global agent's list and delete of a passport user's universal memories (the MCP tools list_memories and
 * delete_memory for passport agents; docs/passport-universal.md). The grant rules of retrieve and add hold: the
 * list shows only active memories in the granted categories (no grant: empty with `permission_error`); delete
 * needs a `read_write` grant and a memory the agent could list, and archives it — the user keeps the last word
 * (they still see it on /passport and may erase it).
 */
import { type AgentReadChannel, type Db, and, eq, rows, sql, universalMemories } from '@memory/db';
import { Errors } from '../errors';
import { decodeCursor, keysetPage } from '../pagination';
import type { UniversalAgentAuth } from '../passport/auth';
import { recordPassportAudit } from '../passport/audit';
import type { AgentListMemoriesRequest, AgentMemory } from '../schemas/passport-memories';
import { iso } from '../timestamps';
import { bumpPassportMemoryVersion } from '../users';
import { recordAgentRead } from './access-log';
import { grantedCategories } from './add';

export interface AgentMemoryPage {
  items: AgentMemory[];
  limit: number;
  next_cursor: string | null;
  permission_error: 'no_grant_for_user' | null;
  categories_available: string[];
}

/** The user's active memories in the granted categories, newest first; each list is an access-log entry. */
export async function listUniversalMemoriesForAgent(
  db: Db,
  auth: UniversalAgentAuth,
  req: AgentListMemoriesRequest,
  opts: { channel: AgentReadChannel },
): Promise<AgentMemoryPage> {
  const granted = grantedCategories(auth.grant);
  const base = { limit: req.limit, permission_error: auth.grant ? null : ('no_grant_for_user' as const), categories_available: granted };
  const categories = req.category ? granted.filter((c) => c === req.category) : granted;
  if (categories.length === 0) {
    if (auth.grant) await recordAgentRead(db, { passportUserId: auth.passportUserId, agent: auth.agent, kind: 'list', channel: opts.channel, categories: [] });
    return { ...base, items: [], next_cursor: null };
  }
  const where = [
    sql`m.passport_user_id = ${auth.passportUserId}`,
    sql`m.status = 'active'`,
    sql`m.category IN (${sql.join(categories.map((c) => sql`${c}`), sql`, `)})`,
  ];
  if (req.cursor) {
    const c = decodeCursor(req.cursor);
    where.push(sql`(m.created_at, m.id) < (${c.ts}::timestamptz, ${c.id}::uuid)`);
  }
  const found = await rows<{
    id: string;
    content: string;
    category: string;
    importance: number;
    agent_id: string | null;
    observed_at: Date | string | null;
    created_at: Date | string;
    cursor_ts: string;
  }>(
    db,
    sql`SELECT m.id, m.content, m.category, m.importance, m.agent_id::text AS agent_id, m.observed_at, m.created_at,
               m.created_at::text AS cursor_ts
        FROM universal_memories m WHERE ${sql.join(where, sql` AND `)}
        ORDER BY m.created_at DESC, m.id DESC LIMIT ${req.limit + 1}`,
  );
  const { page, next_cursor } = keysetPage(found, req.limit);
  await recordAgentRead(db, {
    passportUserId: auth.passportUserId,
    agent: auth.agent,
    kind: 'list',
    channel: opts.channel,
    categories: page.map((r) => r.category),
  });
  return {
    ...base,
    next_cursor,
    items: page.map((r) => ({
      id: r.id,
      content: r.content,
      category: r.category as AgentMemory['category'],
      importance_score: Number(r.importance),
      observed_at: iso(r.observed_at),
      created_at: iso(r.created_at) as string,
      written_by_you: r.agent_id === auth.agent.id,
    })),
  };
}

/**
 * Archives one memory the agent may see (active, in a granted category). No grant: 403 `UAT_001`; a read-only
 * grant: 403 `UAT_002`; any other memory (another user's, outside the grant, not active, unknown): 404.
 */
export async function deleteUniversalMemoryForAgent(db: Db, auth: UniversalAgentAuth, memoryId: string) {
  if (!auth.grant) throw Errors.uatNoGrant();
  if (auth.grant.accessType !== 'read_write') throw Errors.uatWriteNotPermitted();
  const granted = grantedCategories(auth.grant);
  return db.transaction(async (tx) => {
    const [m] = await tx
      .select({ id: universalMemories.id, category: universalMemories.category, status: universalMemories.status })
      .from(universalMemories)
      .where(and(eq(universalMemories.passportUserId, auth.passportUserId), eq(universalMemories.id, memoryId)))
      .for('update');
    if (!m || m.status !== 'active' || !granted.includes(m.category)) throw Errors.notFound(`Memory ${memoryId}`);
    await tx.update(universalMemories).set({ status: 'archived', updatedAt: sql`now()` }).where(eq(universalMemories.id, m.id));
    await bumpPassportMemoryVersion(tx, auth.passportUserId);
    await recordPassportAudit(tx, auth.passportUserId, 'memory.archived', { memory_id: m.id, category: m.category, agent_id: auth.agent.id });
    return { id: m.id, status: 'archived' as const, deleted: true as const };
  });
}
