import { getReview, listReviews, resolveReview } from '@memory/core';
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { adminProcedure, router } from '../trpc';

export const reviewsRouter = router({
  list: adminProcedure
    .input(
      z.object({
        status: z.enum(['open', 'resolved']).optional(),
        limit: z.number().int().min(1).max(100).default(20),
        cursor: z.string().max(512).optional(),
      }),
    )
    .query(({ ctx, input }) => listReviews(ctx.db, ctx.admin.tenantId, input)),

  get: adminProcedure.input(z.object({ id: z.uuid() })).query(async ({ ctx, input }) => {
    const review = await getReview(ctx.db, ctx.admin.tenantId, input.id);
    if (!review) throw new TRPCError({ code: 'NOT_FOUND', message: `Review ${input.id} was not found.` });
    return review;
  }),

  resolve: adminProcedure
    .input(z.object({ id: z.uuid(), chosen_memory_id: z.uuid(), note: z.string().trim().max(1000).optional() }))
    // resolved and audited as the admin (the principal's actor)
    .mutation(({ ctx, input }) =>
      resolveReview(ctx.db, ctx.principal, input.id, { chosen_memory_id: input.chosen_memory_id, note: input.note ? input.note : undefined }),
    ),
});
