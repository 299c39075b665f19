/**
 * Names over the generated types (generated/openapi.ts, from the server's OpenAPI document): the request body,
 * query and result of an operation, by its operationId. No shape is written here by hand.
 */
import type { components, operations } from './generated/openapi.js';

export type { components, operations, paths } from './generated/openapi.js';

/** Every component schema of the API (`Schemas['Memory']`, `Schemas['ExtractionJob']`, …). */
export type Schemas = components['schemas'];
export type OperationId = keyof operations;

type Json<R> = R extends { content: { 'application/json': infer B } } ? B : undefined;
type Success<O> = O extends { responses: infer R }
  ? R extends { 200: infer S }
    ? Json<S>
    : R extends { 201: infer S }
      ? Json<S>
      : R extends { 202: infer S }
        ? Json<S>
        : never
  : never;

/** The JSON body of an operation's success response, as sent (with the `{ data, request_id, timestamp }` envelope). */
export type ResponseBody<K extends OperationId> = Success<operations[K]>;
type Unwrapped<T> = T extends { data: infer D; request_id: string; timestamp: string }
  ? [Exclude<keyof T, 'data' | 'request_id' | 'timestamp'>] extends [never]
    ? D
    : T
  : T;
/**
 * What the client returns: the envelope's `data` when the body is exactly `{ data, request_id, timestamp }`, else
 * the whole body (add and retrieve answers carry `request_id` beside their own fields; retrieve's `data` is a field).
 */
export type Result<K extends OperationId> = Unwrapped<ResponseBody<K>>;
/** The JSON request body of an operation. */
export type RequestBody<K extends OperationId> = operations[K] extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
/** The query parameters of an operation. */
export type Query<K extends OperationId> = operations[K] extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

