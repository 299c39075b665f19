import { Errors, addMemories } from '@memory/core';
import { idempotentJson, readIdempotencyKey, readJson, requireTenant, route } from '@/lib/http';
import * as operations from '@/app/v1/memories/operations';

export const POST = route(async (ctx) => {
  const auth = await requireTenant(ctx);
  // An invalid source block is a provenance error (PROV_422); anything else is validation_failed.
  const body = await readJson(ctx.req, operations.addMemories.body, {
    classify: (errors) =>
      errors.some((e) => e.path === 'source' || e.path.startsWith('source.'))
        ? Errors.provInvalid('The source block is invalid.', errors)
        : null,
  });
  const idempotencyKey = readIdempotencyKey(ctx.req);
  const outcome = await addMemories(
    { db: ctx.rt.db, config: ctx.rt.config, queue: ctx.rt.queue, quota: ctx.rt.quota },
    auth,
    body,
    { idempotencyKey, requestId: ctx.requestId },
  );
  return idempotentJson(outcome);
});
