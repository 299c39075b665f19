import { consoleOverview } from '@memory/core';
import { adminProcedure, router } from '../trpc';

export const overviewRouter = router({
  get: adminProcedure.query(({ ctx }) => consoleOverview(ctx.db, ctx.admin.tenantId)),
});
