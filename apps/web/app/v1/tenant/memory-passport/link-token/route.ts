import { createLinkToken } from '@memory/core';
import { readJson, requireTenant, respond, route } from '@/lib/http';
import * as operations from '@/app/v1/tenant/operations';

/**
 * The address the tenant's request reached (Host, or X-Forwarded-Host/-Proto behind a proxy). The caller is the
 * authenticated tenant backend, so it only shapes its own link; set MEMORY_CONSENT_URL in production.
 */
function ownOrigin(req: Request): string {
  const url = new URL(req.url);
  const host = req.headers.get('x-forwarded-host')?.split(',')[0]?.trim() || req.headers.get('host') || url.host;
  const forwarded = req.headers.get('x-forwarded-proto')?.split(',')[0]?.trim();
  const proto = forwarded === 'http' || forwarded === 'https' ? forwarded : url.protocol.replace(/:$/, '');
  return `${proto}://${host}`;
}

/** POST /v1/tenant/memory-passport/link-token: a single-use consent link for one of the tenant's agents and users. */
export const POST = route(async (ctx) => {
  const auth = await requireTenant(ctx);
  const body = await readJson(ctx.req, operations.createLinkToken.body);
  const created = await createLinkToken(ctx.rt.db, auth, body, ctx.rt.config.passport.linkTokenTtlSeconds);
  const base = ctx.rt.config.passport.consentUrl ?? ownOrigin(ctx.req);
  const connect = new URL(`${base}/connect`);
  connect.searchParams.set('agent_id', body.agent_id);
  connect.searchParams.set('link_token', created.link_token);
  return respond(ctx, { ...created, connect_url: connect.toString() }, { status: 201, headers: { 'Cache-Control': 'no-store' } });
});
