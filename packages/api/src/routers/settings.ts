import {
  createApiKey,
  createApiKeyRequest,
  createServiceWriter,
  createServiceWriterRequest,
  listApiKeys,
  listServiceWriters,
  revokeApiKey,
} from '@memory/core';
import { z } from 'zod';
import { adminProcedure, router } from '../trpc';

export const writersRouter = router({
  list: adminProcedure.query(({ ctx }) => listServiceWriters(ctx.db, ctx.principal)),
  // audited by the core function, as the admin (the principal's actor)
  create: adminProcedure.input(createServiceWriterRequest).mutation(({ ctx, input }) => createServiceWriter(ctx.db, ctx.principal, input)),
});

export const apiKeysRouter = router({
  list: adminProcedure.query(({ ctx }) => listApiKeys(ctx.db, ctx.principal)),
  /** The key is in this response once; only its SHA-256 is stored. Both changes are audited by the core functions, as the admin. */
  create: adminProcedure.input(createApiKeyRequest).mutation(({ ctx, input }) => createApiKey(ctx.db, ctx.principal, input.name)),
  revoke: adminProcedure.input(z.object({ key_id: z.uuid() })).mutation(({ ctx, input }) => revokeApiKey(ctx.db, ctx.principal, input.key_id)),
});
