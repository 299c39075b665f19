import { listPassportQuestions } from '@memory/core';
import { requirePassport, respond, route } from '@/lib/http';

/** GET /v1/uui/me/questions: the passport user's open questions (conflicting universal claims), oldest first. */
export const GET = route(async (ctx) => {
  const me = await requirePassport(ctx);
  const questions = await listPassportQuestions(ctx.rt.db, me.passportUserId);
  return respond(ctx, questions);
});
