import { Errors, resendWebhookDelivery } from '@memory/core';
import { isUuid, json, requireTenant, route } from '@/lib/http';

export const POST = route<{ endpoint_id: string; delivery_id: string }>(async (ctx) => {
  const auth = await requireTenant(ctx);
  const { endpoint_id: endpointId, delivery_id: deliveryId } = ctx.params;
  if (!isUuid(endpointId)) throw Errors.notFound(`Webhook endpoint ${endpointId}`);
  if (!isUuid(deliveryId)) throw Errors.notFound(`Webhook delivery ${deliveryId}`);
  const delivery = await resendWebhookDelivery(ctx.rt.db, auth.tenantId, endpointId, deliveryId, ctx.rt.config.webhooks);
  ctx.rt.log.info({ request_id: ctx.requestId, tenant_id: auth.tenantId, delivery_id: delivery.id, resend_of: deliveryId }, 'webhook resend queued');
  return json({ data: delivery, request_id: ctx.requestId, timestamp: new Date().toISOString() }, { status: 202 });
});
