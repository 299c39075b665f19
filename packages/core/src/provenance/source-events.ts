/** GET /v1/tenant/source-events: what each writer sent, with hashes, evidence, scope and the linked job. */
import { type Db, rows, sql } from '@memory/db';
import type { SQL } from '@memory/db';
import { iso } from '../timestamps';
import { decodeCursor, keysetPage } from '../pagination';
import type { Principal } from '../tenants/tenants';

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
    sql`SELECT se.id, se.service, se.event_id, u.external_user_id, se.writer_id, se.agent_id, se.observed_at,
          se.received_at, se.received_at::text AS cursor_ts, se.payload_hash,
          (se.payload IS NULL) AS payload_redacted, se.scope, se.evidence, se.job_id, j.status AS job_status
        FROM source_events se
        JOIN end_users u ON u.id = se.user_id
        LEFT JOIN extraction_jobs j ON j.id = se.job_id
        WHERE ${sql.join(where, sql` AND `)}
        ORDER BY se.received_at DESC, se.id DESC
        LIMIT ${q.limit + 1}`,
  );
  const { page, next_cursor } = keysetPage(found, q.limit);
  return {
    items: page.map((r) => ({
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
    })),
    limit: q.limit,
    next_cursor,
  };
}
