import { Errors, getReview } from '@memory/core';
import { isUuid, requireTenant, respond, route } from '@/lib/http';

export const GET = route<{ review_id: string }>(async (ctx) => {
  const auth = await requireTenant(ctx);
  const review = isUuid(ctx.params.review_id) ? await getReview(ctx.rt.db, auth.tenantId, ctx.params.review_id) : null;
  if (!review) throw Errors.notFound(`Review ${ctx.params.review_id}`);
  return respond(ctx, review);
});
