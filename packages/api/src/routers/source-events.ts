import { listSourceEvents, listSourceEventsQuery } from '@memory/core';
import { adminProcedure, router, tenantAuth } from '../trpc';

export const sourceEventsRouter = router({
  list: adminProcedure
    .input(listSourceEventsQuery)
    .query(({ ctx, input }) => listSourceEvents(ctx.db, tenantAuth(ctx.admin), input)),
});
