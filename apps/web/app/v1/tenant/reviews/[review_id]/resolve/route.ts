import { Errors, resolveReview, resolveReviewRequest } from '@memory/core';
import { isUuid, json, readJson, requireTenant, route } from '@/lib/http';

export const POST = route<{ review_id: string }>(async (ctx) => {
  const auth = await requireTenant(ctx);
  if (!isUuid(ctx.params.review_id)) throw Errors.notFound(`Review ${ctx.params.review_id}`);
  const body = await readJson(ctx.req, resolveReviewRequest);
  const review = await resolveReview(ctx.rt.db, auth.tenantId, ctx.params.review_id, {
    chosen_memory_id: body.chosen_memory_id,
    resolved_by: `api_key:${auth.apiKeyId}`,
    note: body.note,
  });
  ctx.rt.log.info({ request_id: ctx.requestId, tenant_id: auth.tenantId, review_id: review.id }, 'review resolved');
  return json({ data: review, request_id: ctx.requestId, timestamp: new Date().toISOString() });
});
