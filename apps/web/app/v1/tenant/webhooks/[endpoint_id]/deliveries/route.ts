import { Errors, listWebhookDeliveries, listWebhookDeliveriesQuery } from '@memory/core';
import { isUuid, readQuery, requireTenant, respond, route } from '@/lib/http';

export const GET = route<{ endpoint_id: string }>(async (ctx) => {
  const auth = await requireTenant(ctx);
  if (!isUuid(ctx.params.endpoint_id)) throw Errors.notFound(`Webhook endpoint ${ctx.params.endpoint_id}`);
  const q = readQuery(ctx.req, listWebhookDeliveriesQuery);
  const page = await listWebhookDeliveries(ctx.rt.db, auth.tenantId, ctx.params.endpoint_id, q, ctx.rt.config.webhooks);
  return respond(ctx, page);
});
