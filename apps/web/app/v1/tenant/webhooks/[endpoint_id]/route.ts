import { Errors, deleteWebhookEndpoint, getWebhookEndpoint, updateWebhookEndpoint } from '@memory/core';
import { isUuid, readJson, requireTenant, respond, route } from '@/lib/http';
import * as operations from '@/app/v1/tenant/webhooks/operations';

type Params = { endpoint_id: string };

function endpointId(id: string): string {
  if (!isUuid(id)) throw Errors.notFound(`Webhook endpoint ${id}`);
  return id;
}

export const GET = route<Params>(async (ctx) => {
  const auth = await requireTenant(ctx);
  const endpoint = await getWebhookEndpoint(ctx.rt.db, auth.tenantId, endpointId(ctx.params.endpoint_id));
  return respond(ctx, endpoint);
});

export const PATCH = route<Params>(async (ctx) => {
  const auth = await requireTenant(ctx);
  const id = endpointId(ctx.params.endpoint_id);
  const body = await readJson(ctx.req, operations.updateWebhookEndpoint.body);
  const endpoint = await updateWebhookEndpoint(ctx.rt.db, auth, id, body, ctx.rt.config.webhooks);
  ctx.log.info({ endpoint_id: id, status: endpoint.status }, 'webhook endpoint updated');
  return respond(ctx, endpoint);
});

export const DELETE = route<Params>(async (ctx) => {
  const auth = await requireTenant(ctx);
  const gone = await deleteWebhookEndpoint(ctx.rt.db, auth, endpointId(ctx.params.endpoint_id));
  ctx.log.info({ endpoint_id: gone.id }, 'webhook endpoint deleted');
  return respond(ctx, gone);
});
