/**
 * Webhook deliveries: the tenant's delivery log (keyset-paged like GET /v1/tenant/source-events), resend, and
 * the attempt itself, which both the embedded dispatcher and the Inngest function `memory-webhook-delivery` run
 * (packages/jobs/src/webhooks.ts). The delivery row is the source of truth: claim (with a lease, so a crashed
 * worker's attempt is retried), send, record the outcome and the next attempt time.
 */
import { randomUUID } from 'node:crypto';
import { type Db, type SQL, rows, sql } from '@memory/db';
import { webhookHeaders } from '@memory/sdk';
import type { WebhookSettings } from '../config';
import { Errors } from '../errors';
import { withAudit } from '../audit/audit';
import type { Principal } from '../tenants/tenants';
import { iso } from '../timestamps';
import { decodeCursor, keysetPage } from '../pagination';
import type { WebhookDeliveryView } from '../schemas/webhooks';
import { requireEndpoint } from './endpoints';
import { maxAttempts, nextRetryDelayMs } from './retry';
import { decryptSecret } from './secret-store';
import { sendWebhook } from './send';

interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: string;
  attempts: number;
  next_attempt_at: Date | string;
  last_status_code: number | null;
  last_error: string | null;
  last_attempt_at: Date | string | null;
  attempt_log: WebhookDeliveryView['attempt_log'];
  resend_of: string | null;
  payload: Record<string, unknown>;
  created_at: Date | string;
  finished_at: Date | string | null;
  cursor_ts: string;
}

/** The `webhook-id` of an event: the same for every attempt and every resend, so receivers can de-duplicate. */
const webhookMessageId = (eventId: string) => `msg_${eventId.replaceAll('-', '')}`;

const SELECT_DELIVERY = sql`SELECT d.id, d.endpoint_id, d.event_id, d.event_type, d.status, d.attempts, d.next_attempt_at,
    d.last_status_code, d.last_error, d.last_attempt_at, d.attempt_log, d.resend_of, e.payload, d.created_at, d.finished_at,
    d.created_at::text AS cursor_ts
  FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id`;

function toDeliveryView(r: DeliveryRow, settings: Pick<WebhookSettings, 'retryScheduleSeconds'>): WebhookDeliveryView {
  const open = r.status === 'pending' || r.status === 'sending';
  return {
    id: r.id,
    endpoint_id: r.endpoint_id,
    webhook_id: webhookMessageId(r.event_id),
    event_type: r.event_type as WebhookDeliveryView['event_type'],
    status: r.status as WebhookDeliveryView['status'],
    attempts: r.attempts,
    max_attempts: maxAttempts(settings.retryScheduleSeconds),
    next_attempt_at: open ? (iso(r.next_attempt_at) as string) : null,
    last_status_code: r.last_status_code,
    last_error: r.last_error,
    last_attempt_at: iso(r.last_attempt_at),
    attempt_log: r.attempt_log ?? [],
    resend_of: r.resend_of,
    payload: r.payload,
    created_at: iso(r.created_at) as string,
    finished_at: iso(r.finished_at),
  };
}

/** One endpoint's deliveries, newest first, keyset-paged on (created_at, id). Another tenant's endpoint is 404. */
export async function listWebhookDeliveries(
  db: Db,
  tenantId: string,
  endpointId: string,
  q: { status?: string; limit: number; cursor?: string },
  settings: Pick<WebhookSettings, 'retryScheduleSeconds'>,
) {
  await requireEndpoint(db, tenantId, endpointId);
  const where: SQL[] = [sql`d.tenant_id = ${tenantId}`, sql`d.endpoint_id = ${endpointId}`];
  if (q.status) where.push(sql`d.status = ${q.status}`);
  if (q.cursor) {
    const c = decodeCursor(q.cursor);
    where.push(sql`(d.created_at, d.id) < (${c.ts}::timestamptz, ${c.id}::uuid)`);
  }
  const found = await rows<DeliveryRow>(
    db,
    sql`${SELECT_DELIVERY} WHERE ${sql.join(where, sql` AND `)} ORDER BY d.created_at DESC, d.id DESC LIMIT ${q.limit + 1}`,
  );
  const { page, next_cursor } = keysetPage(found, q.limit);
  return { items: page.map((r) => toDeliveryView(r, settings)), limit: q.limit, next_cursor };
}

async function deliveryView(db: Db, tenantId: string, deliveryId: string, settings: Pick<WebhookSettings, 'retryScheduleSeconds'>) {
  const [row] = await rows<DeliveryRow>(db, sql`${SELECT_DELIVERY} WHERE d.tenant_id = ${tenantId} AND d.id = ${deliveryId}`);
  return row ? toDeliveryView(row, settings) : null;
}

/**
 * Sends the event of a delivery again, as a new delivery (the log keeps both; `resend_of` links them) with the
 * same `webhook-id`. The endpoint must be enabled (409 otherwise: enable it first).
 */
export async function resendWebhookDelivery(
  db: Db,
  principal: Principal,
  endpointId: string,
  deliveryId: string,
  settings: Pick<WebhookSettings, 'retryScheduleSeconds'>,
): Promise<WebhookDeliveryView> {
  const { tenantId } = principal;
  const endpoint = await requireEndpoint(db, tenantId, endpointId);
  const [original] = await rows<{ event_id: string; event_type: string }>(
    db,
    sql`SELECT event_id, event_type FROM webhook_deliveries WHERE tenant_id = ${tenantId} AND endpoint_id = ${endpointId} AND id = ${deliveryId}`,
  );
  if (!original) throw Errors.notFound(`Webhook delivery ${deliveryId}`);
  if (endpoint.status !== 'enabled') throw Errors.conflict('The endpoint is disabled; enable it before resending.');
  const id = randomUUID();
  await withAudit(
    db,
    principal,
    (tx) =>
      tx.execute(
        sql`INSERT INTO webhook_deliveries (id, tenant_id, endpoint_id, event_id, event_type, resend_of)
            VALUES (${id}, ${tenantId}, ${endpointId}, ${original.event_id}, ${original.event_type}, ${deliveryId})`,
      ),
    () => ({ action: 'webhook_delivery.resent', targetType: 'webhook_endpoint', targetId: endpointId, details: { delivery_id: deliveryId, new_delivery_id: id } }),
  );
  return (await deliveryView(db, tenantId, id, settings)) as WebhookDeliveryView;
}

/**
 * Claims due deliveries: pending and due, or sending with an expired lease (a worker died mid-attempt).
 * Each claim counts one attempt. SKIP LOCKED lets several processes share the table.
 */
export async function claimWebhookDeliveries(
  db: Db,
  opts: { limit: number; leaseSeconds: number; deliveryId?: string },
): Promise<string[]> {
  const only = opts.deliveryId ? sql`AND id = ${opts.deliveryId}` : sql``;
  const claimed = await rows<{ id: string }>(
    db,
    sql`UPDATE webhook_deliveries SET status = 'sending', attempts = attempts + 1, updated_at = now(),
          lease_until = now() + make_interval(secs => ${opts.leaseSeconds})
        WHERE id IN (
          SELECT id FROM webhook_deliveries
          WHERE ((status = 'pending' AND next_attempt_at <= now()) OR (status = 'sending' AND lease_until < now())) ${only}
          ORDER BY next_attempt_at
          LIMIT ${opts.limit}
          FOR UPDATE SKIP LOCKED)
        RETURNING id`,
  );
  return claimed.map((r) => r.id);
}

/** Inngest mode: pending deliveries not yet handed to the delivery function, marked as handed over. */
export async function takeUndispatchedWebhookDeliveries(db: Db, limit: number): Promise<{ id: string; tenant_id: string }[]> {
  return rows<{ id: string; tenant_id: string }>(
    db,
    sql`UPDATE webhook_deliveries SET dispatched_at = now()
        WHERE id IN (
          SELECT id FROM webhook_deliveries WHERE status = 'pending' AND dispatched_at IS NULL
          ORDER BY created_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
        RETURNING id, tenant_id`,
  );
}

export interface AttemptOutcome {
  /** pending: another attempt at `nextAttemptAt`; succeeded or failed: the delivery is finished. */
  status: 'pending' | 'succeeded' | 'failed';
  statusCode: number | null;
  nextAttemptAt: string | null;
  /** Set when this attempt disabled the endpoint. */
  endpointDisabled: 'gone' | 'failing' | null;
}

interface ClaimedDelivery {
  id: string;
  tenant_id: string;
  endpoint_id: string;
  event_id: string;
  attempts: number;
  status: string;
  payload: unknown;
  url: string;
  endpoint_status: string;
  secret_ciphertext: string;
  previous_secret_ciphertext: string | null;
  previous_live: boolean;
}

/**
 * One attempt of a claimed delivery: sign with the endpoint's live secrets (two after a rotation), POST, record.
 * 2xx succeeds and resets the endpoint's failure count; 410 fails the delivery and disables the endpoint at
 * once; anything else (other status, timeout, refused address) waits for the next attempt of the schedule, and
 * failing the last one disables the endpoint. A disabled endpoint's deliveries end without being sent.
 */
export async function attemptWebhookDelivery(db: Db, deliveryId: string, settings: WebhookSettings): Promise<AttemptOutcome> {
  const [d] = await rows<ClaimedDelivery>(
    db,
    sql`SELECT d.id, d.tenant_id, d.endpoint_id, d.event_id, d.attempts, d.status, e.payload, w.url, w.status AS endpoint_status,
          w.secret_ciphertext, w.previous_secret_ciphertext,
          (w.previous_secret_expires_at IS NOT NULL AND w.previous_secret_expires_at > now()) AS previous_live
        FROM webhook_deliveries d
        JOIN webhook_events e ON e.id = d.event_id
        JOIN webhook_endpoints w ON w.id = d.endpoint_id AND w.tenant_id = d.tenant_id
        WHERE d.id = ${deliveryId}`,
  );
  if (!d || d.status !== 'sending') {
    return { status: 'failed', statusCode: null, nextAttemptAt: null, endpointDisabled: null };
  }
  if (d.endpoint_status !== 'enabled') {
    await finishDelivery(db, d.id, { status: 'failed', statusCode: null, error: 'endpoint disabled', attempt: null, countAttempt: false });
    return { status: 'failed', statusCode: null, nextAttemptAt: null, endpointDisabled: null };
  }
  const secrets = [decryptSecret(d.secret_ciphertext, settings.secretKey)];
  if (d.previous_live && d.previous_secret_ciphertext) secrets.push(decryptSecret(d.previous_secret_ciphertext, settings.secretKey));
  const body = JSON.stringify(d.payload);
  const headers = webhookHeaders(secrets, webhookMessageId(d.event_id), Math.floor(Date.now() / 1000), body);
  const sent = await sendWebhook(d.url, headers, body, { timeoutMs: settings.timeoutMs, allowPrivate: settings.allowPrivate, allowedPorts: settings.allowedPorts });
  const attempt = { at: new Date().toISOString(), status_code: sent.statusCode, error: sent.error, duration_ms: sent.durationMs };
  const ok = sent.statusCode !== null && sent.statusCode >= 200 && sent.statusCode < 300;
  const error = ok ? null : (sent.error ?? `HTTP ${sent.statusCode}`);
  if (ok) {
    await finishDelivery(db, d.id, { status: 'succeeded', statusCode: sent.statusCode, error: null, attempt });
    await db.execute(
      sql`UPDATE webhook_endpoints SET consecutive_failures = 0, failing_since = NULL WHERE id = ${d.endpoint_id} AND consecutive_failures > 0`,
    );
    return { status: 'succeeded', statusCode: sent.statusCode, nextAttemptAt: null, endpointDisabled: null };
  }
  await db.execute(
    sql`UPDATE webhook_endpoints SET consecutive_failures = consecutive_failures + 1, failing_since = coalesce(failing_since, now())
        WHERE id = ${d.endpoint_id}`,
  );
  const delay = sent.statusCode === 410 ? null : nextRetryDelayMs(d.attempts, settings.retryScheduleSeconds);
  if (delay === null) {
    const reason = sent.statusCode === 410 ? 'gone' : 'failing';
    await finishDelivery(db, d.id, { status: 'failed', statusCode: sent.statusCode, error, attempt });
    await db.execute(
      sql`UPDATE webhook_endpoints SET status = 'disabled', disabled_reason = ${reason}, updated_at = now()
          WHERE id = ${d.endpoint_id} AND status = 'enabled'`,
    );
    return { status: 'failed', statusCode: sent.statusCode, nextAttemptAt: null, endpointDisabled: reason };
  }
  const nextAttemptAt = new Date(Date.now() + delay).toISOString();
  await db.execute(
    sql`UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ${nextAttemptAt}::timestamptz, lease_until = NULL,
          last_status_code = ${sent.statusCode}, last_error = ${error}, last_attempt_at = now(),
          attempt_log = attempt_log || ${JSON.stringify([attempt])}::jsonb, updated_at = now()
        WHERE id = ${d.id} AND status = 'sending'`,
  );
  return { status: 'pending', statusCode: sent.statusCode, nextAttemptAt, endpointDisabled: null };
}

async function finishDelivery(
  db: Db,
  id: string,
  o: { status: 'succeeded' | 'failed'; statusCode: number | null; error: string | null; attempt: object | null; countAttempt?: boolean },
) {
  await db.execute(
    sql`UPDATE webhook_deliveries SET status = ${o.status}, lease_until = NULL, finished_at = now(), updated_at = now(),
          attempts = attempts - ${o.countAttempt === false ? 1 : 0}::int,
          last_status_code = coalesce(${o.statusCode}::int, last_status_code), last_error = ${o.error},
          last_attempt_at = ${o.attempt ? sql`now()` : sql`last_attempt_at`},
          attempt_log = attempt_log || ${JSON.stringify(o.attempt ? [o.attempt] : [])}::jsonb
        WHERE id = ${id} AND status = 'sending'`,
  );
}
