/** The Customer Support schema's reads (support.ts): its guard, one user's source events, every customer's profile. */
import { type Db, rows, sql } from '@memory/db';
import { Errors } from '../errors';
import type { CustomerProfile } from '../schemas/domains';
import type { ProfileMemory } from './edtech';
import { tenantDomainSchema } from './settings';
import { type SupportEvent, buildCustomerProfile, normaliseChannel, scopeString, time } from './support-profile';

const supportNotEnabled = (schema: string) =>
  Errors.conflict(
    `The Customer Support schema is not enabled for this tenant (its domain schema is \`${schema}\`). ` +
      'Enable it with PATCH /v1/tenant/domain-schema {"domain_schema":"customer_support"}.',
  );

export async function requireSupport(db: Db, tenantId: string) {
  const schema = await tenantDomainSchema(db, tenantId);
  if (schema !== 'customer_support') throw supportNotEnabled(schema);
}

/** One user's source events, newest `limit` (retrieve reads the latest 200; the profile endpoint all). */
export async function loadSupportEvents(db: Db, tenantId: string, userId: string, limit?: number): Promise<SupportEvent[]> {
  return rows<SupportEvent>(
    db,
    sql`SELECT id, observed_at, scope, sentiment FROM source_events
        WHERE tenant_id = ${tenantId} AND user_id = ${userId}
        ORDER BY observed_at DESC ${limit ? sql`LIMIT ${limit}` : sql``}`,
  );
}

type TenantRow<T> = T & { user_id: string };

/**
 * Every customer's profile: users with at least one source event, built from two reads of the tenant's active
 * memories and source events (docs/domain-schemas.md, "Cost").
 */
export async function allProfiles(db: Db, tenantId: string, now: Date): Promise<{ profiles: CustomerProfile[]; events: StatEvent[] }> {
  const [users, memoryRows, eventRows] = await Promise.all([
    rows<{ id: string; external_user_id: string }>(db, sql`SELECT id, external_user_id FROM end_users WHERE tenant_id = ${tenantId}`),
    rows<TenantRow<ProfileMemory>>(
      db,
      sql`SELECT id, user_id, content, source_event_id, created_at FROM memories WHERE tenant_id = ${tenantId} AND status = 'active'`,
    ),
    rows<TenantRow<SupportEvent>>(db, sql`SELECT id, user_id, observed_at, scope, sentiment FROM source_events WHERE tenant_id = ${tenantId}`),
  ]);
  const group = <T extends { user_id: string }>(list: T[]) => {
    const by = new Map<string, T[]>();
    for (const r of list) {
      const mine = by.get(r.user_id);
      if (mine) mine.push(r);
      else by.set(r.user_id, [r]);
    }
    return by;
  };
  const memoriesBy = group(memoryRows);
  const eventsBy = group(eventRows);
  const customers = users.filter((u) => eventsBy.has(u.id));
  return {
    profiles: customers.map((u) => buildCustomerProfile(u.external_user_id, memoriesBy.get(u.id) ?? [], eventsBy.get(u.id) ?? [], now)),
    events: customers.flatMap((u) =>
      (eventsBy.get(u.id) ?? []).map((e) => {
        const channel = scopeString(e.scope, 'channel');
        return { at: time(e.observed_at), sentiment: e.sentiment, channel: channel ? normaliseChannel(channel) : null, customer: u.external_user_id };
      }),
    ),
  };
}

/** A source event as the support stats count it. */
export interface StatEvent {
  at: number;
  sentiment: number | null;
  channel: string | null;
  customer: string;
}
