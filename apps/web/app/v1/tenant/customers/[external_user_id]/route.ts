import { customerPathParams, getCustomerProfile } from '@memory/core';
import { requireTenant, respond, route, validate } from '@/lib/http';

export const GET = route<{ external_user_id: string }>(async (ctx) => {
  const auth = await requireTenant(ctx);
  const { external_user_id } = validate(customerPathParams, ctx.params);
  const data = await getCustomerProfile(ctx.rt.db, auth.tenantId, external_user_id);
  return respond(ctx, data, { headers: { 'Cache-Control': 'no-store' } });
});
