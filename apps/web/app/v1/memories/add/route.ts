import { Errors, LIMITS, addMemories, addRequest } from '@memory/core';
import { json, readJson, requireTenant, route } from '@/lib/http';

export const POST = route(async (ctx) => {
  const auth = await requireTenant(ctx);
  // An invalid source block is a provenance error (PROV_422); anything else is validation_failed.
  const body = await readJson(ctx.req, addRequest, {
    classify: (errors) =>
      errors.some((e) => e.path === 'source' || e.path.startsWith('source.'))
        ? Errors.provInvalid('The source block is invalid.', errors)
        : null,
  });
  const idempotencyKey = ctx.req.headers.get('idempotency-key') ?? undefined;
  if (idempotencyKey !== undefined && (idempotencyKey.length === 0 || idempotencyKey.length > LIMITS.idempotencyKeyChars)) {
    throw Errors.validation([
      { path: 'Idempotency-Key', message: `must be 1 to ${LIMITS.idempotencyKeyChars} characters` },
    ]);
  }
  const outcome = await addMemories(
    { db: ctx.rt.db, config: ctx.rt.config, queue: ctx.rt.queue },
    auth,
    body,
    { idempotencyKey, requestId: ctx.requestId },
  );
  return json(outcome.body, {
    status: outcome.httpStatus,
    headers: outcome.replayed ? { 'Idempotent-Replayed': 'true' } : {},
  });
});
