import { listReviews, listReviewsQuery } from '@memory/core';
import { readQuery, requireTenant, respond, route } from '@/lib/http';

export const GET = route(async (ctx) => {
  const auth = await requireTenant(ctx);
  const q = readQuery(ctx.req, listReviewsQuery);
  const page = await listReviews(ctx.rt.db, auth.tenantId, q);
  return respond(ctx, page);
});
