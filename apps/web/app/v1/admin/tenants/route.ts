import { createTenant, createTenantRequest } from '@memory/core';
import { json, readJson, requireAdmin, route } from '@/lib/http';

export const POST = route(async (ctx) => {
  requireAdmin(ctx);
  const body = await readJson(ctx.req, createTenantRequest);
  const created = await createTenant(ctx.rt.db, body.name, { plan: body.plan ?? ctx.rt.config.quota.defaultPlan });
  ctx.log.info({ tenant_id: created.tenant_id }, 'tenant created');
  return json(
    { data: { tenant_id: created.tenant_id, name: created.name, api_key: created.api_key } },
    { status: 201, headers: { 'Cache-Control': 'no-store' } },
  );
});
