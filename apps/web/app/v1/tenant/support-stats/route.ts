import { getSupportStats } from '@memory/core/domains/support';
import { supportStatsQuery } from '@memory/core/schemas/domains';
import { readQuery, requireTenant, respond, route } from '@/lib/http';

export const GET = route(async (ctx) => {
  const auth = await requireTenant(ctx);
  const q = readQuery(ctx.req, supportStatsQuery);
  const data = await getSupportStats(ctx.rt.db, auth.tenantId, q);
  return respond(ctx, data, { headers: { 'Cache-Control': 'no-store' } });
});
