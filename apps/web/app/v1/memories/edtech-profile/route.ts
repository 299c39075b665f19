import { getStudentProfile } from '@memory/core';
import { readQuery, requireTenant, respond, route } from '@/lib/http';
import * as operations from '@/app/v1/memories/operations';

export const GET = route(async (ctx) => {
  const auth = await requireTenant(ctx);
  const q = readQuery(ctx.req, operations.getEdtechProfile.query);
  const data = await getStudentProfile(ctx.rt.db, auth.tenantId, q.external_user_id);
  return respond(ctx, data, { headers: { 'Cache-Control': 'no-store' } });
});
