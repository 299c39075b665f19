import { enforceWriteRate, eraseUser, eraseUserPathParams } from '@memory/core';
import { rateLimited, requireTenant, respond, route, validate } from '@/lib/http';

export const DELETE = route<{ external_user_id: string }>(async (ctx) => {
  const auth = await requireTenant(ctx);
  const { external_user_id } = validate(eraseUserPathParams, ctx.params);
  const rate = await enforceWriteRate(ctx.rt.db, ctx.rt.quota, auth, null);
  const receipt = await eraseUser({ db: ctx.rt.db, retrieval: ctx.rt.retrieval, limiter: ctx.rt.quota.limiter }, auth, external_user_id);
  ctx.log.info({ tenant_id: auth.tenantId, receipt_id: receipt.receipt_id, already_erased: receipt.already_erased }, 'user erased');
  return rateLimited(respond(ctx, receipt, { headers: { 'Cache-Control': 'no-store' } }), rate);
});
