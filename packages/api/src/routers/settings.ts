import {
  createApiKey,
  createApiKeyRequest,
  createServiceWriter,
  createServiceWriterRequest,
  listApiKeys,
  listServiceWriters,
  revokeApiKey,
} from '@memory/core';
import { adminActor, recordAudit } from '@memory/core/console/audit';
import { z } from 'zod';
import { adminProcedure, router, tenantAuth } from '../trpc';

export const writersRouter = router({
  list: adminProcedure.query(({ ctx }) => listServiceWriters(ctx.db, tenantAuth(ctx.admin))),
  create: adminProcedure.input(createServiceWriterRequest).mutation(async ({ ctx, input }) => {
    const writer = await createServiceWriter(ctx.db, tenantAuth(ctx.admin), input);
    await recordAudit(ctx.db, {
      tenantId: ctx.admin.tenantId,
      actor: adminActor(ctx.admin.adminId),
      action: 'service_writer.created',
      targetType: 'service_writer',
      targetId: writer.id,
      details: { service_key: writer.service_key },
    });
    return writer;
  }),
});

export const apiKeysRouter = router({
  list: adminProcedure.query(({ ctx }) => listApiKeys(ctx.db, tenantAuth(ctx.admin))),
  /** The key is in this response once; only its SHA-256 is stored. */
  create: adminProcedure.input(createApiKeyRequest).mutation(async ({ ctx, input }) => {
    const created = await createApiKey(ctx.db, tenantAuth(ctx.admin), input.name);
    await recordAudit(ctx.db, {
      tenantId: ctx.admin.tenantId,
      actor: adminActor(ctx.admin.adminId),
      action: 'api_key.created',
      targetType: 'api_key',
      targetId: created.id,
    });
    return created;
  }),
  revoke: adminProcedure.input(z.object({ key_id: z.uuid() })).mutation(async ({ ctx, input }) => {
    const revoked = await revokeApiKey(ctx.db, tenantAuth(ctx.admin), input.key_id);
    await recordAudit(ctx.db, {
      tenantId: ctx.admin.tenantId,
      actor: adminActor(ctx.admin.adminId),
      action: 'api_key.revoked',
      targetType: 'api_key',
      targetId: revoked.id,
    });
    return revoked;
  }),
});
