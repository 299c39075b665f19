import { Errors, resendWebhookDelivery } from '@memory/core';
import { isUuid, requireTenant, respond, route } from '@/lib/http';

export const POST = route<{ endpoint_id: string; delivery_id: string }>(async (ctx) => {
  const auth = await requireTenant(ctx);
  const { endpoint_id: endpointId, delivery_id: deliveryId } = ctx.params;
  if (!isUuid(endpointId)) throw Errors.notFound(`Webhook endpoint ${endpointId}`);
  if (!isUuid(deliveryId)) throw Errors.notFound(`Webhook delivery ${deliveryId}`);
  const delivery = await resendWebhookDelivery(ctx.rt.db, auth, endpointId, deliveryId, ctx.rt.config.webhooks);
  ctx.log.info({ delivery_id: delivery.id, resend_of: deliveryId }, 'webhook resend queued');
  return respond(ctx, delivery, { status: 202 });
});
