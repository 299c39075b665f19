/**
 * One /v1 operation as data: method, path, security, the zod schemas of its query and body (the ones its route
 * parses with) and every status it answers. Each area declares its operations in an `operations.ts` beside its
 * route files (route.ts itself may only export handlers), and exports nothing else: lib/openapi.ts assembles the
 * document from every export of those modules.
 */
import type { z } from 'zod';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** OpenAPI security requirements; absent means the document's default (`ApiKey`), `[]` means none. */
export type Security = Record<string, string[]>[];

/** A response: a JSON body of `schema`, a problem+json error, or (`schema` absent) a description only. */
export type ResponseSpec =
  | { readonly kind: 'json'; readonly description: string; readonly schema?: z.ZodType }
  | { readonly kind: 'problem'; readonly description: string };

export interface OperationSpec {
  readonly method: Method;
  /** The path template, `{name}` for each path parameter (a UUID unless `pathTypes` says it is free text). */
  readonly path: `/v1/${string}`;
  readonly operationId: string;
  readonly summary: string;
  readonly description?: string;
  readonly security?: Security;
  readonly pathTypes?: Readonly<Record<string, 'text'>>;
  /** The optional `Idempotency-Key` header (readIdempotencyKey). */
  readonly idempotencyKey?: boolean;
  readonly query?: z.ZodObject;
  readonly body?: z.ZodType;
  readonly responses: Readonly<Record<string, ResponseSpec>>;
}

/** Declares an operation; the literal type is kept, so a route parses with `op.body` / `op.query` fully typed. */
export const defineOperation = <const O extends OperationSpec>(op: O): O => op;

/** A JSON response of `schema` (the envelope is part of the schema: `envelope(view)`). */
export const ok = (schema: z.ZodType, description = 'OK'): ResponseSpec => ({ kind: 'json', description, schema });

/** A JSON response documented in words only. */
export const described = (description: string): ResponseSpec => ({ kind: 'json', description });

/** An `application/problem+json` error response. */
export const problem = (description: string): ResponseSpec => ({ kind: 'problem', description });

/** The two errors of every operation that takes a tenant key and parses input. */
export const tenantErrors = {
  '401': problem('Missing or invalid API key (code `unauthorized`).'),
  '422': problem('Validation failed (code `validation_failed`); `errors[]` lists each field.'),
};

/** The operator-only operations (MEMORY_ADMIN_TOKEN). */
export const adminSecurity: Security = [{ AdminToken: [] }];
export const adminUnauthorized = problem('Wrong admin token.');

/** Writes counted against the tenant's write rate (docs/quotas.md). */
export const writeRateLimited = problem(
  '`rate_limited`: over the tenant’s write rate (docs/quotas.md). Headers `Retry-After`, `RateLimit` and `RateLimit-Policy` ' +
    '(e.g. `RateLimit-Policy: "tenant-writes";q=1200;w=60`, `RateLimit: "tenant-writes";r=0;t=12`); writes under a limit carry the same two headers.',
);
