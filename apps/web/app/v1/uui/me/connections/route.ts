import { listConnections } from '@memory/core';
import { requirePassport, respond, route } from '@/lib/http';

/** GET /v1/uui/me/connections: the services linked to this passport. */
export const GET = route(async (ctx) => {
  const me = await requirePassport(ctx);
  const connections = await listConnections(ctx.rt.db, me.passportUserId);
  return respond(ctx, connections);
});
