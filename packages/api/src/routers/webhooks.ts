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
import { z } from 'zod';
import { adminProcedure, router } from '../trpc';

const endpointInput = z.object({ endpoint_id: z.uuid() });

export const webhooksRouter = router({
  catalogue: adminProcedure.query(() => WEBHOOK_EVENT_TYPES.map((type) => ({ type, description: WEBHOOK_EVENT_DESCRIPTIONS[type] }))),
  list: adminProcedure.query(({ ctx }) => listWebhookEndpoints(ctx.db, ctx.admin.tenantId)),
  // Every change below is audited by the core function, as the admin (the principal's actor).
  /** The secret is in this response once. */
  create: adminProcedure.input(createWebhookEndpointRequest).mutation(({ ctx, input }) => createWebhookEndpoint(ctx.db, ctx.principal, input, ctx.webhooks)),
  update: adminProcedure
    .input(endpointInput.extend({ changes: updateWebhookEndpointRequest }))
    .mutation(({ ctx, input }) => updateWebhookEndpoint(ctx.db, ctx.principal, input.endpoint_id, input.changes, ctx.webhooks)),
  remove: adminProcedure.input(endpointInput).mutation(({ ctx, input }) => deleteWebhookEndpoint(ctx.db, ctx.principal, input.endpoint_id)),
  /** The new secret is in this response once. */
  rotateSecret: adminProcedure.input(endpointInput).mutation(({ ctx, input }) => rotateWebhookSecret(ctx.db, ctx.principal, input.endpoint_id, ctx.webhooks)),
  deliveries: adminProcedure
    .input(endpointInput.extend(listWebhookDeliveriesQuery.shape).extend({ limit: z.number().int().min(1).max(100).default(20) }))
    .query(({ ctx, input }) => listWebhookDeliveries(ctx.db, ctx.admin.tenantId, input.endpoint_id, input, ctx.webhooks)),
  resend: adminProcedure
    .input(endpointInput.extend({ delivery_id: z.uuid() }))
    .mutation(({ ctx, input }) => resendWebhookDelivery(ctx.db, ctx.principal, input.endpoint_id, input.delivery_id, ctx.webhooks)),
});
