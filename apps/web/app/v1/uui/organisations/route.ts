import { listDirectory } from '@memory/core';
import { readQuery, respond, route } from '@/lib/http';
import * as operations from '@/app/v1/uui/operations';

/** GET /v1/uui/organisations: the public directory of listed agents (no authentication). */
export const GET = route(async (ctx) => {
  const query = readQuery(ctx.req, operations.listOrganisations.query);
  const page = await listDirectory(ctx.rt.db, query);
  return respond(ctx, page);
});
