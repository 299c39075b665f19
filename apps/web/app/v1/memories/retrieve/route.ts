import { retrieveMemories, retrieveRequest } from '@memory/core';
import { json, readJson, requireTenant, route } from '@/lib/http';

export const POST = route(async (ctx) => {
  const auth = await requireTenant(ctx);
  const body = await readJson(ctx.req, retrieveRequest);
  return json(await retrieveMemories(ctx.rt.retrieval, auth, body, { requestId: ctx.requestId }));
});
