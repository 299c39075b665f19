import { Errors, getUsageReport, setTenantPlan } from '@memory/core';
import { isUuid, readJson, requireAdmin, respond, route } from '@/lib/http';
import * as operations from '@/app/v1/admin/operations';

/** GET: the tenant's plan and usage. PUT: set its plan (a new period starts; docs/quotas.md). 404 without MEMORY_ADMIN_TOKEN. */
export const GET = route<{ tenant_id: string }>(async (ctx) => {
  requireAdmin(ctx);
  if (!isUuid(ctx.params.tenant_id)) throw Errors.notFound('The tenant');
  const data = await getUsageReport(ctx.rt.db, ctx.params.tenant_id, new Date(), ctx.rt.quota.rateLimitDefaults);
  return respond(ctx, data, { headers: { 'Cache-Control': 'no-store' } });
});

export const PUT = route<{ tenant_id: string }>(async (ctx) => {
  requireAdmin(ctx);
  if (!isUuid(ctx.params.tenant_id)) throw Errors.notFound('The tenant');
  const body = await readJson(ctx.req, operations.setTenantPlan.body);
  const data = await setTenantPlan(ctx.rt.db, ctx.params.tenant_id, body, { actor: 'operator', env: ctx.rt.quota.rateLimitDefaults });
  ctx.log.info({ tenant_id: ctx.params.tenant_id, plan: body.plan }, 'tenant plan set');
  return respond(ctx, data, { headers: { 'Cache-Control': 'no-store' } });
});
