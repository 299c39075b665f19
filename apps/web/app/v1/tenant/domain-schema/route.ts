import { getDomainSchema, setDomainSchema } from '@memory/core';
import { readJson, requireTenant, respond, route } from '@/lib/http';
import * as operations from '@/app/v1/tenant/operations';

export const GET = route(async (ctx) => {
  const auth = await requireTenant(ctx);
  const data = await getDomainSchema(ctx.rt.db, auth.tenantId);
  return respond(ctx, data, { headers: { 'Cache-Control': 'no-store' } });
});

export const PATCH = route(async (ctx) => {
  const auth = await requireTenant(ctx);
  const body = await readJson(ctx.req, operations.setDomainSchema.body);
  const data = await setDomainSchema(ctx.rt.db, auth, body.domain_schema);
  ctx.log.info(
    { api_key_id: auth.apiKeyId, domain_schema: data.domain_schema },
    'tenant domain schema set',
  );
  return respond(ctx, data, { headers: { 'Cache-Control': 'no-store' } });
});
