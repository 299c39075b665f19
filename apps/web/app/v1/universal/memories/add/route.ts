import { addUniversalMemories } from '@memory/core';
import { idempotentJson, readJson, requireUniversalAgent, route } from '@/lib/http';
import * as operations from '@/app/v1/universal/operations';

export const POST = route(async (ctx) => {
  const auth = await requireUniversalAgent(ctx);
  const body = await readJson(ctx.req, operations.addUniversalMemories.body);
  const outcome = await addUniversalMemories(
    { db: ctx.rt.db, config: ctx.rt.config, queue: ctx.rt.queue },
    auth,
    body,
    { requestId: ctx.requestId },
  );
  return idempotentJson(outcome);
});
