import { createApiKey, createApiKeyRequest, listApiKeys } from '@memory/core';
import { json, readJson, requireTenant, route } from '@/lib/http';

export const POST = route(async (ctx) => {
  const auth = await requireTenant(ctx);
  const body = await readJson(ctx.req, createApiKeyRequest);
  const key = await createApiKey(ctx.rt.db, auth, body.name);
  ctx.rt.log.info({ request_id: ctx.requestId, tenant_id: auth.tenantId, api_key_id: key.id }, 'api key created');
  return json(
    { data: key, request_id: ctx.requestId, timestamp: new Date().toISOString() },
    { status: 201, headers: { 'Cache-Control': 'no-store' } },
  );
});

export const GET = route(async (ctx) => {
  const auth = await requireTenant(ctx);
  return json({ data: await listApiKeys(ctx.rt.db, auth), request_id: ctx.requestId, timestamp: new Date().toISOString() });
});
