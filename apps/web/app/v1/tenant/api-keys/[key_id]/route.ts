import { Errors, revokeApiKey } from '@memory/core';
import { isUuid, requireTenant, respond, route } from '@/lib/http';

export const DELETE = route<{ key_id: string }>(async (ctx) => {
  const auth = await requireTenant(ctx);
  if (!isUuid(ctx.params.key_id)) throw Errors.notFound(`API key ${ctx.params.key_id}`);
  const key = await revokeApiKey(ctx.rt.db, auth, ctx.params.key_id);
  ctx.log.info({ api_key_id: key.id }, 'api key revoked');
  return respond(ctx, key);
});
