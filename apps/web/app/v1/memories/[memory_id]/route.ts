import { Errors, deleteMemory, enforceWriteRate, getMemoryDetail, updateMemory } from '@memory/core';
import { isUuid, rateLimited, readJson, requireTenant, respond, route } from '@/lib/http';
import * as operations from '@/app/v1/memories/operations';

export const GET = route<{ memory_id: string }>(async (ctx) => {
  const auth = await requireTenant(ctx);
  const id = ctx.params.memory_id;
  if (!isUuid(id)) throw Errors.notFound(`Memory ${id}`);
  return respond(ctx, await getMemoryDetail(ctx.rt.db, auth, id));
});

export const PATCH = route<{ memory_id: string }>(async (ctx) => {
  const auth = await requireTenant(ctx);
  const id = ctx.params.memory_id;
  if (!isUuid(id)) throw Errors.notFound(`Memory ${id}`);
  const body = await readJson(ctx.req, operations.updateMemory.body);
  const rate = await enforceWriteRate(ctx.rt.db, ctx.rt.quota, auth, null);
  const detail = await updateMemory({ db: ctx.rt.db, embeddings: ctx.rt.retrieval.embeddings, log: ctx.log }, auth, id, body);
  return rateLimited(respond(ctx, detail), rate);
});

export const DELETE = route<{ memory_id: string }>(async (ctx) => {
  const auth = await requireTenant(ctx);
  const id = ctx.params.memory_id;
  if (!isUuid(id)) throw Errors.notFound(`Memory ${id}`);
  const rate = await enforceWriteRate(ctx.rt.db, ctx.rt.quota, auth, null);
  const result = await deleteMemory(ctx.rt.db, auth, id, `api_key:${auth.apiKeyId}`);
  return rateLimited(respond(ctx, result), rate);
});
