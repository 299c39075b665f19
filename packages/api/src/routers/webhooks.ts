/** The console's Webhooks page: the same core functions as /v1/tenant/webhooks, with the tenant from the session. */
import {
  WEBHOOK_EVENT_DESCRIPTIONS,
  WEBHOOK_EVENT_TYPES,
  createWebhookEndpoint,
  createWebhookEndpointRequest,
  deleteWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookDeliveriesQuery,
  listWebhookEndpoints,
  resendWebhookDelivery,
  rotateWebhookSecret,
  updateWebhookEndpoint,
  updateWebhookEndpointRequest,
} from '@memory/core';
import { adminActor, recordAudit } from '@memory/core/console/audit';
import type { AdminSession } from '@memory/core/console/sessions';
import { z } from 'zod';
import { type Context, adminProcedure, router } from '../trpc';

const endpointInput = z.object({ endpoint_id: z.uuid() });

/** Console changes to endpoints are audited like API keys (ids only, never the URL's query or a secret). */
async function audit(ctx: { db: Context['db']; admin: AdminSession }, action: string, endpointId: string, details = {}) {
  await recordAudit(ctx.db, {
    tenantId: ctx.admin.tenantId,
    actor: adminActor(ctx.admin.adminId),
    action,
    targetType: 'webhook_endpoint',
    targetId: endpointId,
    details,
  });
}

export const webhooksRouter = router({
  catalogue: adminProcedure.query(() => WEBHOOK_EVENT_TYPES.map((type) => ({ type, description: WEBHOOK_EVENT_DESCRIPTIONS[type] }))),
  list: adminProcedure.query(({ ctx }) => listWebhookEndpoints(ctx.db, ctx.admin.tenantId)),
  /** The secret is in this response once. */
  create: adminProcedure.input(createWebhookEndpointRequest).mutation(async ({ ctx, input }) => {
    const created = await createWebhookEndpoint(ctx.db, ctx.admin.tenantId, input, ctx.webhooks);
    await audit(ctx, 'webhook_endpoint.created', created.id, { event_types: created.event_types });
    return created;
  }),
  update: adminProcedure.input(endpointInput.extend({ changes: updateWebhookEndpointRequest })).mutation(async ({ ctx, input }) => {
    const updated = await updateWebhookEndpoint(ctx.db, ctx.admin.tenantId, input.endpoint_id, input.changes, ctx.webhooks);
    await audit(ctx, 'webhook_endpoint.updated', updated.id, { status: updated.status, event_types: updated.event_types });
    return updated;
  }),
  remove: adminProcedure.input(endpointInput).mutation(async ({ ctx, input }) => {
    const gone = await deleteWebhookEndpoint(ctx.db, ctx.admin.tenantId, input.endpoint_id);
    await audit(ctx, 'webhook_endpoint.deleted', gone.id);
    return gone;
  }),
  /** The new secret is in this response once. */
  rotateSecret: adminProcedure.input(endpointInput).mutation(async ({ ctx, input }) => {
    const rotated = await rotateWebhookSecret(ctx.db, ctx.admin.tenantId, input.endpoint_id, ctx.webhooks);
    await audit(ctx, 'webhook_endpoint.secret_rotated', rotated.id);
    return rotated;
  }),
  deliveries: adminProcedure
    .input(endpointInput.extend(listWebhookDeliveriesQuery.shape).extend({ limit: z.number().int().min(1).max(100).default(20) }))
    .query(({ ctx, input }) => listWebhookDeliveries(ctx.db, ctx.admin.tenantId, input.endpoint_id, input, ctx.webhooks)),
  resend: adminProcedure.input(endpointInput.extend({ delivery_id: z.uuid() })).mutation(async ({ ctx, input }) => {
    const delivery = await resendWebhookDelivery(ctx.db, ctx.admin.tenantId, input.endpoint_id, input.delivery_id, ctx.webhooks);
    await audit(ctx, 'webhook_delivery.resent', input.endpoint_id, { delivery_id: input.delivery_id, new_delivery_id: delivery.id });
    return delivery;
  }),
});
