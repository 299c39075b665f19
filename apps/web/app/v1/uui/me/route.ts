import { deletePassport, passportMeView } from '@memory/core';
import { requirePassport, respond, route } from '@/lib/http';

/** GET /v1/uui/me: the passport of the session. */
export const GET = route(async (ctx) => {
  const me = await requirePassport(ctx);
  return respond(ctx, passportMeView(me));
});

/** DELETE /v1/uui/me: erases the passport (memories, grants, connections, tokens, sessions, codes); audited without content. */
export const DELETE = route(async (ctx) => {
  const me = await requirePassport(ctx);
  const deleted = await deletePassport(ctx.rt.db, me.passportUserId);
  ctx.log.info({ passport_user_id: me.passportUserId }, 'passport deleted');
  return respond(ctx, deleted);
});
