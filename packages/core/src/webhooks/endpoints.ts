/**
 * A tenant's webhook endpoints (POST/GET/PATCH/DELETE /v1/tenant/webhooks…, the console's Webhooks page).
 * Every query filters on the tenant: another tenant's endpoint is 404. The signing secret is returned only by
 * create and rotate-secret.
 */
import { randomUUID } from 'node:crypto';
import { type Db, and, asc, eq, sql, webhookEndpoints } from '@memory/db';
import { WEBHOOK_SECRET_PREFIX, generateWebhookSecret } from '@memory/sdk';
import type { z } from 'zod';
import type { WebhookSettings } from '../config';
import { type AuditEntry, withAudit } from '../audit/audit';
import { Errors } from '../errors';
import type { WebhookEndpointView, createWebhookEndpointRequest, updateWebhookEndpointRequest } from '../schemas/webhooks';
import type { Principal } from '../tenants/tenants';
import { WebhookAddressError, webhookUrlProblemResolved } from './address';
import { encryptSecret } from './secret-store';

type EndpointRow = typeof webhookEndpoints.$inferSelect;

/** At most this many endpoints per tenant: each event is delivered to each subscribed one. */
export const WEBHOOK_ENDPOINTS_MAX = 20;

function toEndpointView(e: EndpointRow): WebhookEndpointView {
  return {
    id: e.id,
    url: e.url,
    description: e.description,
    event_types: e.eventTypes as WebhookEndpointView['event_types'],
    status: e.status as WebhookEndpointView['status'],
    disabled_reason: e.disabledReason as WebhookEndpointView['disabled_reason'],
    secret_prefix: e.secretPrefix,
    previous_secret_expires_at: e.previousSecretExpiresAt?.toISOString() ?? null,
    consecutive_failures: e.consecutiveFailures,
    created_at: e.createdAt.toISOString(),
    updated_at: e.updatedAt.toISOString(),
  };
}

async function checkUrl(url: string, settings: WebhookSettings): Promise<void> {
  let problem: string | null;
  try {
    problem = await webhookUrlProblemResolved(url, settings);
  } catch (err) {
    if (err instanceof WebhookAddressError) throw Errors.serviceUnavailable(`The webhook URL's host name could not be resolved now; try again. (${err.message})`);
    throw err;
  }
  if (problem) throw Errors.validation([{ path: 'url', message: problem }]);
}

const newSecret = (settings: WebhookSettings) => {
  const secret = generateWebhookSecret();
  return { secret, ciphertext: encryptSecret(secret, settings.secretKey), prefix: secret.slice(0, WEBHOOK_SECRET_PREFIX.length + 4) };
};

/** Ids only in the audit entries of endpoint changes, never the URL's query or a secret. */
const endpointAudit = (action: string, id: string, details: AuditEntry['details'] = {}) => ({ action, targetType: 'webhook_endpoint', targetId: id, details });

export async function createWebhookEndpoint(
  db: Db,
  principal: Principal,
  body: z.output<typeof createWebhookEndpointRequest>,
  settings: WebhookSettings,
): Promise<WebhookEndpointView & { secret: string }> {
  const { tenantId } = principal;
  await checkUrl(body.url, settings);
  const [{ n }] = (await db.select({ n: sql<number>`count(*)::int` }).from(webhookEndpoints).where(eq(webhookEndpoints.tenantId, tenantId))) as {
    n: number;
  }[];
  if (n >= WEBHOOK_ENDPOINTS_MAX) throw Errors.conflict(`A tenant can register at most ${WEBHOOK_ENDPOINTS_MAX} webhook endpoints.`);
  const { secret, ciphertext, prefix } = newSecret(settings);
  const row = await withAudit(
    db,
    principal,
    async (tx) =>
      (
        await tx
          .insert(webhookEndpoints)
          .values({
            id: randomUUID(),
            tenantId,
            url: body.url,
            description: body.description,
            eventTypes: body.event_types,
            secretCiphertext: ciphertext,
            secretPrefix: prefix,
          })
          .returning()
      )[0],
    (created) => endpointAudit('webhook_endpoint.created', created.id, { event_types: created.eventTypes as string[] }),
  );
  return { ...toEndpointView(row), secret };
}

export async function listWebhookEndpoints(db: Db, tenantId: string): Promise<WebhookEndpointView[]> {
  const found = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.tenantId, tenantId)).orderBy(asc(webhookEndpoints.createdAt));
  return found.map(toEndpointView);
}

/** The tenant's endpoint row, or 404. */
export async function requireEndpoint(db: Db, tenantId: string, endpointId: string): Promise<EndpointRow> {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.tenantId, tenantId), eq(webhookEndpoints.id, endpointId)))
    .limit(1);
  if (!row) throw Errors.notFound(`Webhook endpoint ${endpointId}`);
  return row;
}

export async function getWebhookEndpoint(db: Db, tenantId: string, endpointId: string): Promise<WebhookEndpointView> {
  return toEndpointView(await requireEndpoint(db, tenantId, endpointId));
}

export async function updateWebhookEndpoint(
  db: Db,
  principal: Principal,
  endpointId: string,
  body: z.output<typeof updateWebhookEndpointRequest>,
  settings: WebhookSettings,
): Promise<WebhookEndpointView> {
  const { tenantId } = principal;
  if (body.url !== undefined) await checkUrl(body.url, settings);
  await requireEndpoint(db, tenantId, endpointId);
  const state =
    body.enabled === undefined
      ? {}
      : body.enabled
        ? ({ status: 'enabled', disabledReason: null, consecutiveFailures: 0, failingSince: null } as const)
        : ({ status: 'disabled', disabledReason: 'manual' } as const);
  const row = await updateEndpoint(
    db,
    principal,
    endpointId,
    {
      ...(body.url !== undefined ? { url: body.url } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
      ...(body.event_types !== undefined ? { eventTypes: body.event_types } : {}),
      ...state,
    },
    (updated) => endpointAudit('webhook_endpoint.updated', updated.id, { status: updated.status, event_types: updated.eventTypes as string[] }),
  );
  return toEndpointView(row);
}

/** Updates the tenant's endpoint (known to exist) and records its audit entry, in one transaction. */
function updateEndpoint(
  db: Db,
  principal: Principal,
  endpointId: string,
  set: Partial<typeof webhookEndpoints.$inferInsert>,
  audit: (row: EndpointRow) => ReturnType<typeof endpointAudit>,
): Promise<EndpointRow> {
  return withAudit(
    db,
    principal,
    async (tx) =>
      (
        await tx
          .update(webhookEndpoints)
          .set({ ...set, updatedAt: sql`now()` })
          .where(and(eq(webhookEndpoints.tenantId, principal.tenantId), eq(webhookEndpoints.id, endpointId)))
          .returning()
      )[0],
    audit,
  );
}

/** Deletes the endpoint with its delivery log. */
export async function deleteWebhookEndpoint(db: Db, principal: Principal, endpointId: string): Promise<{ id: string; deleted: true }> {
  await withAudit(
    db,
    principal,
    async (tx) => {
      const gone = await tx
        .delete(webhookEndpoints)
        .where(and(eq(webhookEndpoints.tenantId, principal.tenantId), eq(webhookEndpoints.id, endpointId)))
        .returning({ id: webhookEndpoints.id });
      if (gone.length === 0) throw Errors.notFound(`Webhook endpoint ${endpointId}`);
    },
    () => endpointAudit('webhook_endpoint.deleted', endpointId),
  );
  return { id: endpointId, deleted: true };
}

/**
 * A new secret signs from now on; the one it replaces keeps signing alongside it (two `v1,` signatures) for
 * MEMORY_WEBHOOK_ROTATION_OVERLAP_HOURS, so receivers can switch without losing a delivery.
 */
export async function rotateWebhookSecret(
  db: Db,
  principal: Principal,
  endpointId: string,
  settings: WebhookSettings,
): Promise<WebhookEndpointView & { secret: string }> {
  const { tenantId } = principal;
  const current = await requireEndpoint(db, tenantId, endpointId);
  const { secret, ciphertext, prefix } = newSecret(settings);
  const overlapMs = settings.rotationOverlapHours * 3_600_000;
  const row = await updateEndpoint(
    db,
    principal,
    endpointId,
    {
      secretCiphertext: ciphertext,
      secretPrefix: prefix,
      previousSecretCiphertext: overlapMs > 0 ? current.secretCiphertext : null,
      previousSecretExpiresAt: overlapMs > 0 ? new Date(Date.now() + overlapMs) : null,
    },
    (rotated) => endpointAudit('webhook_endpoint.secret_rotated', rotated.id),
  );
  return { ...toEndpointView(row), secret };
}
