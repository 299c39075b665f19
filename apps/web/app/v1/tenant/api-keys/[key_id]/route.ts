import { Errors, revokeApiKey } from '@memory/core';
import { isUuid, json, requireTenant, route } from '@/lib/http';

export const DELETE = route<{ key_id: string }>(async (ctx) => {
  const auth = await requireTenant(ctx);
  if (!isUuid(ctx.params.key_id)) throw Errors.notFound(`API key ${ctx.params.key_id}`);
  const key = await revokeApiKey(ctx.rt.db, auth, ctx.params.key_id);
  ctx.rt.log.info({ request_id: ctx.requestId, tenant_id: auth.tenantId, api_key_id: key.id }, 'api key revoked');
  return json({ data: key, request_id: ctx.requestId, timestamp: new Date().toISOString() });
});
