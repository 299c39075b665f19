/** Counts for the console overview, all scoped to one tenant. */
import { type Db, rows, sql } from '@memory/db';

export interface ConsoleOverview {
  open_reviews: number;
  source_events: number;
  end_users: number;
  active_memories: number;
  service_writers: number;
  active_api_keys: number;
}

export async function consoleOverview(db: Db, tenantId: string): Promise<ConsoleOverview> {
  const [r] = await rows<Record<keyof ConsoleOverview, number | string>>(
    db,
    sql`SELECT
          (SELECT count(*) FROM reviews WHERE tenant_id = ${tenantId} AND status = 'open') AS open_reviews,
          (SELECT count(*) FROM source_events WHERE tenant_id = ${tenantId}) AS source_events,
          (SELECT count(*) FROM end_users WHERE tenant_id = ${tenantId}) AS end_users,
          (SELECT count(*) FROM memories WHERE tenant_id = ${tenantId} AND status = 'active') AS active_memories,
          (SELECT count(*) FROM service_writers WHERE tenant_id = ${tenantId}) AS service_writers,
          (SELECT count(*) FROM api_keys WHERE tenant_id = ${tenantId} AND revoked_at IS NULL) AS active_api_keys`,
  );
  return {
    open_reviews: Number(r.open_reviews),
    source_events: Number(r.source_events),
    end_users: Number(r.end_users),
    active_memories: Number(r.active_memories),
    service_writers: Number(r.service_writers),
    active_api_keys: Number(r.active_api_keys),
  };
}
