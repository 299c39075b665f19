import {
  Errors,
  MEMORY_STATUSES,
  deleteMemory,
  externalUserId,
  findMemoryRecord,
  listMemories,
  memoryHistory,
  purgeMemory,
  updateMemory,
  updateMemoryRequest,
} from '@memory/core';
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { adminProcedure, router } from '../trpc';

export const memoriesRouter = router({
  listForUser: adminProcedure
    .input(
      z.object({
        external_user_id: externalUserId,
        status: z.enum([...MEMORY_STATUSES, 'all']).default('all'),
        limit: z.number().int().min(1).max(100).default(50),
        cursor: z.string().max(512).optional(),
      }),
    )
    .query(({ ctx, input }) =>
      listMemories(ctx.db, ctx.principal, {
        externalUserId: input.external_user_id,
        status: input.status,
        limit: input.limit,
        cursor: input.cursor,
      }),
    ),

  /** One memory with its provenance and its user (the memory page). */
  get: adminProcedure.input(z.object({ memory_id: z.uuid() })).query(({ ctx, input }) => findMemoryRecord(ctx.db, ctx.principal, input.memory_id)),

  /** Archives the memory as DELETE /v1/memories/{id} does (it leaves retrieval; the ledger keeps its history). */
  archive: adminProcedure
    .input(z.object({ memory_id: z.uuid() }))
    .mutation(({ ctx, input }) => deleteMemory(ctx.db, ctx.principal, input.memory_id, ctx.principal.actor, 'archived in the console')),

  /**
   * Deletes the memory permanently (console only; REST DELETE archives): its row, ledger, links, reviews and
   * webhook events go (packages/core/src/memories/purge.ts). Another tenant's id is 404.
   */
  purge: adminProcedure
    .input(z.object({ memory_id: z.uuid() }))
    .mutation(({ ctx, input }) => purgeMemory(ctx.db, ctx.principal, input.memory_id, { hotTier: ctx.retrieval?.hotTier })),

  /**
   * Edits content, category or importance as PATCH /v1/memories/{id} does: a new `edited` ledger revision naming the
   * admin. The fields are checked by the API's own schema, so bad values are the same 422 with the field named.
   */
  edit: adminProcedure
    .input(z.object({ memory_id: z.uuid(), content: z.unknown(), category: z.unknown(), importance: z.unknown() }).partial({ content: true, category: true, importance: true }))
    .mutation(({ ctx, input: { memory_id, ...fields } }) => {
      const parsed = updateMemoryRequest.safeParse(fields);
      if (!parsed.success) throw Errors.validation(parsed.error.issues.map((i) => ({ path: i.path.join('.') || '(body)', message: i.message })));
      const deps = { db: ctx.db, embeddings: ctx.retrieval?.embeddings, log: ctx.log };
      return updateMemory(deps, ctx.principal, memory_id, parsed.data);
    }),

  /** The claim revision ledger of one memory, oldest first. */
  history: adminProcedure.input(z.object({ memory_id: z.uuid() })).query(async ({ ctx, input }) => {
    const entries = await memoryHistory(ctx.db, ctx.admin.tenantId, input.memory_id);
    if (!entries) throw new TRPCError({ code: 'NOT_FOUND', message: `Memory ${input.memory_id} was not found.` });
    return entries;
  }),
});
