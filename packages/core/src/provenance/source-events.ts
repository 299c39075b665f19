/** GET /v1/tenant/source-events: what each writer sent, with hashes, evidence, scope and the linked job. */
import { type Db, rows, sql } from '@memory/db';
import type { SQL } from '@memory/db';
import { Errors } from '../errors';
import { iso } from '../timestamps';
import { decodeCursor, keysetPage } from '../pagination';
import type { Principal } from '../tenants/tenants';

const DAY_MS = 86_400_000;
/** The memories a source event detail lists (a conversation yields a handful; corrections one). */
export const SOURCE_EVENT_MEMORIES_MAX = 100;

/** The payload as ingestion stores it (secrets redacted): null once retention redacted it. */
interface StoredPayload {
  messages: { role: string; name?: string; content: string }[];
  metadata: Record<string, unknown> | null;
}

/** The columns of a source event as the API shows it (`extra` adds more), from `source_events se` with its user and job. */
const sourceEventSelect = (extra = sql``) => sql`se.id, se.service, se.event_id, u.external_user_id, se.writer_id, se.agent_id, se.observed_at,
          se.received_at, se.received_at::text AS cursor_ts, se.payload_hash,
          (se.payload IS NULL) AS payload_redacted, se.scope, se.evidence, se.job_id, j.status AS job_status${extra}
        FROM source_events se
        JOIN end_users u ON u.id = se.user_id
        LEFT JOIN extraction_jobs j ON j.id = se.job_id`;

interface Row {
  id: string;
  service: string;
  event_id: string;
  external_user_id: string;
  writer_id: string | null;
  agent_id: string | null;
  observed_at: Date | string;
  received_at: Date | string;
  cursor_ts: string;
  payload_hash: string;
  payload_redacted: boolean;
  scope: Record<string, unknown>;
  evidence: { source_type: string; reference: string }[];
  job_id: string | null;
  job_status: string | null;
}

/** Newest first, keyset-paged on (received_at, id). */
export async function listSourceEvents(
  db: Db,
  auth: Principal,
  q: { external_user_id?: string; source_service?: string; limit: number; cursor?: string },
) {
  const where: SQL[] = [sql`se.tenant_id = ${auth.tenantId}`];
  if (q.external_user_id) where.push(sql`u.external_user_id = ${q.external_user_id}`);
  if (q.source_service) where.push(sql`se.service = ${q.source_service}`);
  if (q.cursor) {
    const c = decodeCursor(q.cursor);
    where.push(sql`(se.received_at, se.id) < (${c.ts}::timestamptz, ${c.id}::uuid)`);
  }
  const found = await rows<Row>(
    db,
    sql`SELECT ${sourceEventSelect()}
        WHERE ${sql.join(where, sql` AND `)}
        ORDER BY se.received_at DESC, se.id DESC
        LIMIT ${q.limit + 1}`,
  );
  const { page, next_cursor } = keysetPage(found, q.limit);
  return { items: page.map(toSourceEventView), limit: q.limit, next_cursor };
}

/** One source event with what was said: its messages, or when and after how long retention redacted them. */
export async function sourceEventDetail(db: Db, auth: Principal, id: string) {
  const [r] = await rows<Row & { payload: StoredPayload | null; payload_redacted_at: Date | string | null }>(
    db,
    sql`SELECT ${sourceEventSelect(sql`, se.payload, se.payload_redacted_at`)}
        WHERE se.tenant_id = ${auth.tenantId} AND se.id = ${id}`,
  );
  if (!r) throw Errors.notFound(`Source event ${id}`);
  const memories = await rows<{ id: string; content: string; category: string; status: string }>(
    db,
    sql`SELECT id, content, category, status FROM memories
        WHERE tenant_id = ${auth.tenantId} AND source_event_id = ${id}
        ORDER BY created_at, id LIMIT ${SOURCE_EVENT_MEMORIES_MAX}`,
  );
  const redactedAt = iso(r.payload_redacted_at);
  return {
    ...toSourceEventView(r),
    messages: r.payload?.messages ?? null,
    metadata: r.payload?.metadata ?? null,
    payload_redacted_at: redactedAt,
    /** Whole days between receipt and redaction: the retention window the payload was kept for. */
    redacted_after_days: redactedAt ? Math.floor((Date.parse(redactedAt) - Date.parse(iso(r.received_at) as string)) / DAY_MS) : null,
    memories,
  };
}

function toSourceEventView(r: Row) {
  return {
    id: r.id,
    service: r.service,
    event_id: r.event_id,
    external_user_id: r.external_user_id,
    writer_id: r.writer_id,
    agent_id: r.agent_id,
    observed_at: iso(r.observed_at) as string,
    received_at: iso(r.received_at) as string,
    payload_hash: r.payload_hash,
    payload_redacted: Boolean(r.payload_redacted),
    scope: r.scope ?? {},
    evidence: r.evidence ?? [],
    job_id: r.job_id,
    job_status: r.job_status,
  };
}
