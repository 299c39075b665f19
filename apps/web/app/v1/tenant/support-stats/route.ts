import { getSupportStats } from '@memory/core/domains/support';
import { supportStatsQuery } from '@memory/core/schemas/domains';
import { json, readQuery, requireTenant, route } from '@/lib/http';

export const GET = route(async (ctx) => {
  const auth = await requireTenant(ctx);
  const q = readQuery(ctx.req, supportStatsQuery);
  const data = await getSupportStats(ctx.rt.db, auth.tenantId, q);
  return json({ data, request_id: ctx.requestId, timestamp: new Date().toISOString() }, { headers: { 'Cache-Control': 'no-store' } });
});
