import { getTenantSettings, updateTenantSettings } from '@memory/core';
import { readJson, requireTenant, respond, route } from '@/lib/http';
import * as operations from '@/app/v1/tenant/operations';

export const GET = route(async (ctx) => {
  const auth = await requireTenant(ctx);
  const data = await getTenantSettings(ctx.rt.db, auth.tenantId);
  return respond(ctx, data, { headers: { 'Cache-Control': 'no-store' } });
});

export const PATCH = route(async (ctx) => {
  const auth = await requireTenant(ctx);
  const body = await readJson(ctx.req, operations.updateTenantSettings.body);
  const data = await updateTenantSettings(ctx.rt.db, auth, body);
  ctx.log.info(
    { api_key_id: auth.apiKeyId, payload_retention_days: data.payload_retention_days },
    'tenant settings updated',
  );
  return respond(ctx, data, { headers: { 'Cache-Control': 'no-store' } });
});
