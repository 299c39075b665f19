import { Errors, rotateWebhookSecret } from '@memory/core';
import { isUuid, json, requireTenant, route } from '@/lib/http';

/** The new secret is in this response only; the previous one keeps signing for the overlap window. */
export const POST = route<{ endpoint_id: string }>(async (ctx) => {
  const auth = await requireTenant(ctx);
  if (!isUuid(ctx.params.endpoint_id)) throw Errors.notFound(`Webhook endpoint ${ctx.params.endpoint_id}`);
  const endpoint = await rotateWebhookSecret(ctx.rt.db, auth.tenantId, ctx.params.endpoint_id, ctx.rt.config.webhooks);
  ctx.rt.log.info({ request_id: ctx.requestId, tenant_id: auth.tenantId, endpoint_id: endpoint.id }, 'webhook secret rotated');
  return json(
    { data: endpoint, request_id: ctx.requestId, timestamp: new Date().toISOString() },
    { headers: { 'Cache-Control': 'no-store' } },
  );
});
