import { listAccessLog } from '@memory/core';
import { readQuery, requirePassport, respond, route } from '@/lib/http';
import * as operations from '@/app/v1/uui/operations';

/** GET /v1/uui/me/access-log: the agents' reads of the user's memories (agent, time, how many), newest first. */
export const GET = route(async (ctx) => {
  const me = await requirePassport(ctx);
  const query = readQuery(ctx.req, operations.listAccessLog.query);
  return respond(ctx, await listAccessLog(ctx.rt.db, me.passportUserId, query));
});
