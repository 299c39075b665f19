/** The tenant's end users for the console's Users page: search, memory counts, last activity; erasing one. */
import { END_USERS_LIMIT_MAX, LIMITS, eraseUser, externalUserId, listEndUsers } from '@memory/core';
import { z } from 'zod';
import { adminProcedure, router } from '../trpc';

export const usersRouter = router({
  list: adminProcedure
    .input(
      z.object({
        search: z.string().trim().max(LIMITS.externalUserIdChars).optional(),
        limit: z.number().int().min(1).max(END_USERS_LIMIT_MAX).default(25),
        cursor: z.string().max(512).optional(),
      }),
    )
    .query(({ ctx, input }) => listEndUsers(ctx.db, ctx.principal, { search: input.search || undefined, limit: input.limit, cursor: input.cursor })),

  /**
   * Erases everything held about one end user as DELETE /v1/users/{id} does (docs/erasure.md), audited as the admin,
   * and answers the receipt. An id never sent and never erased is 404; erasing again answers the earlier receipt.
   */
  erase: adminProcedure
    .input(z.object({ external_user_id: externalUserId }))
    .mutation(({ ctx, input }) => eraseUser({ db: ctx.db, retrieval: ctx.retrieval, limiter: ctx.limiter }, ctx.principal, input.external_user_id)),
});
