/**
 * One error model for the whole API: RFC 9457 problem details with a stable `code`.
 * Domain code throws `ApiError`s built by the factories below; one renderer turns any thrown value into
 * `application/problem+json`. Unknown errors become a generic 500 without stack or SQL.
 */

export type ErrorCode =
  | 'invalid_json'
  | 'invalid_url'
  | 'validation_failed'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'payload_too_large'
  | 'headers_too_large'
  | 'unsupported_media_type'
  | 'idempotency_key_reused'
  | 'idempotency_key_in_progress'
  | 'rate_limited'
  | 'service_unavailable'
  | 'database_unavailable'
  | 'internal_error'
  | 'PROV_403'
  | 'PROV_404'
  | 'PROV_409'
  | 'PROV_422'
  | 'UAT_001'
  | 'UAT_002'
  | 'link_token_invalid'
  | 'link_token_expired'
  | 'link_token_used'
  | 'link_token_declined'
  | 'link_token_pending'
  | 'uui_token_invalid'
  | 'uui_token_agent_mismatch';

export interface FieldError {
  path: string;
  message: string;
}

const TITLES: Record<ErrorCode, string> = {
  invalid_json: 'Request body is not valid JSON',
  invalid_url: 'Request URL cannot be decoded',
  validation_failed: 'Request validation failed',
  unauthorized: 'Missing or invalid credentials',
  forbidden: 'Forbidden',
  not_found: 'Not found',
  method_not_allowed: 'Method not allowed',
  conflict: 'Conflict with the current state',
  payload_too_large: 'Payload too large',
  headers_too_large: 'Request headers too large',
  unsupported_media_type: 'Unsupported media type',
  idempotency_key_reused: 'Idempotency-Key reused with a different request',
  idempotency_key_in_progress: 'A request with this Idempotency-Key is still in progress',
  rate_limited: 'Too many requests',
  service_unavailable: 'Service unavailable',
  database_unavailable: 'Database unavailable',
  internal_error: 'Internal server error',
  PROV_403: 'API key does not match the service writer',
  PROV_404: 'Service writer not found',
  PROV_409: 'Provenance conflict',
  PROV_422: 'Invalid provenance payload',
  UAT_001: 'No grant for this user',
  UAT_002: 'Write not permitted',
  link_token_invalid: 'Unknown link token',
  link_token_expired: 'Link token expired',
  link_token_used: 'Link token already used',
  link_token_declined: 'The user declined the connection',
  link_token_pending: 'The user has not answered yet',
  uui_token_invalid: 'Missing or invalid X-Service-UUI token',
  uui_token_agent_mismatch: 'X-Service-UUI token belongs to another agent',
};

const BRAND = Symbol.for('memory-service.ApiError');

/** True for ApiErrors from any copy of this module (Next.js may bundle it more than once). */
export const isApiError = (err: unknown): err is ApiError =>
  typeof err === 'object' && err !== null && (err as Record<symbol, unknown>)[BRAND] === true;

export class ApiError extends Error {
  readonly [BRAND] = true;
  readonly title: string;
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    readonly detail: string,
    readonly extra: { errors?: FieldError[]; headers?: Record<string, string>; fields?: Record<string, unknown> } = {},
  ) {
    super(detail);
    this.title = TITLES[code];
  }
}

export const Errors = {
  invalidJson: (detail = 'The request body could not be parsed as JSON.') => new ApiError(400, 'invalid_json', detail),
  validation: (errors: FieldError[], detail = 'One or more fields are invalid.') =>
    new ApiError(422, 'validation_failed', detail, { errors }),
  unauthorized: (detail = 'Send `Authorization: ApiKey <key>` with a valid key.') =>
    new ApiError(401, 'unauthorized', detail, { headers: { 'WWW-Authenticate': 'ApiKey' } }),
  adminUnauthorized: () =>
    new ApiError(401, 'unauthorized', 'Send `Authorization: Bearer <MEMORY_ADMIN_TOKEN>`.', {
      headers: { 'WWW-Authenticate': 'Bearer' },
    }),
  invalidUrl: () =>
    new ApiError(
      400,
      'invalid_url',
      'The path has a percent-encoding that does not decode to UTF-8 text (a bare "%", "%zz", an encoded lone surrogate) or a "." or ".." segment.',
    ),
  methodNotAllowed: (method: string, allow: readonly string[]) =>
    new ApiError(405, 'method_not_allowed', `${method} is not a method of this path; it has ${allow.join(', ')}.`, {
      headers: { Allow: allow.join(', ') },
    }),
  headersTooLarge: () => new ApiError(431, 'headers_too_large', 'The request headers are larger than the server accepts (16 KiB in all).'),
  notFound: (what: string) => new ApiError(404, 'not_found', `${what} was not found.`),
  conflict: (detail: string) => new ApiError(409, 'conflict', detail),
  payloadTooLarge: (limitBytes: number) =>
    new ApiError(413, 'payload_too_large', `The request body is larger than ${limitBytes} bytes.`),
  unsupportedMediaType: () =>
    new ApiError(415, 'unsupported_media_type', 'Send the body as application/json.'),
  idempotencyReused: () =>
    new ApiError(
      422,
      'idempotency_key_reused',
      'This Idempotency-Key was already used with a different request body. Use a new key for a new request.',
    ),
  idempotencyInProgress: () =>
    new ApiError(409, 'idempotency_key_in_progress', 'The first request with this Idempotency-Key is still running.', {
      headers: { 'Retry-After': '1' },
    }),
  provConflict: (detail: string) => new ApiError(409, 'PROV_409', detail),
  provInvalid: (detail: string, errors?: FieldError[]) => new ApiError(422, 'PROV_422', detail, { errors }),
  provWriterNotFound: (service: string) =>
    new ApiError(404, 'PROV_404', `No service writer with service_key "${service}" exists for this tenant.`),
  provKeyMismatch: (service: string) =>
    new ApiError(403, 'PROV_403', `The API key used is not the key bound to service writer "${service}".`),
  /** Universal endpoints (docs/passport-universal.md): the passport user has not granted this agent access. */
  uatNoGrant: () =>
    new ApiError(403, 'UAT_001', 'The passport user has no active grant for this agent.', {
      fields: { error: 'no_grant_for_user' },
    }),
  /** A universal write with a read-only grant; the spec's body fields `error` and `code`. */
  uatWriteNotPermitted: () =>
    new ApiError(403, 'UAT_002', 'The grant for this agent is read-only; universal writes need access_type read_write.', {
      fields: { error: 'write_not_permitted' },
    }),
  serviceUnavailable: (detail: string) => new ApiError(503, 'service_unavailable', detail),
  /** The database cannot be reached or did not answer in time (docs/operations.md). */
  databaseUnavailable: (fields?: Record<string, unknown>) =>
    new ApiError(503, 'database_unavailable', 'The database is unavailable. Retry after the seconds in Retry-After (adds with the same Idempotency-Key are never applied twice).', {
      headers: { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) },
      fields,
    }),
  internal: () => new ApiError(500, 'internal_error', 'An unexpected error occurred. It has been logged with the request id.'),
};

export interface Problem {
  status: number;
  headers: Record<string, string>;
  body: {
    type: string;
    title: string;
    status: number;
    detail: string;
    instance?: string;
    code: ErrorCode;
    request_id: string;
    errors?: FieldError[];
    [key: string]: unknown;
  };
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Node socket errors and postgres.js connection errors that mean the server could not be reached or went away. */
const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
]);

/** 57P01–57P03 shutdown / crash / cannot connect now, 53300 too many connections, 57014 statement timeout. */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '57014']);

/**
 * Whether an error (or one of its causes: Drizzle wraps the driver's) says the database is unavailable rather
 * than that the request was wrong: a connection that failed or closed, SQLSTATE class 08 (connection
 * exception), 57P01–57P03 (shutdown, crash, cannot connect now), 53300 (too many connections) and 57014 (the
 * statement timeout cancelled the query).
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code !== 'string') continue;
    if (CONNECTION_ERROR_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || code.startsWith('08')) return true;
  }
  return false;
}

/**
 * Renders any thrown value. The second result says whether it was unexpected (to be logged as a bug); an
 * unavailable database is not a bug (503 `database_unavailable`, logged by the caller as a warning).
 */
export function toProblem(err: unknown, requestId: string, instance?: string): { problem: Problem; unexpected: boolean } {
  const databaseDown = !isApiError(err) && isDatabaseUnavailable(err);
  const unexpected = !isApiError(err) && !databaseDown;
  const e = isApiError(err) ? err : databaseDown ? Errors.databaseUnavailable() : Errors.internal();
  return {
    unexpected,
    problem: {
      status: e.status,
      headers: { 'Content-Type': PROBLEM_CONTENT_TYPE, ...(e.extra.headers ?? {}) },
      body: {
        type: `https://memory-service.dev/problems/${e.code}`,
        title: e.title,
        status: e.status,
        detail: e.detail,
        ...(instance ? { instance } : {}),
        code: e.code,
        request_id: requestId,
        ...(e.extra.errors ? { errors: e.extra.errors } : {}),
        ...(e.extra.fields ?? {}),
      },
    },
  };
}
