/**
 * Request examples: one per operation, declared per area in apps/web/app/v1/<area>/examples.ts beside its
 * operations.ts. The types tie each example to its operation (every operation of the area has one; path parameters,
 * query and body as the operation declares them, the body and query as zod's input types), and
 * lib/openapi-examples.test.ts parses each with the operation's own zod schemas, so an example cannot drift from
 * what the route accepts. The OpenAPI document carries them (request body `examples`, parameter `example`) and the
 * reference page builds its curl and TypeScript examples from them.
 */
import type { z } from 'zod';
import type { OperationSpec } from './operation';

/** The names of a path template's `{name}` parameters. */
type PathParams<P extends string> = P extends `${string}{${infer N}}${infer Rest}` ? N | PathParams<Rest> : never;

/** One request to operation `O`, as a caller sends it. */
export type RequestExample<O extends OperationSpec> = { readonly summary?: string } & ([PathParams<O['path']>] extends [never]
  ? { readonly params?: undefined }
  : { readonly params: Readonly<Record<PathParams<O['path']>, string>> }) &
  (O extends { readonly query: infer Q extends z.ZodType } ? { readonly query: z.input<Q> } : { readonly query?: undefined }) &
  (O extends { readonly body: infer B extends z.ZodType } ? { readonly body: z.input<B> } : { readonly body?: undefined });

/** An area's examples, keyed by operationId: exactly one for each operation its operations module exports. */
export type AreaExamples<M> = {
  [K in keyof M as M[K] extends OperationSpec ? M[K]['operationId'] : never]: M[K] extends OperationSpec ? RequestExample<M[K]> : never;
};

/** An example without its operation's types (the document, the page, the tests). */
export interface AnyRequestExample {
  readonly summary?: string;
  readonly params?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, unknown>>;
  readonly body?: unknown;
}

/** The `Idempotency-Key` the examples of operations that honour it send. */
export const EXAMPLE_IDEMPOTENCY_KEY = '2b8f6c1e-4d7a-4f0b-9c3e-5a1d2e7f9b60';
