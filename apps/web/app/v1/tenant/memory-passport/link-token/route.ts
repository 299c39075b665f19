import { createLinkToken, createLinkTokenRequest } from '@memory/core';
import { json, readJson, requireTenant, route } from '@/lib/http';

/** POST /v1/tenant/memory-passport/link-token: a single-use consent link for one of the tenant's agents and users. */
export const POST = route(async (ctx) => {
  const auth = await requireTenant(ctx);
  const body = await readJson(ctx.req, createLinkTokenRequest);
  const created = await createLinkToken(ctx.rt.db, auth, body, ctx.rt.config.passport.linkTokenTtlSeconds);
  return json(
    { data: created, request_id: ctx.requestId, timestamp: new Date().toISOString() },
    { status: 201, headers: { 'Cache-Control': 'no-store' } },
  );
});
