import { listCustomers } from '@memory/core/domains/support';
import { listCustomersQuery } from '@memory/core/schemas/domains';
import { readQuery, requireTenant, respond, route } from '@/lib/http';

export const GET = route(async (ctx) => {
  const auth = await requireTenant(ctx);
  const q = readQuery(ctx.req, listCustomersQuery);
  const data = await listCustomers(ctx.rt.db, auth.tenantId, q);
  return respond(ctx, data, { headers: { 'Cache-Control': 'no-store' } });
});
