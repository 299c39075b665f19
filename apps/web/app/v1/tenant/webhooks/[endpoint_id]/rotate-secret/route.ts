import { Errors, rotateWebhookSecret } from '@memory/core';
import { isUuid, requireTenant, respond, route } from '@/lib/http';

/** The new secret is in this response only; the previous one keeps signing for the overlap window. */
export const POST = route<{ endpoint_id: string }>(async (ctx) => {
  const auth = await requireTenant(ctx);
  if (!isUuid(ctx.params.endpoint_id)) throw Errors.notFound(`Webhook endpoint ${ctx.params.endpoint_id}`);
  const endpoint = await rotateWebhookSecret(ctx.rt.db, auth, ctx.params.endpoint_id, ctx.rt.config.webhooks);
  ctx.log.info({ endpoint_id: endpoint.id }, 'webhook secret rotated');
  return respond(ctx, endpoint, { headers: { 'Cache-Control': 'no-store' } });
});
