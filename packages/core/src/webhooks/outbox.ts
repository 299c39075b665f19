/**
 * The webhook outbox. `recordWebhookEvent` is called inside the transaction of the change it reports, so an
 * event exists exactly when its change committed; it writes the event and one pending delivery per enabled
 * endpoint of the tenant subscribed to its type. Delivery happens later (deliveries.ts), never in the caller's
 * transaction. A tenant without a subscribed endpoint costs one indexed read and nothing is stored.
 */
import { randomUUID } from 'node:crypto';
import { type Db, type SQL, rows, sql } from '@memory/db';
import type { WebhookEventType } from './catalogue';

export interface WebhookEventInput {
  type: WebhookEventType;
  /** Ids, statuses and counts only: never memory content, payloads or secrets (docs/webhooks.md). */
  data: Record<string, unknown>;
}

/** Records one event for the tenant (for other modules, e.g. quota mode changes). */
export function recordWebhookEvent(db: Db, tenantId: string, type: WebhookEventType, data: Record<string, unknown>): Promise<number> {
  return recordWebhookEvents(db, tenantId, [{ type, data }]);
}

/** Records several events of one tenant; returns the number of deliveries created. */
export function recordWebhookEvents(db: Db, tenantId: string, events: readonly WebhookEventInput[]): Promise<number> {
  return recordWebhookEventsWith(db, tenantId, async () => events);
}

/**
 * Like recordWebhookEvents, but builds the events only when the tenant has an enabled endpoint, so callers on
 * hot paths (the extraction job) pay for look-ups such as external user ids only when someone listens.
 */
export async function recordWebhookEventsWith(
  db: Db,
  tenantId: string,
  build: () => Promise<readonly WebhookEventInput[]>,
): Promise<number> {
  const endpoints = await rows<{ id: string; event_types: string[] }>(
    db,
    sql`SELECT id, event_types FROM webhook_endpoints WHERE tenant_id = ${tenantId} AND status = 'enabled'`,
  );
  if (endpoints.length === 0) return 0;
  const events = await build();
  const timestamp = new Date().toISOString();
  // Two statements whatever the number of events: the events, then one delivery per event and listening endpoint.
  const eventRows: SQL[] = [];
  const deliveryRows: SQL[] = [];
  for (const e of events) {
    const targets = endpoints.filter((ep) => ep.event_types.includes(e.type));
    if (targets.length === 0) continue;
    const id = randomUUID();
    const payload = { type: e.type, timestamp, data: e.data };
    eventRows.push(sql`(${id}, ${tenantId}, ${e.type}, ${JSON.stringify(payload)}::jsonb)`);
    for (const ep of targets) deliveryRows.push(sql`(${randomUUID()}, ${tenantId}, ${ep.id}, ${id}, ${e.type})`);
  }
  if (eventRows.length === 0) return 0;
  await db.execute(sql`INSERT INTO webhook_events (id, tenant_id, type, payload) VALUES ${sql.join(eventRows, sql`, `)}`);
  await db.execute(sql`INSERT INTO webhook_deliveries (id, tenant_id, endpoint_id, event_id, event_type) VALUES ${sql.join(deliveryRows, sql`, `)}`);
  return deliveryRows.length;
}
