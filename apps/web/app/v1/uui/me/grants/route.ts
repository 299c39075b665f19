import { listGrants, saveGrant } from '@memory/core';
import { readJson, requirePassport, respond, route } from '@/lib/http';
import * as operations from '@/app/v1/uui/operations';

/** GET /v1/uui/me/grants: the active grants with each agent's public profile. */
export const GET = route(async (ctx) => {
  const me = await requirePassport(ctx);
  const grants = await listGrants(ctx.rt.db, me.passportUserId);
  return respond(ctx, grants);
});

/** POST /v1/uui/me/grants: creates (201) or replaces (200) the grant for an agent. */
export const POST = route(async (ctx) => {
  const me = await requirePassport(ctx);
  const body = await readJson(ctx.req, operations.saveGrant.body);
  const { grant, created } = await saveGrant(ctx.rt.db, me.passportUserId, body);
  return respond(ctx, grant, { status: created ? 201 : 200 });
});
