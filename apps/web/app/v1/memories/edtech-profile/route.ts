import { getStudentProfile } from '@memory/core/domains/edtech';
import { edtechProfileQuery } from '@memory/core/schemas/domains';
import { readQuery, requireTenant, respond, route } from '@/lib/http';

export const GET = route(async (ctx) => {
  const auth = await requireTenant(ctx);
  const q = readQuery(ctx.req, edtechProfileQuery);
  const data = await getStudentProfile(ctx.rt.db, auth.tenantId, q.external_user_id);
  return respond(ctx, data, { headers: { 'Cache-Control': 'no-store' } });
});
