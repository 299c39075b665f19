import { clientIp, sendPassportCode } from '@memory/core';
import { mailerFor } from '@/lib/console';
import { readJson, respond, route } from '@/lib/http';
import * as operations from '@/app/v1/uui/operations';

/** POST /v1/uui/otp/send: a sign-in code for any address (the first successful verify creates the passport). */
export const POST = route(async (ctx) => {
  const body = await readJson(ctx.req, operations.sendPassportCode.body);
  const sent = await sendPassportCode(ctx.rt.db, mailerFor(ctx.rt), { email: body.email, ip: clientIp(ctx.req.headers) });
  return respond(ctx, sent);
});
