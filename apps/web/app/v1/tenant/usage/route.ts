import { getUsageReport } from '@memory/core';
import { requireTenant, respond, route } from '@/lib/http';

/** GET /v1/tenant/usage: the caller's plan, period, usage per unit, remaining budget, quota mode and thresholds. */
export const GET = route(async (ctx) => {
  const auth = await requireTenant(ctx);
  const data = await getUsageReport(ctx.rt.db, auth.tenantId, new Date(), ctx.rt.quota.rateLimitDefaults);
  return respond(ctx, data, { headers: { 'Cache-Control': 'no-store' } });
});
