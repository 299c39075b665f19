import { Errors, deleteMemory, enforceWriteRate } from '@memory/core';
import { isUuid, rateLimited, requireTenant, respond, route } from '@/lib/http';

export const DELETE = route<{ memory_id: string }>(async (ctx) => {
  const auth = await requireTenant(ctx);
  const id = ctx.params.memory_id;
  if (!isUuid(id)) throw Errors.notFound(`Memory ${id}`);
  const rate = await enforceWriteRate(ctx.rt.db, ctx.rt.quota, auth, null);
  const result = await deleteMemory(ctx.rt.db, auth, id, `api_key:${auth.apiKeyId}`);
  return rateLimited(respond(ctx, result), rate);
});
