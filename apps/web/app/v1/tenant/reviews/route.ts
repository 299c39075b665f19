import { listReviews } from '@memory/core';
import { readQuery, requireTenant, respond, route } from '@/lib/http';
import * as operations from '@/app/v1/tenant/operations';

export const GET = route(async (ctx) => {
  const auth = await requireTenant(ctx);
  const q = readQuery(ctx.req, operations.listReviews.query);
  const page = await listReviews(ctx.rt.db, auth.tenantId, q);
  return respond(ctx, page);
});
