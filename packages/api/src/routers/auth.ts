import {
  OTP_RULES,
  SESSION_RULES,
  adminEmail,
  clearedSessionCookie,
  createAdminSession,
  deleteAdminSession,
  pruneAdminSessions,
  requestSignInCode,
  sessionCookie,
  verifySignInCode,
} from '@memory/core';
import { eq, tenants } from '@memory/db';
import { z } from 'zod';
import { adminProcedure, publicProcedure, router } from '../trpc';

const codeInput = z.object({ email: adminEmail, code: z.string().trim().min(1).max(20) });

export const authRouter = router({
  /** The same answer whether or not the address belongs to an admin. */
  requestCode: publicProcedure.input(z.object({ email: adminEmail })).mutation(async ({ ctx, input }) => {
    await requestSignInCode(ctx.db, ctx.mailer, { email: input.email, ip: ctx.ip });
    return {
      sent: true as const,
      message: 'If this address belongs to a console admin, a sign-in code is on its way.',
      expires_in_seconds: OTP_RULES.ttlMs / 1000,
    };
  }),

  /** A right code starts a new session (a new token, whatever cookie came in) and sets the cookie. */
  verifyCode: publicProcedure.input(codeInput).mutation(async ({ ctx, input }) => {
    const admin = await verifySignInCode(ctx.db, { email: input.email, code: input.code });
    if (ctx.sessionToken) await deleteAdminSession(ctx.db, ctx.sessionToken);
    await pruneAdminSessions(ctx.db);
    const created = await createAdminSession(ctx.db, admin.adminId);
    ctx.resHeaders.append(
      'set-cookie',
      sessionCookie(created.token, { secure: ctx.secure, maxAgeSeconds: Math.floor(SESSION_RULES.absoluteMs / 1000) }),
    );
    ctx.log.info({ tenant_id: admin.tenantId, admin_id: admin.adminId }, 'console sign-in');
    return { signed_in: true as const, email: admin.email, tenant_id: admin.tenantId };
  }),

  /** Who is signed in, and the CSRF token the page must send with every mutation. */
  me: adminProcedure.query(async ({ ctx }) => {
    const [tenant] = await ctx.db.select({ name: tenants.name }).from(tenants).where(eq(tenants.id, ctx.admin.tenantId)).limit(1);
    return {
      admin_id: ctx.admin.adminId,
      email: ctx.admin.email,
      tenant_id: ctx.admin.tenantId,
      tenant_name: tenant?.name ?? '',
      csrf_token: ctx.admin.csrfToken,
      session_expires_at: ctx.admin.expiresAt.toISOString(),
    };
  }),

  signOut: adminProcedure.mutation(async ({ ctx }) => {
    if (ctx.sessionToken) await deleteAdminSession(ctx.db, ctx.sessionToken);
    ctx.resHeaders.append('set-cookie', clearedSessionCookie({ secure: ctx.secure }));
    return { signed_out: true as const };
  }),
});
