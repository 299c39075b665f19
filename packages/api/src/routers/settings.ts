import {
  PAYLOAD_RETENTION_DAYS_DEFAULT,
  PAYLOAD_RETENTION_DAYS_MAX,
  PAYLOAD_RETENTION_DAYS_MIN,
  PRIORITY_MAX,
  PRIORITY_MIN,
  createApiKey,
  createApiKeyRequest,
  createServiceWriter,
  createServiceWriterRequest,
  getTenantSettings,
  listApiKeys,
  listServiceWriters,
  revokeApiKey,
  updateTenantSettings,
  updateTenantSettingsRequest,
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

/** The bounds the settings form shows (the server checks them again: updateTenantSettings). */
const SETTINGS_BOUNDS = {
  payload_retention_days: { min: PAYLOAD_RETENTION_DAYS_MIN, max: PAYLOAD_RETENTION_DAYS_MAX, default: PAYLOAD_RETENTION_DAYS_DEFAULT },
  below_authority: { min: PRIORITY_MIN + 1, max: PRIORITY_MAX + 1 },
} as const;

/** The same settings and checks as GET/PATCH /v1/tenant/settings (payload retention, review before write). */
export const tenantSettingsRouter = router({
  get: adminProcedure.query(async ({ ctx }) => ({ settings: await getTenantSettings(ctx.db, ctx.principal.tenantId), bounds: SETTINGS_BOUNDS })),
  // audited by the core function (`tenant_settings.changed`, before and after), as the admin
  update: adminProcedure.input(updateTenantSettingsRequest).mutation(({ ctx, input }) => updateTenantSettings(ctx.db, ctx.principal, input)),
});
