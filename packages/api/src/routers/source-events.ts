import { listSourceEvents, listSourceEventsQuery, sourceEventDetail } from '@memory/core';
import { z } from 'zod';
import { adminProcedure, router } from '../trpc';

export const sourceEventsRouter = router({
  list: adminProcedure
    .input(listSourceEventsQuery)
    .query(({ ctx, input }) => listSourceEvents(ctx.db, ctx.principal, input)),

  /** One event with its conversation (or when retention redacted it) and the memories read from it. */
  get: adminProcedure.input(z.object({ id: z.uuid() })).query(({ ctx, input }) => sourceEventDetail(ctx.db, ctx.principal, input.id)),
});
