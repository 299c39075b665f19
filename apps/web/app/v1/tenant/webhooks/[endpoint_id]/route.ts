import { Errors, deleteWebhookEndpoint, getWebhookEndpoint, updateWebhookEndpoint, updateWebhookEndpointRequest } from '@memory/core';
import { isUuid, json, readJson, requireTenant, route } from '@/lib/http';

type Params = { endpoint_id: string };

function endpointId(id: string): string {
  if (!isUuid(id)) throw Errors.notFound(`Webhook endpoint ${id}`);
  return id;
}

export const GET = route<Params>(async (ctx) => {
  const auth = await requireTenant(ctx);
  const endpoint = await getWebhookEndpoint(ctx.rt.db, auth.tenantId, endpointId(ctx.params.endpoint_id));
  return json({ data: endpoint, request_id: ctx.requestId, timestamp: new Date().toISOString() });
});

export const PATCH = route<Params>(async (ctx) => {
  const auth = await requireTenant(ctx);
  const id = endpointId(ctx.params.endpoint_id);
  const body = await readJson(ctx.req, updateWebhookEndpointRequest);
  const endpoint = await updateWebhookEndpoint(ctx.rt.db, auth.tenantId, id, body, ctx.rt.config.webhooks);
  ctx.rt.log.info({ request_id: ctx.requestId, tenant_id: auth.tenantId, endpoint_id: id, status: endpoint.status }, 'webhook endpoint updated');
  return json({ data: endpoint, request_id: ctx.requestId, timestamp: new Date().toISOString() });
});

export const DELETE = route<Params>(async (ctx) => {
  const auth = await requireTenant(ctx);
  const gone = await deleteWebhookEndpoint(ctx.rt.db, auth.tenantId, endpointId(ctx.params.endpoint_id));
  ctx.rt.log.info({ request_id: ctx.requestId, tenant_id: auth.tenantId, endpoint_id: gone.id }, 'webhook endpoint deleted');
  return json({ data: gone, request_id: ctx.requestId, timestamp: new Date().toISOString() });
});
