/**
 * Domain schemas in the console (docs/domain-schemas.md): the tenant's schema, the EdTech student profile and the
 * Customer Support customers, profiles and stats.
 */
import {
  externalUserId,
  getCustomerProfile,
  getDomainSchema,
  getStudentProfile,
  getSupportStats,
  listCustomers,
  listCustomersQuery,
  setDomainSchema,
  supportStatsQuery,
} from '@memory/core';
import { z } from 'zod';
import { adminProcedure, router } from '../trpc';

export const domainsRouter = router({
  /** The active schema and the catalogue, as GET /v1/tenant/domain-schema. */
  get: adminProcedure.query(({ ctx }) => getDomainSchema(ctx.db, ctx.admin.tenantId)),

  /** Switches the schema, audited as the admin (announced, planned and unknown ids: UNPROCESSABLE_CONTENT, the 422). */
  set: adminProcedure
    .input(z.object({ domain_schema: z.string().min(1).max(64) }))
    .mutation(({ ctx, input }) => setDomainSchema(ctx.db, ctx.principal, input.domain_schema)),

  /** One user's student profile, as GET /v1/memories/edtech-profile (CONFLICT when EdTech is not enabled). */
  studentProfile: adminProcedure
    .input(z.object({ external_user_id: externalUserId }))
    .query(({ ctx, input }) => getStudentProfile(ctx.db, ctx.admin.tenantId, input.external_user_id)),

  /** The customers list, as GET /v1/tenant/customers (CONFLICT when Customer Support is not enabled). */
  customers: adminProcedure.input(listCustomersQuery).query(({ ctx, input }) => listCustomers(ctx.db, ctx.admin.tenantId, input)),

  /** One customer's profile, as GET /v1/tenant/customers/{external_user_id}. */
  customer: adminProcedure
    .input(z.object({ external_user_id: externalUserId }))
    .query(({ ctx, input }) => getCustomerProfile(ctx.db, ctx.admin.tenantId, input.external_user_id)),

  /** Support stats over a window, as GET /v1/tenant/support-stats. */
  supportStats: adminProcedure.input(supportStatsQuery).query(({ ctx, input }) => getSupportStats(ctx.db, ctx.admin.tenantId, input)),
});
