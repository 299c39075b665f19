/** The tenant's end users for the console's Users page: search, memory counts, last activity. */
import { END_USERS_LIMIT_MAX, LIMITS, listEndUsers } from '@memory/core';
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
});
