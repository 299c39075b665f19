/**
 * The console's list of a tenant's end users: external id, memory counts, when the user was last active, with
 * a substring search on the external id. Ordered by external id and keyset-paged on it, so a page boundary is
 * stable while users are added and the `(tenant_id, external_user_id)` unique index serves the order.
 */
import { type Db, rows, sql } from '@memory/db';
import type { SQL } from '@memory/db';
import { decodeOpaque, encodeOpaque } from '../pagination';
import type { Principal } from '../principal';
import { iso } from '../timestamps';

export const END_USERS_LIMIT_MAX = 100;

export interface EndUserSummary {
  external_user_id: string;
  active_memories: number;
  memories: number;
  source_events: number;
  /** The latest conversation received for the user or retrieval made for them; null when neither happened. */
  last_activity_at: string | null;
  created_at: string;
}

interface Row {
  external_user_id: string;
  active_memories: number | string;
  memories: number | string;
  source_events: number | string;
  last_activity_at: Date | string | null;
  created_at: Date | string;
}

/** `search` matches anywhere in the external id, case-insensitively (a prefix is a substring too). */
export async function listEndUsers(db: Db, auth: Principal, q: { search?: string; limit: number; cursor?: string }) {
  const where: SQL[] = [sql`u.tenant_id = ${auth.tenantId}`];
  // strpos, not LIKE: `%` and `_` in a search are plain characters
  if (q.search) where.push(sql`strpos(lower(u.external_user_id), lower(${q.search})) > 0`);
  if (q.cursor) {
    const { after } = decodeOpaque<{ after: string }>(q.cursor, (c) => typeof c?.after === 'string');
    where.push(sql`u.external_user_id > ${after}`);
  }
  const found = await rows<Row>(
    db,
    sql`SELECT u.external_user_id, u.created_at,
          (SELECT count(*) FROM memories m WHERE m.tenant_id = u.tenant_id AND m.user_id = u.id AND m.status = 'active') AS active_memories,
          (SELECT count(*) FROM memories m WHERE m.tenant_id = u.tenant_id AND m.user_id = u.id) AS memories,
          (SELECT count(*) FROM source_events se WHERE se.tenant_id = u.tenant_id AND se.user_id = u.id) AS source_events,
          GREATEST(
            (SELECT max(se.received_at) FROM source_events se WHERE se.tenant_id = u.tenant_id AND se.user_id = u.id),
            (SELECT max(r.created_at) FROM retrievals r WHERE r.tenant_id = u.tenant_id AND r.user_id = u.id)) AS last_activity_at
        FROM end_users u
        WHERE ${sql.join(where, sql` AND `)}
        ORDER BY u.external_user_id
        LIMIT ${q.limit + 1}`,
  );
  const page = found.slice(0, q.limit);
  const last = page[page.length - 1];
  return {
    items: page.map(
      (r): EndUserSummary => ({
        external_user_id: r.external_user_id,
        active_memories: Number(r.active_memories),
        memories: Number(r.memories),
        source_events: Number(r.source_events),
        last_activity_at: iso(r.last_activity_at),
        created_at: iso(r.created_at) as string,
      }),
    ),
    limit: q.limit,
    next_cursor: found.length > q.limit && last ? encodeOpaque({ after: last.external_user_id }) : null,
  };
}
