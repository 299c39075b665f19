import { listCustomers } from '@memory/core/domains/support';
import { listCustomersQuery } from '@memory/core/schemas/domains';
import { json, readQuery, requireTenant, route } from '@/lib/http';

export const GET = route(async (ctx) => {
  const auth = await requireTenant(ctx);
  const q = readQuery(ctx.req, listCustomersQuery);
  const data = await listCustomers(ctx.rt.db, auth.tenantId, q);
  return json({ data, request_id: ctx.requestId, timestamp: new Date().toISOString() }, { headers: { 'Cache-Control': 'no-store' } });
});
