import { createWebhookEndpoint, createWebhookEndpointRequest, listWebhookEndpoints } from '@memory/core';
import { json, readJson, requireTenant, route } from '@/lib/http';

/** The signing secret is in this response only (docs/webhooks.md). */
export const POST = route(async (ctx) => {
  const auth = await requireTenant(ctx);
  const body = await readJson(ctx.req, createWebhookEndpointRequest);
  const endpoint = await createWebhookEndpoint(ctx.rt.db, auth.tenantId, body, ctx.rt.config.webhooks);
  ctx.rt.log.info({ request_id: ctx.requestId, tenant_id: auth.tenantId, endpoint_id: endpoint.id }, 'webhook endpoint created');
  return json(
    { data: endpoint, request_id: ctx.requestId, timestamp: new Date().toISOString() },
    { status: 201, headers: { 'Cache-Control': 'no-store' } },
  );
});

export const GET = route(async (ctx) => {
  const auth = await requireTenant(ctx);
  const endpoints = await listWebhookEndpoints(ctx.rt.db, auth.tenantId);
  return json({ data: endpoints, request_id: ctx.requestId, timestamp: new Date().toISOString() });
});
