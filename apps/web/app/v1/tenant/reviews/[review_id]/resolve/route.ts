import { Errors, resolveReview } from '@memory/core';
import { isUuid, readJson, requireTenant, respond, route } from '@/lib/http';
import * as operations from '@/app/v1/tenant/operations';

export const POST = route<{ review_id: string }>(async (ctx) => {
  const auth = await requireTenant(ctx);
  if (!isUuid(ctx.params.review_id)) throw Errors.notFound(`Review ${ctx.params.review_id}`);
  const body = await readJson(ctx.req, operations.resolveReview.body);
  const review = await resolveReview(ctx.rt.db, auth, ctx.params.review_id, body);
  ctx.log.info({ review_id: review.id, decision: review.decision }, 'review resolved');
  return respond(ctx, review);
});
