import { deletePassport, passportMeView } from '@memory/core';
import { json, requirePassport, route } from '@/lib/http';

/** GET /v1/uui/me: the passport of the session. */
export const GET = route(async (ctx) => {
  const me = await requirePassport(ctx);
  return json({ data: passportMeView(me), request_id: ctx.requestId, timestamp: new Date().toISOString() });
});

/** DELETE /v1/uui/me: erases the passport (memories, grants, connections, tokens, sessions, codes); audited without content. */
export const DELETE = route(async (ctx) => {
  const me = await requirePassport(ctx);
  const deleted = await deletePassport(ctx.rt.db, me.passportUserId);
  ctx.rt.log.info({ request_id: ctx.requestId, passport_user_id: me.passportUserId }, 'passport deleted');
  return json({ data: deleted, request_id: ctx.requestId, timestamp: new Date().toISOString() });
});
