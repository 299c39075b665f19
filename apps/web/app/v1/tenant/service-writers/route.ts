import { Errors, createServiceWriter, createServiceWriterRequest, listServiceWriters } from '@memory/core';
import { json, readJson, requireTenant, route } from '@/lib/http';

/** Invalid writer bodies are PROV_422 (the spec's code for an invalid service writer). */
export const POST = route(async (ctx) => {
  const auth = await requireTenant(ctx);
  const body = await readJson(ctx.req, createServiceWriterRequest, {
    classify: (errors) => Errors.provInvalid('The service writer is invalid.', errors),
  });
  const writer = await createServiceWriter(ctx.rt.db, auth, body);
  ctx.rt.log.info({ request_id: ctx.requestId, tenant_id: auth.tenantId, writer_id: writer.id }, 'service writer created');
  return json({ data: writer, request_id: ctx.requestId, timestamp: new Date().toISOString() }, { status: 201 });
});

export const GET = route(async (ctx) => {
  const auth = await requireTenant(ctx);
  const writers = await listServiceWriters(ctx.rt.db, auth);
  return json({ data: writers, request_id: ctx.requestId, timestamp: new Date().toISOString() });
});
