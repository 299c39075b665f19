import { createTenant } from '@memory/core';
import { json, readJson, requireAdmin, route } from '@/lib/http';
import * as operations from '@/app/v1/admin/operations';

export const POST = route(async (ctx) => {
  requireAdmin(ctx);
  const body = await readJson(ctx.req, operations.createTenant.body);
  const created = await createTenant(ctx.rt.db, body.name, { plan: body.plan ?? ctx.rt.config.quota.defaultPlan });
  ctx.log.info({ tenant_id: created.tenant_id }, 'tenant created');
  return json(
    { data: { tenant_id: created.tenant_id, name: created.name, api_key: created.api_key } },
    { status: 201, headers: { 'Cache-Control': 'no-store' } },
  );
});
