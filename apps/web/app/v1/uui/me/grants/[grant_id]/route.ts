import { revokeGrant } from '@memory/core';
import { requirePassport, respond, route } from '@/lib/http';

/** DELETE /v1/uui/me/grants/{grant_id}: revoked at once (another user's grant is 404). */
export const DELETE = route<{ grant_id: string }>(async (ctx) => {
  const me = await requirePassport(ctx);
  const revoked = await revokeGrant(ctx.rt.db, me.passportUserId, ctx.params.grant_id);
  return respond(ctx, revoked);
});
