import { Errors, listWebhookDeliveries } from '@memory/core';
import { isUuid, readQuery, requireTenant, respond, route } from '@/lib/http';
import * as operations from '@/app/v1/tenant/webhooks/operations';

export const GET = route<{ endpoint_id: string }>(async (ctx) => {
  const auth = await requireTenant(ctx);
  if (!isUuid(ctx.params.endpoint_id)) throw Errors.notFound(`Webhook endpoint ${ctx.params.endpoint_id}`);
  const q = readQuery(ctx.req, operations.listWebhookDeliveries.query);
  const page = await listWebhookDeliveries(ctx.rt.db, auth.tenantId, ctx.params.endpoint_id, q, ctx.rt.config.webhooks);
  return respond(ctx, page);
});
