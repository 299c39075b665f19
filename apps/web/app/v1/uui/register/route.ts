import { clientIp, registerPassport } from '@memory/core';
import { mailerFor } from '@/lib/console';
import { readJson, respond, route } from '@/lib/http';
import * as operations from '@/app/v1/uui/operations';

/** POST /v1/uui/register: creates the passport if the address has none and sends a code; the same answer either way. */
export const POST = route(async (ctx) => {
  const body = await readJson(ctx.req, operations.registerPassport.body);
  const sent = await registerPassport(ctx.rt.db, mailerFor(ctx.rt), { email: body.email, ip: clientIp(ctx.req.headers) });
  return respond(ctx, sent);
});
