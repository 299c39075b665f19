/**
 * The OpenAPI 3.1 document, assembled from the operations each area declares beside its routes
 * (apps/web/app/v1/<area>/operations.ts, lib/operation.ts). Their zod schemas, the ones the handlers validate
 * with, become JSON Schema here (OpenAPI 3.1 schemas are JSON Schema 2020-12, which zod emits natively).
 * No operation or schema is declared in this file.
 */
import { LIMITS, problemSchema } from '@memory/core';
import { z } from 'zod';
import * as admin from '@/app/v1/admin/operations';
import * as agents from '@/app/v1/agents/operations';
import * as health from '@/app/v1/health/operations';
import * as memories from '@/app/v1/memories/operations';
import * as tenant from '@/app/v1/tenant/operations';
import * as webhooks from '@/app/v1/tenant/webhooks/operations';
import * as universal from '@/app/v1/universal/operations';
import * as users from '@/app/v1/users/operations';
import * as uui from '@/app/v1/uui/operations';
import { type Method, type OperationSpec, type ResponseSpec } from './operation';

const METHOD_ORDER: readonly Method[] = ['get', 'post', 'put', 'patch', 'delete'];

/**
 * Every documented operation, by path and then method (get, post, put, patch, delete), so the document and the
 * reference page do not depend on where an operation is declared. The parity test checks that each has its route
 * file and each route its operation.
 */
const OPERATIONS: readonly OperationSpec[] = [admin, agents, health, memories, tenant, webhooks, universal, users, uui]
  .flatMap((area) => Object.values(area) as OperationSpec[])
  .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method)));

/** The optional `Idempotency-Key` header of the operations that honour it (readIdempotencyKey). */
const IDEMPOTENCY_KEY_HEADER = { name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: LIMITS.idempotencyKeyChars } };

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
  const parameters = [
    ...[...op.path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => ({
      name,
      in: 'path',
      required: true,
      schema: op.pathTypes?.[name] === 'text' ? { type: 'string' } : { type: 'string', format: 'uuid' },
    })),
    ...(op.query ? queryParameters(op.query, components) : []),
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
    summary: op.summary,
    ...(op.description !== undefined && { description: op.description }),
    ...(op.security && { security: op.security }),
    ...(parameters.length > 0 && { parameters }),
    ...(op.body && { requestBody: { required: true, content: { 'application/json': { schema: components.add(op.body, 'input') } } } }),
    responses: Object.fromEntries(Object.entries(op.responses).map(([status, r]) => [status, response(r)])),
  };
}

function queryParameters(s: z.ZodObject, components: Components) {
  const json = components.add(s, 'input') as { properties: Record<string, unknown>; required?: string[] };
  return Object.entries(json.properties).map(([name, sch]) => ({
    name,
    in: 'query',
    required: json.required?.includes(name) ?? false,
    schema: sch,
  }));
}

export function buildOpenApiDocument(serverUrl?: string) {
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
    servers: serverUrl ? [{ url: serverUrl }] : [],
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
