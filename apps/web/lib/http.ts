/**
 * Thin-handler plumbing: every /v1 handler is `route(async (ctx) => ...)`. It gives the handler a request
 * id, the runtime and helpers to authenticate and parse; it renders every thrown error as problem+json.
 */
import { randomUUID } from 'node:crypto';
import {
  type Logger,
  type AgentAuth,
  type ApiError,
  Errors,
  type FieldError,
  LIMITS,
  type PassportAuth,
  type RateLimitDecision,
  rateLimitHeaders,
  type TenantAuth,
  type UniversalAgentAuth,
  authenticateApiKey,
  passportUnauthorized,
  requireAgentKey,
  resolvePassportSession,
  authenticateUniversalAgent,
  constantTimeEqual,
  describeError,
  toProblem,
  assertStorableText,
} from '@memory/core';
import type { z } from 'zod';
import { type Runtime, getRuntime } from './runtime';

export interface RouteContext<P> {
  req: Request;
  rt: Runtime;
  requestId: string;
  params: P;
  /** The runtime's logger bound to this request's `request_id`, and to `tenant_id` once `requireTenant` passed. */
  log: Logger;
}

type Handler<P> = (ctx: RouteContext<P>) => Promise<Response>;

export function route<P = Record<string, never>>(handler: Handler<P>) {
  return async (req: Request, segment: { params: Promise<P> }): Promise<Response> => {
    const requestId = randomUUID();
    let rt: Runtime | null = null;
    let ctx: RouteContext<P> | null = null;
    try {
      rt = await getRuntime();
      const params = await segment.params;
      // path ids are text too (docs/api-choices.md, "Text that cannot be stored")
      assertStorableText(params ?? {});
      ctx = { req, rt, requestId, params, log: rt.log.child({ request_id: requestId }) };
      const res = await handler(ctx);
      res.headers.set('X-Request-Id', requestId);
      return res;
    } catch (err) {
      const { problem, unexpected } = toProblem(err, requestId, new URL(req.url).pathname);
      const log = ctx?.log ?? rt?.log.child({ request_id: requestId });
      if (unexpected) {
        // Name, SQLSTATE and message only: never request bodies, keys or memory content.
        log?.error(describeError(err), 'unhandled error');
      } else if (problem.body.code === 'database_unavailable') {
        log?.warn(describeError(err), 'database unavailable');
      }
      return Response.json(problem.body, { status: problem.status, headers: { ...problem.headers, 'X-Request-Id': requestId } });
    }
  };
}

export async function requireTenant(ctx: RouteContext<unknown>): Promise<TenantAuth> {
  const header = ctx.req.headers.get('authorization') ?? '';
  const match = /^ApiKey\s+(\S+)\s*$/i.exec(header);
  if (!match) throw Errors.unauthorized();
  const auth = await authenticateApiKey(ctx.rt.db, match[1]);
  if (!auth) throw Errors.unauthorized('The API key is unknown or revoked.');
  ctx.log = ctx.log.child({ tenant_id: auth.tenantId });
  return auth;
}

/** `Authorization: ApiKey <agent key>` of a global agent (POST /v1/agents/passport-token, universal endpoints). */
export async function requireAgent(ctx: RouteContext<unknown>): Promise<AgentAuth> {
  const match = /^ApiKey\s+(\S+)\s*$/i.exec(ctx.req.headers.get('authorization') ?? '');
  return requireAgentKey(ctx.rt.db, match ? match[1] : null);
}

/**
 * The user-scoped passport endpoints: `Authorization: Bearer <mem_ps_… session token>` from POST /v1/uui/otp/verify.
 * Never a cookie, so these endpoints need no CSRF protection.
 */
export async function requirePassport(ctx: RouteContext<unknown>): Promise<PassportAuth & { token: string }> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(ctx.req.headers.get('authorization') ?? '');
  const session = match ? await resolvePassportSession(ctx.rt.db, match[1]) : null;
  if (!session || !match) {
    throw passportUnauthorized();
  }
  return { ...session, token: match[1] };
}

/**
 * The universal endpoints' credentials: `Authorization: ApiKey <agent key>` and `X-Service-UUI: <token>`
 * (docs/passport-universal.md). Missing or malformed headers are 401 like unknown ones.
 */
export async function requireUniversalAgent(ctx: RouteContext<unknown>): Promise<UniversalAgentAuth> {
  const key = /^ApiKey\s+(\S+)\s*$/i.exec(ctx.req.headers.get('authorization') ?? '');
  if (!key) throw Errors.unauthorized('Send `Authorization: ApiKey <agent key>` and `X-Service-UUI: <token>`.');
  const token = (ctx.req.headers.get('x-service-uui') ?? '').trim();
  if (!token) throw Errors.unauthorized('Send the passport user’s token in `X-Service-UUI`.');
  return authenticateUniversalAgent(ctx.rt.db, key[1], token);
}

/** The admin API exists only when MEMORY_ADMIN_TOKEN is configured; otherwise it answers 404. */
export function requireAdmin(ctx: RouteContext<unknown>): void {
  const token = ctx.rt.config.adminToken;
  if (!token) throw Errors.notFound('This resource');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(ctx.req.headers.get('authorization') ?? '');
  if (!match || !constantTimeEqual(match[1], token)) throw Errors.adminUnauthorized();
}

export async function readJson<S extends z.ZodType>(
  req: Request,
  schema: S,
  opts: { classify?: (errors: FieldError[]) => ApiError | null } = {},
): Promise<z.output<S>> {
  const type = req.headers.get('content-type');
  if (type && !/^application\/([\w.+-]+\+)?json\b/i.test(type)) throw Errors.unsupportedMediaType();
  const text = await readBodyText(req);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw Errors.invalidJson();
  }
  assertStorableText(raw);
  return validate(schema, raw, opts.classify);
}

/** The request body as UTF-8 text, read by `readBodyBytes`. */
export async function readBodyText(req: Request, limit: number = LIMITS.bodyBytes): Promise<string> {
  return (await readBodyBytes(req, limit)).toString('utf8');
}

/**
 * The request body, read as it streams in and cut at `limit` bytes: a declared Content-Length over the limit
 * is refused before reading, and a chunked body with none is refused with 413 as soon as it passes the limit
 * (the rest is never read), so no request holds more than `limit` bytes of memory.
 */
export async function readBodyBytes(req: Request, limit: number = LIMITS.bodyBytes): Promise<Buffer> {
  const declared = req.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) throw Errors.payloadTooLarge(limit);
  if (!req.body) return Buffer.alloc(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw Errors.payloadTooLarge(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

export function readQuery<S extends z.ZodType>(req: Request, schema: S): z.output<S> {
  const params = Object.fromEntries(new URL(req.url).searchParams.entries());
  assertStorableText(params);
  return validate(schema, params);
}

export function validate<S extends z.ZodType>(
  schema: S,
  raw: unknown,
  classify?: (errors: FieldError[]) => ApiError | null,
): z.output<S> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const errors: FieldError[] = parsed.error.issues.map((i) => ({ path: formatPath(i.path), message: i.message }));
  throw classify?.(errors) ?? Errors.validation(errors);
}

function formatPath(path: PropertyKey[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out || '(body)';
}

export const json = (body: unknown, init: ResponseInit = {}) => Response.json(body, init);

/** The success envelope of the spec, `{ data, request_id, timestamp }`, as JSON (`init`: a status, headers). */
export const respond = (ctx: { requestId: string }, data: unknown, init: ResponseInit = {}) =>
  Response.json({ data, request_id: ctx.requestId, timestamp: new Date().toISOString() }, init);

/** The optional `Idempotency-Key` header (1–255 characters) of the POST endpoints that honour it. */
export function readIdempotencyKey(req: Request): string | undefined {
  const key = req.headers.get('idempotency-key') ?? undefined;
  if (key !== undefined && (key.length === 0 || key.length > LIMITS.idempotencyKeyChars)) {
    throw Errors.validation([{ path: 'Idempotency-Key', message: `must be 1 to ${LIMITS.idempotencyKeyChars} characters` }]);
  }
  return key;
}

/** An idempotent endpoint's answer: the saved response is marked `Idempotent-Replayed: true` when replayed. */
export const idempotentJson = (outcome: { httpStatus: number; body: unknown; replayed: boolean }) =>
  json(outcome.body, { status: outcome.httpStatus, headers: outcome.replayed ? { 'Idempotent-Replayed': 'true' } : {} });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (v: string) => UUID.test(v);

/** A write endpoint's answer with the `RateLimit` / `RateLimit-Policy` headers of the limits it counted against. */
export function rateLimited(res: Response, decision: RateLimitDecision): Response {
  for (const [name, value] of Object.entries(rateLimitHeaders(decision))) res.headers.set(name, value);
  return res;
}
