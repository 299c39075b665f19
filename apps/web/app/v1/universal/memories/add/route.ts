import { addUniversalMemories, universalAddRequest } from '@memory/core';
import { idempotentJson, readJson, requireUniversalAgent, route } from '@/lib/http';

export const POST = route(async (ctx) => {
  const auth = await requireUniversalAgent(ctx);
  const body = await readJson(ctx.req, universalAddRequest);
  const outcome = await addUniversalMemories(
    { db: ctx.rt.db, config: ctx.rt.config, queue: ctx.rt.queue },
    auth,
    body,
    { requestId: ctx.requestId },
  );
  return idempotentJson(outcome);
});
