import { clientIp } from '@memory/core/console/rules';
import { passportEmailRequest, sendPassportCode } from '@memory/core';
import { mailerFor } from '@/lib/console';
import { readJson, respond, route } from '@/lib/http';

/** POST /v1/uui/otp/send: a sign-in code for any address (the first successful verify creates the passport). */
export const POST = route(async (ctx) => {
  const body = await readJson(ctx.req, passportEmailRequest);
  const sent = await sendPassportCode(ctx.rt.db, mailerFor(ctx.rt), { email: body.email, ip: clientIp(ctx.req.headers) });
  return respond(ctx, sent);
});
