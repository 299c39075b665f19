import { listSourceEvents, listSourceEventsQuery } from '@memory/core';
import { adminProcedure, router } from '../trpc';

export const sourceEventsRouter = router({
  list: adminProcedure
    .input(listSourceEventsQuery)
    .query(({ ctx, input }) => listSourceEvents(ctx.db, ctx.principal, input)),
});
