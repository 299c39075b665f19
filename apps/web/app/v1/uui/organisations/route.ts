import { directoryQuery, listDirectory } from '@memory/core';
import { readQuery, respond, route } from '@/lib/http';

/** GET /v1/uui/organisations: the public directory of listed agents (no authentication). */
export const GET = route(async (ctx) => {
  const query = readQuery(ctx.req, directoryQuery);
  const page = await listDirectory(ctx.rt.db, query);
  return respond(ctx, page);
});
