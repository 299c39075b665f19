import { disconnect } from '@memory/core';
import { requirePassport, respond, route } from '@/lib/http';

/** DELETE /v1/uui/me/connections/{connection_id}: disconnects and revokes that connection's X-Service-UUI tokens. */
export const DELETE = route<{ connection_id: string }>(async (ctx) => {
  const me = await requirePassport(ctx);
  const done = await disconnect(ctx.rt.db, me.passportUserId, ctx.params.connection_id);
  return respond(ctx, done);
});
