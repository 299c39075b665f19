/** The tenant's plan and usage in the console (docs/quotas.md): the same report as GET /v1/tenant/usage. */
import { getUsageReport } from '@memory/core';
import { adminProcedure, router } from '../trpc';

export const usageRouter = router({
  get: adminProcedure.query(({ ctx }) => getUsageReport(ctx.db, ctx.admin.tenantId, new Date(), ctx.rateLimitDefaults)),
});
