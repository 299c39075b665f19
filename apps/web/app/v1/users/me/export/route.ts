import { exportUser } from '@memory/core';
import { json, readQuery, requireTenant, route } from '@/lib/http';
import * as operations from '@/app/v1/users/operations';

export const GET = route(async (ctx) => {
  const auth = await requireTenant(ctx);
  const q = readQuery(ctx.req, operations.exportUser.query);
  const bundle = await exportUser(ctx.rt.db, auth, q.external_user_id);
  ctx.log.info({ tenant_id: auth.tenantId }, 'user export');
  return json(
    { data: bundle, request_id: ctx.requestId, timestamp: bundle.exported_at },
    { headers: { 'Cache-Control': 'no-store' } },
  );
});
