import { createLinkToken, createLinkTokenRequest } from '@memory/core';
import { json, readJson, requireTenant, route } from '@/lib/http';

/** POST /v1/tenant/memory-passport/link-token: a single-use consent link for one of the tenant's agents and users. */
export const POST = route(async (ctx) => {
  const auth = await requireTenant(ctx);
  const body = await readJson(ctx.req, createLinkTokenRequest);
  const created = await createLinkToken(ctx.rt.db, auth, body, ctx.rt.config.passport.linkTokenTtlSeconds);
  const base = ctx.rt.config.passport.consentUrl ?? new URL(ctx.req.url).origin;
  const connect = new URL(`${base}/connect`);
  connect.searchParams.set('agent_id', body.agent_id);
  connect.searchParams.set('link_token', created.link_token);
  return json(
    { data: { ...created, connect_url: connect.toString() }, request_id: ctx.requestId, timestamp: new Date().toISOString() },
    { status: 201, headers: { 'Cache-Control': 'no-store' } },
  );
});
