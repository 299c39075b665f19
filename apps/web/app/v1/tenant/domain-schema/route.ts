import { getDomainSchema, setDomainSchema } from '@memory/core/domains/settings';
import { updateDomainSchemaRequest } from '@memory/core/schemas/domains';
import { json, readJson, requireTenant, route } from '@/lib/http';

export const GET = route(async (ctx) => {
  const auth = await requireTenant(ctx);
  const data = await getDomainSchema(ctx.rt.db, auth.tenantId);
  return json({ data, request_id: ctx.requestId, timestamp: new Date().toISOString() }, { headers: { 'Cache-Control': 'no-store' } });
});

export const PATCH = route(async (ctx) => {
  const auth = await requireTenant(ctx);
  const body = await readJson(ctx.req, updateDomainSchemaRequest);
  const data = await setDomainSchema(ctx.rt.db, auth.tenantId, body.domain_schema, `api_key:${auth.apiKeyId}`);
  ctx.rt.log.info(
    { request_id: ctx.requestId, tenant_id: auth.tenantId, api_key_id: auth.apiKeyId, domain_schema: data.domain_schema },
    'tenant domain schema set',
  );
  return json({ data, request_id: ctx.requestId, timestamp: new Date().toISOString() }, { headers: { 'Cache-Control': 'no-store' } });
});
