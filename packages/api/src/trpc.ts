/**
 * The console's tRPC layer: one context per request (database, logger, mailer, the admin session from the
 * cookie), one error model (domain ApiErrors become TRPCErrors with the same HTTP status and `code`), the
 * same-origin check on every call, and the session + CSRF checks on every procedure but sign-in.
 */
import {
  type AdminSession,
  type ApiError,
  Errors,
  type Logger,
  type Mailer,
  PASSPORT_COOKIE,
  type Principal,
  type RateLimitDefaults,
  type RateLimiter,
  type RetrievalDeps,
  type WebhookSettings,
  adminActor,
  assertStorableText,
  clientIp,
  constantTimeEqual,
  isApiError,
  isDatabaseUnavailable,
  isSameOrigin,
  readSessionCookie,
  resolveAdminSession,
} from '@memory/core';
import type { Db } from '@memory/db';
import { TRPCError, initTRPC } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';

export interface ApiDeps {
  db: Db;
  log: Logger;
  mailer: Mailer;
  /** MEMORY_RATE_LIMIT_* (docs/quotas.md), shown with the plan's write rates. */
  rateLimitDefaults?: RateLimitDefaults;
  /** Webhook settings (allowed addresses, secret key, retry schedule) for the Webhooks page. */
  webhooks: WebhookSettings;
  /**
   * This process's retrieval state (hot tier, activity buffer, embeddings endpoint): an edit embeds its new content
   * and an erasure flushes and forgets the user, as through the REST API.
   */
  retrieval?: RetrievalDeps;
  /** The write-rate limiter: an erasure forgets the user's counter, as through the REST API. */
  limiter?: Pick<RateLimiter, 'forget'>;
}

export interface Context extends ApiDeps {
  req: Request;
  resHeaders: Headers;
  /** The request came over https (directly or through a proxy that says so): cookies get `Secure`. */
  secure: boolean;
  /** Client address for throttling: the first X-Forwarded-For hop, else X-Real-IP. */
  ip: string;
  sessionToken: string | null;
  session: AdminSession | null;
  /** The passport cookie's token (resolved by the passport procedures only, see routers/passport.ts). */
  passportToken: string | null;
}

export async function createContext(deps: ApiDeps, opts: { req: Request; resHeaders: Headers }): Promise<Context> {
  const { req } = opts;
  const sessionToken = readSessionCookie(req.headers.get('cookie'));
  const session = sessionToken ? await resolveAdminSession(deps.db, sessionToken) : null;
  const forwardedProto = req.headers.get('x-forwarded-proto')?.split(',')[0]?.trim();
  return {
    ...deps,
    req,
    resHeaders: opts.resHeaders,
    secure: new URL(req.url).protocol === 'https:' || forwardedProto === 'https',
    ip: clientIp(req.headers),
    sessionToken,
    session,
    passportToken: readSessionCookie(req.headers.get('cookie'), PASSPORT_COOKIE),
  };
}

const CODE_BY_STATUS: Record<number, TRPC_ERROR_CODE_KEY> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  410: 'NOT_FOUND',
  422: 'UNPROCESSABLE_CONTENT',
  429: 'TOO_MANY_REQUESTS',
  503: 'SERVICE_UNAVAILABLE',
};

export function toTRPCError(e: ApiError): TRPCError {
  return new TRPCError({ code: CODE_BY_STATUS[e.status] ?? 'INTERNAL_SERVER_ERROR', message: e.detail, cause: e });
}

/** The ApiError behind a tRPC error, if any. */
export const apiErrorOf = (err: { cause?: unknown }): ApiError | null => (isApiError(err.cause) ? err.cause : null);

const t = initTRPC.context<Context>().create({
  errorFormatter({ shape, error }) {
    const api = apiErrorOf(error);
    const expected = api !== null || error.code !== 'INTERNAL_SERVER_ERROR';
    const issues = (error.cause as { issues?: { path?: PropertyKey[]; message: string }[] } | undefined)?.issues;
    const invalidInput = api === null && error.code === 'BAD_REQUEST' && Array.isArray(issues);
    return {
      ...shape,
      // Unexpected errors may quote SQL or parameters: the browser gets a generic message. An input that fails
      // its schema gets a sentence, not the schema library's JSON; what is wrong is in `fieldErrors`.
      message: !expected ? 'An unexpected error occurred.' : invalidInput ? 'Some of the input is not valid.' : shape.message,
      data: {
        code: shape.data.code,
        httpStatus: shape.data.httpStatus,
        path: shape.data.path,
        apiCode: api?.code ?? null,
        fieldErrors:
          api?.extra.errors ??
          (invalidInput
            ? issues.map((i) => ({ path: (i.path ?? []).map(String).join('.') || '(input)', message: i.message }))
            : null),
      },
    };
  },
});

export const router = t.router;

/** Turns domain errors into tRPC errors with the matching status. */
const mapErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok) {
    const api = apiErrorOf(result.error);
    if (api) throw toTRPCError(api);
    if (isDatabaseUnavailable(result.error.cause)) throw toTRPCError(Errors.databaseUnavailable());
  }
  return result;
});

/** Browsers send Origin on cross-site calls: it must name this host. */
const sameOrigin = t.middleware(({ ctx, next }) => {
  const h = ctx.req.headers;
  const ok = isSameOrigin({
    origin: h.get('origin'),
    host: h.get('x-forwarded-host') ?? h.get('host'),
    secFetchSite: h.get('sec-fetch-site'),
  });
  if (!ok) throw new TRPCError({ code: 'FORBIDDEN', message: 'Cross-origin requests are not accepted.' });
  return next();
});

/** Text PostgreSQL cannot store is refused as in the REST API (422, the field named; docs/api-choices.md). */
const storableInput = t.middleware(async ({ getRawInput, next }) => {
  // the ApiError it throws becomes a 422 in mapErrors, like a domain error
  assertStorableText(await getRawInput());
  return next();
});

export const publicProcedure = t.procedure.use(mapErrors).use(sameOrigin).use(storableInput);

/**
 * A signed-in admin; mutations also need `x-csrf-token` equal to the session's token (from `auth.me`).
 * Every domain call below reads the tenant from `ctx.admin`, never from input.
 */
export const adminProcedure = publicProcedure.use(({ ctx, type, next }) => {
  const session = ctx.session;
  if (!session) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Sign in to the console.' });
  if (type === 'mutation') {
    const presented = ctx.req.headers.get('x-csrf-token') ?? '';
    if (!presented || !constantTimeEqual(presented, session.csrfToken)) {
      throw new TRPCError({ code: 'FORBIDDEN', message: 'Missing or wrong x-csrf-token header.' });
    }
  }
  // the principal of every console call: the tenant, acting as this admin (audit entries name `admin:<id>`)
  const principal: Principal = { tenantId: session.tenantId, actor: adminActor(session.adminId) };
  return next({ ctx: { ...ctx, admin: session, principal } });
});
