import { enforceWriteRate, recordRetrievalFeedback } from '@memory/core';
import { idempotentJson, rateLimited, readIdempotencyKey, readJson, requireTenant, route } from '@/lib/http';
import * as operations from '@/app/v1/memories/operations';

export const POST = route(async (ctx) => {
  const auth = await requireTenant(ctx);
  const body = await readJson(ctx.req, operations.sendRetrievalFeedback.body);
  const idempotencyKey = readIdempotencyKey(ctx.req);
  const rate = await enforceWriteRate(ctx.rt.db, ctx.rt.quota, auth, null);
  const outcome = await recordRetrievalFeedback(
    { db: ctx.rt.db, config: ctx.rt.config, queue: ctx.rt.queue, activity: ctx.rt.retrieval.activity },
    auth,
    body,
    { idempotencyKey, requestId: ctx.requestId },
  );
  return rateLimited(idempotentJson(outcome), rate);
});
