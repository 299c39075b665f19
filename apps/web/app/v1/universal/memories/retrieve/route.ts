import { retrieveUniversalMemories, universalRetrieveRequest } from '@memory/core';
import { json, readJson, requireUniversalAgent, route } from '@/lib/http';

export const POST = route(async (ctx) => {
  const auth = await requireUniversalAgent(ctx);
  const body = await readJson(ctx.req, universalRetrieveRequest);
  return json(await retrieveUniversalMemories(ctx.rt.retrieval, auth, body, { requestId: ctx.requestId }));
});
