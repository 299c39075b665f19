import { listCustomers } from '@memory/core';
import { readQuery, requireTenant, respond, route } from '@/lib/http';
import * as operations from '@/app/v1/tenant/operations';

export const GET = route(async (ctx) => {
  const auth = await requireTenant(ctx);
  const q = readQuery(ctx.req, operations.listCustomers.query);
  const data = await listCustomers(ctx.rt.db, auth.tenantId, q);
  return respond(ctx, data, { headers: { 'Cache-Control': 'no-store' } });
});
