import { PASSPORT_SESSION_RULES, verifyPassportCode } from '@memory/core';
import { readJson, respond, route } from '@/lib/http';
import * as operations from '@/app/v1/uui/operations';

/** POST /v1/uui/otp/verify: a right code returns a new session token (`Authorization: Bearer …`), shown once. */
export const POST = route(async (ctx) => {
  const body = await readJson(ctx.req, operations.verifyPassportCode.body);
  const session = await verifyPassportCode(ctx.rt.db, body);
  return respond(
    ctx,
    {
      session_token: session.token,
      token_type: 'Bearer',
      expires_at: session.expiresAt.toISOString(),
      idle_timeout_seconds: PASSPORT_SESSION_RULES.idleMs / 1000,
      passport: { id: session.user.id, email: session.user.email, created_at: session.user.createdAt.toISOString() },
    },
    { headers: { 'Cache-Control': 'no-store' } },
  );
});
