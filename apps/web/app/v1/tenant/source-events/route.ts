import { listSourceEvents } from '@memory/core';
import { readQuery, requireTenant, respond, route } from '@/lib/http';
import * as operations from '@/app/v1/tenant/operations';

export const GET = route(async (ctx) => {
  const auth = await requireTenant(ctx);
  const q = readQuery(ctx.req, operations.listSourceEvents.query);
  const page = await listSourceEvents(ctx.rt.db, auth, q);
  return respond(ctx, page);
});
