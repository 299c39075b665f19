import { createWebhookEndpoint, listWebhookEndpoints } from '@memory/core';
import { readJson, requireTenant, respond, route } from '@/lib/http';
import * as operations from '@/app/v1/tenant/webhooks/operations';

/** The signing secret is in this response only (docs/webhooks.md). */
export const POST = route(async (ctx) => {
  const auth = await requireTenant(ctx);
  const body = await readJson(ctx.req, operations.createWebhookEndpoint.body);
  const endpoint = await createWebhookEndpoint(ctx.rt.db, auth, body, ctx.rt.config.webhooks);
  ctx.log.info({ endpoint_id: endpoint.id }, 'webhook endpoint created');
  return respond(ctx, endpoint, { status: 201, headers: { 'Cache-Control': 'no-store' } });
});

export const GET = route(async (ctx) => {
  const auth = await requireTenant(ctx);
  const endpoints = await listWebhookEndpoints(ctx.rt.db, auth.tenantId);
  return respond(ctx, endpoints);
});
