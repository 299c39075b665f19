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
/** What the client returns: the envelope's `data`, or the whole body when the response has no envelope. */
export type Result<K extends OperationId> = ResponseBody<K> extends { data: infer D; request_id: string } ? D : ResponseBody<K>;
/** The JSON request body of an operation. */
export type RequestBody<K extends OperationId> = operations[K] extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
/** The query parameters of an operation. */
export type Query<K extends OperationId> = operations[K] extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

