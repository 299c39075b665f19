import { retrieveUniversalMemories } from '@memory/core';
import { json, readJson, requireUniversalAgent, route } from '@/lib/http';
import * as operations from '@/app/v1/universal/operations';

export const POST = route(async (ctx) => {
  const auth = await requireUniversalAgent(ctx);
  const body = await readJson(ctx.req, operations.retrieveUniversalMemories.body);
  return json(await retrieveUniversalMemories(ctx.rt.retrieval, auth, body, { requestId: ctx.requestId }));
});
