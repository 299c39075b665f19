import { getStudentProfile } from '@memory/core/domains/edtech';
import { edtechProfileQuery } from '@memory/core/schemas/domains';
import { json, readQuery, requireTenant, route } from '@/lib/http';

export const GET = route(async (ctx) => {
  const auth = await requireTenant(ctx);
  const q = readQuery(ctx.req, edtechProfileQuery);
  const data = await getStudentProfile(ctx.rt.db, auth.tenantId, q.external_user_id);
  return json({ data, request_id: ctx.requestId, timestamp: new Date().toISOString() }, { headers: { 'Cache-Control': 'no-store' } });
});
