/**
 * The consent app's tRPC API (`passport.*`, docs/passport.md): sign-in with an e-mailed code, the consent
 * decision on a link, and the user's grants, connections and passport. Its own session: the HttpOnly
 * `mem_passport` cookie (SameSite=Lax, so it survives the top-level navigation from a tenant's site), resolved
 * here and never mixed with the console's. Every call passes the same-origin check; mutations of a signed-in user
 * need `x-csrf-token` equal to the session's token (from `passport.session`). Never takes or returns a tenant key.
 */
import {
  ACCESS_TYPES,
  DELETE_PASSPORT_CONFIRMATION,
  MEMORY_CATEGORIES,
  PASSPORT_COOKIE,
  PASSPORT_SESSION_RULES,
  type PassportAuth,
  approveLink,
  clearedSessionCookie,
  constantTimeEqual,
  declineLink,
  deletePassport,
  deletePassportMemory,
  describeLinkRequest,
  disconnect,
  endPassportSession,
  exportPassport,
  listAccessLog,
  listConnections,
  listGrants,
  listPassportMemories,
  listPassportQuestions,
  memoryCategory,
  passportEmail,
  passportMemoriesQuery,
  resolvePassportQuestion,
  resolvePassportSession,
  revokeGrant,
  sendPassportCode,
  sessionCookie,
  verifyPassportCode,
} from '@memory/core';
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { type Context, publicProcedure, router } from '../trpc';

const cookieOpts = (ctx: Context) => ({ name: PASSPORT_COOKIE, sameSite: 'Lax' as const, secure: ctx.secure });

/** Resolves the passport cookie into `ctx.passport` (null when signed out). */
const withPassport = publicProcedure.use(async ({ ctx, next }) => {
  const passport = ctx.passportToken ? await resolvePassportSession(ctx.db, ctx.passportToken) : null;
  return next({ ctx: { ...ctx, passport } });
});

const checkCsrf = (ctx: Context, passport: PassportAuth) => {
  const presented = ctx.req.headers.get('x-csrf-token') ?? '';
  if (!presented || !constantTimeEqual(presented, passport.csrfToken)) {
    throw new TRPCError({ code: 'FORBIDDEN', message: 'Missing or wrong x-csrf-token header.' });
  }
};

/** A signed-in passport user; mutations also need the CSRF header. Every call below uses `ctx.me`, never input. */
const passportProcedure = withPassport.use(({ ctx, type, next }) => {
  const me = ctx.passport;
  if (!me) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Sign in to your passport.' });
  if (type === 'mutation') checkCsrf(ctx, me);
  return next({ ctx: { ...ctx, me } });
});

const linkInput = z.object({ agentId: z.string().min(1).max(100), linkToken: z.string().min(1).max(200) });
const categoriesInput = z
  .array(memoryCategory)
  .min(1, 'choose at least 1 category')
  .max(50)
  .transform((list) => MEMORY_CATEGORIES.filter((c) => list.includes(c)));

export const passportRouter = router({
  /** Who is signed in, and the CSRF token the page must send with every mutation. */
  session: withPassport.query(({ ctx }) =>
    ctx.passport
      ? { signedIn: true as const, email: ctx.passport.email, csrfToken: ctx.passport.csrfToken }
      : { signedIn: false as const },
  ),

  /** The same answer for every address (a first sign-in creates the passport). */
  sendCode: publicProcedure.input(z.object({ email: passportEmail })).mutation(async ({ ctx, input }) => {
    await sendPassportCode(ctx.db, ctx.mailer, { email: input.email, ip: ctx.ip });
    return { sent: true as const };
  }),

  /** A right code starts a new session (the presented one is dropped) and sets the cookie. */
  verifyCode: publicProcedure
    .input(z.object({ email: passportEmail, code: z.string().trim().min(1).max(20) }))
    .mutation(async ({ ctx, input }) => {
      const session = await verifyPassportCode(ctx.db, input);
      if (ctx.passportToken) await endPassportSession(ctx.db, ctx.passportToken);
      ctx.resHeaders.append(
        'set-cookie',
        sessionCookie(session.token, { ...cookieOpts(ctx), maxAgeSeconds: Math.floor(PASSPORT_SESSION_RULES.absoluteMs / 1000) }),
      );
      return { signedIn: true as const, email: session.user.email, csrfToken: session.csrfToken };
    }),

  signOut: passportProcedure.mutation(async ({ ctx }) => {
    if (ctx.passportToken) await endPassportSession(ctx.db, ctx.passportToken);
    ctx.resHeaders.append('set-cookie', clearedSessionCookie(cookieOpts(ctx)));
    return { signedOut: true as const };
  }),

  /** The consent screen: who asks (public profile only), every category in plain words, the link's state. */
  linkRequest: publicProcedure.input(linkInput).query(({ ctx, input }) => describeLinkRequest(ctx.db, input)),

  approveLink: passportProcedure
    .input(linkInput.extend({ categories: categoriesInput, accessType: z.enum(ACCESS_TYPES) }))
    .mutation(async ({ ctx, input }) => {
      const done = await approveLink(ctx.db, { passportUserId: ctx.me.passportUserId, ...input });
      return { redirectTo: done.redirectTo };
    }),

  /** Declining needs no sign-in (the link is the user's); a signed-in user's decline needs the CSRF header too. */
  declineLink: withPassport.input(linkInput).mutation(async ({ ctx, input }) => {
    if (ctx.passport) checkCsrf(ctx, ctx.passport);
    return declineLink(ctx.db, { passportUserId: ctx.passport?.passportUserId ?? null, ...input });
  }),

  grants: passportProcedure.query(async ({ ctx }) => {
    const found = await listGrants(ctx.db, ctx.me.passportUserId);
    return found.map((g) => ({
      id: g.id,
      agent: { id: g.agent.id, name: g.agent.name, logo_url: g.agent.logo_url, is_verified: g.agent.is_verified },
      categories: g.categories,
      accessType: g.access_type,
      updatedAt: g.updated_at,
    }));
  }),

  revokeGrant: passportProcedure
    .input(z.object({ grantId: z.string().min(1).max(100) }))
    .mutation(({ ctx, input }) => revokeGrant(ctx.db, ctx.me.passportUserId, input.grantId)),

  connections: passportProcedure.query(async ({ ctx }) => {
    const found = await listConnections(ctx.db, ctx.me.passportUserId);
    return found.map((c) => ({
      id: c.id,
      agent: { id: c.agent.id, name: c.agent.name },
      ...(c.external_user_id_hint ? { externalUserIdHint: c.external_user_id_hint } : {}),
      createdAt: c.created_at,
    }));
  }),

  disconnect: passportProcedure
    .input(z.object({ connectionId: z.string().min(1).max(100) }))
    .mutation(({ ctx, input }) => disconnect(ctx.db, ctx.me.passportUserId, input.connectionId)),

  /** Pending questions: conflicting universal memories only the user can settle (docs/passport-universal.md). */
  questions: passportProcedure.query(({ ctx }) => listPassportQuestions(ctx.db, ctx.me.passportUserId)),

  /** The user keeps one option of a question; the other claim is archived. */
  answerQuestion: passportProcedure
    .input(z.object({ reviewId: z.string().uuid(), keepMemoryId: z.string().uuid() }))
    .mutation(({ ctx, input }) => resolvePassportQuestion(ctx.db, ctx.me.passportUserId, input.reviewId, input.keepMemoryId)),

  /** The user's universal memories with the agent that wrote each, newest first (100 a page). */
  memories: passportProcedure
    .input(z.object({ cursor: z.string().max(512).nullish(), status: passportMemoriesQuery.shape.status.optional() }))
    .query(({ ctx, input }) =>
      listPassportMemories(ctx.db, ctx.me.passportUserId, { limit: 100, status: input.status ?? 'all', cursor: input.cursor ?? undefined }),
    ),

  /** Erases one memory (another user's is 404 with `apiCode` `not_found`). */
  deleteMemory: passportProcedure
    .input(z.object({ memoryId: z.string().uuid() }))
    .mutation(({ ctx, input }) => deletePassportMemory(ctx.db, ctx.me.passportUserId, input.memoryId)),

  /** The agents' reads of the user's memories, newest first (50 a page). */
  accessLog: passportProcedure
    .input(z.object({ cursor: z.string().max(512).nullish() }))
    .query(({ ctx, input }) => listAccessLog(ctx.db, ctx.me.passportUserId, { limit: 50, cursor: input.cursor ?? undefined })),

  /** The export bundle (a mutation: it is audited, so it needs the CSRF header like every other action). */
  exportPassport: passportProcedure.mutation(({ ctx }) => exportPassport(ctx.db, ctx.me.passportUserId)),

  /** Erases the passport; the typed confirmation guards against a stray click. */
  deletePassport: passportProcedure
    .input(z.object({ confirm: z.literal(DELETE_PASSPORT_CONFIRMATION) }))
    .mutation(async ({ ctx }) => {
      const done = await deletePassport(ctx.db, ctx.me.passportUserId);
      ctx.resHeaders.append('set-cookie', clearedSessionCookie(cookieOpts(ctx)));
      return done;
    }),
});
