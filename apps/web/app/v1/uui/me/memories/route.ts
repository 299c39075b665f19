import { listPassportMemories } from '@memory/core';
import { readQuery, requirePassport, respond, route } from '@/lib/http';
import * as operations from '@/app/v1/uui/operations';

/** GET /v1/uui/me/memories: the passport user's universal memories with the agent that wrote each, newest first. */
export const GET = route(async (ctx) => {
  const me = await requirePassport(ctx);
  const query = readQuery(ctx.req, operations.listPassportMemories.query);
  return respond(ctx, await listPassportMemories(ctx.rt.db, me.passportUserId, query));
});
