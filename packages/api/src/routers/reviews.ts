import { REVIEW_KINDS } from '@memory/db';
import { checkResolveReview, getReview, listReviews, pendingWriteContext, resolveReview, resolveReviewFields } from '@memory/core';
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { adminProcedure, router } from '../trpc';

export const reviewsRouter = router({
  list: adminProcedure
    .input(
      z.object({
        status: z.enum(['open', 'resolved']).optional(),
        kind: z.enum(REVIEW_KINDS).optional(),
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

  /** Beside a held memory: the user's memories it may conflict with, and the source text (or when it was redacted). */
  context: adminProcedure.input(z.object({ id: z.uuid() })).query(async ({ ctx, input }) => {
    const found = await pendingWriteContext(ctx.db, ctx.admin.tenantId, input.id);
    if (!found) throw new TRPCError({ code: 'NOT_FOUND', message: `Review ${input.id} is not a held memory.` });
    return found;
  }),

  resolve: adminProcedure
    .input(resolveReviewFields.extend({ id: z.uuid() }).superRefine(checkResolveReview))
    // resolved and audited as the admin (the principal's actor)
    .mutation(({ ctx, input: { id, ...decision } }) => resolveReview(ctx.db, ctx.principal, id, { ...decision, note: decision.note || undefined })),
});
