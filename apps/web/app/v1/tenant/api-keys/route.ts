import { createApiKey, listApiKeys } from '@memory/core';
import { readJson, requireTenant, respond, route } from '@/lib/http';
import * as operations from '@/app/v1/tenant/operations';

export const POST = route(async (ctx) => {
  const auth = await requireTenant(ctx);
  const body = await readJson(ctx.req, operations.createApiKey.body);
  const key = await createApiKey(ctx.rt.db, auth, body.name);
  ctx.log.info({ api_key_id: key.id }, 'api key created');
  return respond(ctx, key, { status: 201, headers: { 'Cache-Control': 'no-store' } });
});

export const GET = route(async (ctx) => {
  const auth = await requireTenant(ctx);
  return respond(ctx, await listApiKeys(ctx.rt.db, auth));
});
