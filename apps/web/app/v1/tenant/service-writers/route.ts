import { Errors, createServiceWriter, listServiceWriters } from '@memory/core';
import { readJson, requireTenant, respond, route } from '@/lib/http';
import * as operations from '@/app/v1/tenant/operations';

/** Invalid writer bodies are PROV_422 (the spec's code for an invalid service writer). */
export const POST = route(async (ctx) => {
  const auth = await requireTenant(ctx);
  const body = await readJson(ctx.req, operations.createServiceWriter.body, {
    classify: (errors) => Errors.provInvalid('The service writer is invalid.', errors),
  });
  const writer = await createServiceWriter(ctx.rt.db, auth, body);
  ctx.log.info({ writer_id: writer.id }, 'service writer created');
  return respond(ctx, writer, { status: 201 });
});

export const GET = route(async (ctx) => {
  const auth = await requireTenant(ctx);
  const writers = await listServiceWriters(ctx.rt.db, auth);
  return respond(ctx, writers);
});
