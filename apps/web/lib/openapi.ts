/**
 * The OpenAPI 3.1 document, assembled from the operations each area declares beside its routes
 * (apps/web/app/v1/<area>/operations.ts, lib/operation.ts). Their zod schemas, the ones the handlers validate
 * with, become JSON Schema here (OpenAPI 3.1 schemas are JSON Schema 2020-12, which zod emits natively).
 * Each area is a tag and each operation carries its request example (lib/openapi-areas.ts).
 * No operation or schema is declared in this file.
 */
import { LIMITS, problemSchema } from '@memory/core';
import { z } from 'zod';
import { type Method, type OperationSpec, type ResponseSpec } from './operation';
import { API_AREAS } from './openapi-areas';
import { type AnyRequestExample, EXAMPLE_IDEMPOTENCY_KEY } from './operation-example';

const METHOD_ORDER: readonly Method[] = ['get', 'post', 'put', 'patch', 'delete'];

/**
 * Every documented operation, by path and then method (get, post, put, patch, delete), so the document and the
 * reference page do not depend on where an operation is declared. The parity test checks that each has its route
 * file and each route its operation.
 */
const OPERATIONS: readonly OperationSpec[] = API_AREAS.flatMap((area) => area.operations)
  .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method)));

/** Each operation's tag (its area) and request example, by operationId. */
const AREA_OF = new Map(API_AREAS.flatMap((area) => area.operations.map((op) => [op.operationId, area] as const)));
const exampleOf = (op: OperationSpec): AnyRequestExample => AREA_OF.get(op.operationId)?.examples[op.operationId] ?? {};

/**
 * Where the API is: the origin that served the document (a relative URL, resolved against the document's own
 * location, OpenAPI 3.1 §4.8.5), so one static document is right for every deployment.
 */
const SERVERS = [{ url: '/', description: 'This service: the origin that served this document' }];

/** The optional `Idempotency-Key` header of the operations that honour it (readIdempotencyKey). */
const IDEMPOTENCY_KEY_HEADER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  schema: { type: 'string', maxLength: LIMITS.idempotencyKeyChars },
  example: EXAMPLE_IDEMPOTENCY_KEY,
};

type Io = 'input' | 'output';
type Json = Record<string, unknown>;

/**
 * Schemas with a zod `meta({ id })` become `components.schemas` entries referenced by `$ref`.
 * If an input and an output variant of one id differ (defaults make fields optional on input),
 * the input variant is registered as `<id>Input`.
 */
class Components {
  readonly schemas: Record<string, Json> = {};

  add(s: z.ZodType, io: Io): Json {
    const generated = z.toJSONSchema(s, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Json;
    const defs = (generated.$defs ?? {}) as Record<string, Json>;
    const names: Record<string, string> = {};
    for (const [id, def] of Object.entries(defs)) {
      const existing = this.schemas[id];
      names[id] = existing && JSON.stringify(existing) !== JSON.stringify(def) && io === 'input' ? `${id}Input` : id;
    }
    const rewrite = (v: unknown): unknown => {
      if (Array.isArray(v)) return v.map(rewrite);
      if (v && typeof v === 'object') {
        return Object.fromEntries(
          Object.entries(v as Json)
            .filter(([k]) => k !== '$schema' && k !== '$defs')
            .map(([k, val]) =>
              k === '$ref' && typeof val === 'string' && val.startsWith('#/$defs/')
                ? [k, `#/components/schemas/${names[val.slice(8)]}`]
                : [k, rewrite(val)],
            ),
        );
      }
      return v;
    };
    for (const [id, def] of Object.entries(defs)) this.schemas[names[id]] ??= rewrite(def) as Json;
    return rewrite(generated) as Json;
  }
}

/** Follows a `#/components/schemas/...` reference (for the reference page and tests). */
export function resolveSchema(doc: { components: { schemas: Record<string, Json> } }, s: Json): Json {
  const ref = s.$ref;
  return typeof ref === 'string' ? resolveSchema(doc, doc.components.schemas[ref.split('/').pop() as string]) : s;
}

/** One operation as an OpenAPI operation object; its schemas go to `components`. */
function operationObject(op: OperationSpec, components: Components): Json {
  const example = exampleOf(op);
  const parameters = [
    ...[...op.path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => ({
      name,
      in: 'path',
      required: true,
      schema: op.pathTypes?.[name] === 'text' ? { type: 'string' } : { type: 'string', format: 'uuid' },
      ...(example.params?.[name] !== undefined && { example: example.params[name] }),
    })),
    ...(op.query ? queryParameters(op.query, components, example.query ?? {}) : []),
    ...(op.idempotencyKey ? [IDEMPOTENCY_KEY_HEADER] : []),
  ];
  const response = (r: ResponseSpec): Json =>
    r.kind === 'problem'
      ? { description: r.description, content: { 'application/problem+json': { schema: components.add(problemSchema, 'output') } } }
      : r.schema
        ? { description: r.description, content: { 'application/json': { schema: components.add(r.schema, 'output') } } }
        : { description: r.description };
  return {
    operationId: op.operationId,
    tags: [AREA_OF.get(op.operationId)?.tag ?? 'Other'],
    summary: op.summary,
    ...(op.description !== undefined && { description: op.description }),
    ...(op.security && { security: op.security }),
    ...(parameters.length > 0 && { parameters }),
    ...(op.body && {
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: components.add(op.body, 'input'),
            ...(example.body !== undefined && { examples: { default: { summary: example.summary ?? 'A typical request', value: example.body } } }),
          },
        },
      },
    }),
    responses: Object.fromEntries(Object.entries(op.responses).map(([status, r]) => [status, response(r)])),
  };
}

function queryParameters(s: z.ZodObject, components: Components, example: Readonly<Record<string, unknown>>) {
  const json = components.add(s, 'input') as { properties: Record<string, unknown>; required?: string[] };
  return Object.entries(json.properties).map(([name, sch]) => ({
    name,
    in: 'query',
    required: json.required?.includes(name) ?? false,
    schema: sch,
    ...(example[name] !== undefined && { example: example[name] }),
  }));
}

export function buildOpenApiDocument() {
  const components = new Components();
  // Response schemas first: a component's plain name is always its output shape, and an input that differs (a
  // default makes a field optional) is always `<id>Input`, whatever the order of the operations.
  for (const op of OPERATIONS) for (const r of Object.values(op.responses)) if (r.kind === 'json' && r.schema) components.add(r.schema, 'output');
  const paths: Record<string, Record<string, Json>> = {};
  for (const op of OPERATIONS) (paths[op.path] ??= {})[op.method] = operationObject(op, components);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Memory Service API',
      version: '1.0.0',
      description:
        'Long-term memory for AI products: send conversations, get durable memories back as a prompt-ready block. ' +
        'Errors are RFC 9457 problem details with a stable `code`. See docs/ in the repository for every choice the spec left open.',
    },
    servers: SERVERS,
    tags: API_AREAS.map(({ tag, description }) => ({ name: tag, description })),
    components: {
      schemas: components.schemas,
      securitySchemes: {
        ApiKey: { type: 'apiKey', in: 'header', name: 'Authorization', description: '`Authorization: ApiKey <key>`' },
        AdminToken: { type: 'http', scheme: 'bearer', description: '`Authorization: Bearer <MEMORY_ADMIN_TOKEN>`' },
        AgentKey: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: '`Authorization: ApiKey <agent key>`: the `mem_ak_…` key returned once by POST /v1/agents/global (backend only).',
        },
        PassportSession: {
          type: 'http',
          scheme: 'bearer',
          description: '`Authorization: Bearer <session_token>`: the `mem_ps_…` token from POST /v1/uui/otp/verify.',
        },
        ServiceUui: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Service-UUI',
          description: 'The passport user’s token for this agent (`mem_uui_…`); sent with `Authorization: ApiKey <agent key>`.',
        },
      },
    },
    security: [{ ApiKey: [] }],
    paths,
  };
}
