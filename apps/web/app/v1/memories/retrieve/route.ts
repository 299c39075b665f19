import { retrieveMemories } from '@memory/core';
import { json, readJson, requireTenant, route } from '@/lib/http';
import * as operations from '@/app/v1/memories/operations';

export const POST = route(async (ctx) => {
  const auth = await requireTenant(ctx);
  const body = await readJson(ctx.req, operations.retrieveMemories.body);
  return json(await retrieveMemories(ctx.rt.retrieval, auth, body, { requestId: ctx.requestId }));
});
