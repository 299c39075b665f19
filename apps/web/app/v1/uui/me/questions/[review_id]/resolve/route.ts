import { Errors, resolvePassportQuestion } from '@memory/core';
import { isUuid, readJson, requirePassport, respond, route } from '@/lib/http';
import * as operations from '@/app/v1/uui/operations';

/**
 * POST /v1/uui/me/questions/{review_id}/resolve {keep_memory_id}: the user keeps one option, the other is archived.
 * Another user's (or an unknown) question is 404, an answered one 409, a memory that is not an option 422.
 */
export const POST = route<{ review_id: string }>(async (ctx) => {
  const me = await requirePassport(ctx);
  const reviewId = ctx.params.review_id;
  if (!isUuid(reviewId)) throw Errors.notFound(`Question ${reviewId}`);
  const body = await readJson(ctx.req, operations.resolvePassportQuestion.body);
  const resolved = await resolvePassportQuestion(ctx.rt.db, me.passportUserId, reviewId, body.keep_memory_id);
  return respond(ctx, resolved);
});
