import { Errors, createMemory, enforceWriteRate, listMemories } from '@memory/core';
import { idempotentJson, rateLimited, readIdempotencyKey, readJson, readQuery, requireTenant, respond, route } from '@/lib/http';
import * as operations from '@/app/v1/memories/operations';

export const GET = route(async (ctx) => {
  const auth = await requireTenant(ctx);
  const q = readQuery(ctx.req, operations.listMemories.query);
  const page = await listMemories(ctx.rt.db, auth, {
    externalUserId: q.external_user_id,
    limit: q.limit,
    cursor: q.cursor,
    status: q.status,
    category: q.category,
    metadataFilter: q.metadata_filter,
  });
  return respond(ctx, page);
});

export const POST = route(async (ctx) => {
  const auth = await requireTenant(ctx);
  // An invalid source block is a provenance error (PROV_422), as on add; anything else is validation_failed.
  const body = await readJson(ctx.req, operations.createMemory.body, {
    classify: (errors) =>
      errors.some((e) => e.path === 'source' || e.path.startsWith('source.')) ? Errors.provInvalid('The source block is invalid.', errors) : null,
  });
  const idempotencyKey = readIdempotencyKey(ctx.req);
  const rate = await enforceWriteRate(ctx.rt.db, ctx.rt.quota, auth, body.external_user_id);
  const outcome = await createMemory(
    { db: ctx.rt.db, config: ctx.rt.config, embeddings: ctx.rt.retrieval.embeddings, log: ctx.log },
    auth,
    body,
    { idempotencyKey, requestId: ctx.requestId },
  );
  return rateLimited(idempotentJson(outcome), rate);
});
