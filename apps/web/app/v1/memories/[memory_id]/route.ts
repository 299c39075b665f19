import { Errors, deleteMemory } from '@memory/core';
import { isUuid, json, requireTenant, route } from '@/lib/http';

export const DELETE = route<{ memory_id: string }>(async (ctx) => {
  const auth = await requireTenant(ctx);
  const id = ctx.params.memory_id;
  if (!isUuid(id)) throw Errors.notFound(`Memory ${id}`);
  const result = await deleteMemory(ctx.rt.db, auth, id, `api_key:${auth.apiKeyId}`);
  return json({ data: result, request_id: ctx.requestId, timestamp: new Date().toISOString() });
});
