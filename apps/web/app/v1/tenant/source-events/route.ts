import { listSourceEvents, listSourceEventsQuery } from '@memory/core';
import { readQuery, requireTenant, respond, route } from '@/lib/http';

export const GET = route(async (ctx) => {
  const auth = await requireTenant(ctx);
  const q = readQuery(ctx.req, listSourceEventsQuery);
  const page = await listSourceEvents(ctx.rt.db, auth, q);
  return respond(ctx, page);
});
