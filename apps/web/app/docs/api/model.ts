/**
 * The reference page's view of the OpenAPI document (lib/openapi.ts): its operations grouped by tag, in the order of
 * the document's `tags`, and the anchors the page links with. Everything the page shows comes from the document, so
 * the page and /v1/openapi.json cannot disagree.
 */
import { buildOpenApiDocument } from '@/lib/openapi';

export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  format?: string;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  example?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema?: JsonSchema;
  example?: unknown;
}

export type Security = Record<string, string[]>[];

export interface MediaType {
  schema: JsonSchema;
  examples?: Record<string, { summary?: string; value: unknown }>;
}

export interface Operation {
  operationId: string;
  tags: string[];
  summary: string;
  description?: string;
  security?: Security;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, { description: string; content?: Record<string, MediaType> }>;
}

export interface DocumentedOperation {
  path: string;
  method: string;
  op: Operation;
  /** The security requirement that applies: the operation's own, else the document's default. */
  security: Security;
}

export interface TagGroup {
  name: string;
  description: string;
  anchor: string;
  operations: DocumentedOperation[];
}

export interface ApiDocument {
  openapi: string;
  info: { title: string; description: string; version: string };
  servers: { url: string; description?: string }[];
  tags: { name: string; description: string }[];
  security: Security;
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, JsonSchema>;
    securitySchemes: Record<string, { type: string; description: string; name?: string; scheme?: string }>;
  };
}

export const DOC = buildOpenApiDocument() as unknown as ApiDocument;

/** `#schema-<Name>`: where a component schema is rendered. */
export const schemaAnchor = (name: string) => `schema-${name}`;
export const tagAnchor = (tag: string) => `tag-${tag.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;

/** The component name of a `#/components/schemas/<Name>` reference. */
export const refName = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1);

/** The schema itself, following a reference. */
export function resolve(s: JsonSchema, doc: ApiDocument = DOC): JsonSchema {
  return s.$ref ? resolve(doc.components.schemas[refName(s.$ref)] ?? {}, doc) : s;
}

/** Every operation, grouped by its first tag, groups in the order of the document's `tags`. */
export function tagGroups(doc: ApiDocument = DOC): TagGroup[] {
  const all = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method, op, security: op.security ?? doc.security })),
  );
  return doc.tags.map(({ name, description }) => ({
    name,
    description,
    anchor: tagAnchor(name),
    operations: all.filter(({ op }) => op.tags[0] === name),
  }));
}

/** The request example of an operation's JSON body, if it has one. */
export const bodyExample = (op: Operation): unknown => op.requestBody?.content['application/json']?.examples?.default?.value;
