import { Errors, createAdminUser } from '@memory/core';
import { isUuid, json, readJson, requireAdmin, route } from '@/lib/http';
import * as operations from '@/app/v1/admin/operations';

/** POST /v1/admin/tenants/{tenant_id}/admins: a console admin for the tenant (operator only). */
export const POST = route<{ tenant_id: string }>(async (ctx) => {
  requireAdmin(ctx);
  if (!isUuid(ctx.params.tenant_id)) throw Errors.notFound(`Tenant ${ctx.params.tenant_id}`);
  const body = await readJson(ctx.req, operations.createConsoleAdmin.body);
  const admin = await createAdminUser(ctx.rt.db, ctx.params.tenant_id, body.email);
  ctx.log.info({ tenant_id: admin.tenant_id, admin_id: admin.admin_id }, 'console admin created');
  return json({ data: admin }, { status: 201, headers: { 'Cache-Control': 'no-store' } });
});
