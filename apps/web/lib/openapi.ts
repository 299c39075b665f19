/**
 * The OpenAPI 3.1 document, generated from the zod schemas the handlers validate with
 * (OpenAPI 3.1 schemas are JSON Schema 2020-12, which zod emits natively).
 */
import {
  ADD_STATUSES,
  LIMITS,
  addRequest,
  addResponse,
  createTenantRequest,
  createTenantResponse,
  exportQuery,
  extractionJob,
  listMemoriesQuery,
  memoryPage,
  problemSchema,
  SOURCE_EVENTS_LIMIT_MAX,
  listReviewsQuery,
  resolveReviewRequest,
  apiKeyView,
  createApiKeyRequest,
  createServiceWriterRequest,
  listSourceEventsQuery,
  retrieveRequest,
  retrieveResponse,
  serviceWriterView,
  sourceEventView,
  universalAddRequest,
  universalAddResponse,
  universalJob,
  universalRetrieveRequest,
  universalRetrieveResponse,
  passportQuestion,
  resolvePassportQuestionRequest,
  resolvedPassportQuestion,
  planChangeRequest,
  usageReport,
  WEBHOOK_DELIVERIES_LIMIT_MAX,
  WEBHOOK_EVENT_DESCRIPTIONS,
  WEBHOOK_EVENT_TYPES,
  createWebhookEndpointRequest,
  listWebhookDeliveriesQuery,
  updateWebhookEndpointRequest,
  webhookDeliveryPage,
  webhookDeliveryView,
  webhookEndpointView,
  webhookEndpointWithSecret,
} from '@memory/core';
import {
  PAYLOAD_RETENTION_DAYS_MAX,
  PAYLOAD_RETENTION_DAYS_MIN,
  tenantSettingsView,
  updateTenantSettingsRequest,
} from '@memory/core/schemas/settings';
import {
  customerListView,
  customerProfileView,
  edtechProfileQuery,
  listCustomersQuery,
  supportStatsQuery,
  supportStatsView,
  studentProfileView,
  tenantDomainSchemaView,
  updateDomainSchemaRequest,
} from '@memory/core/schemas/domains';
import { createAdminRequest } from '@memory/core/console/admins';
import {
  PASSPORT_SESSION_RULES,
  connectionView,
  createGlobalAgentRequest,
  createLinkTokenRequest,
  directoryQuery,
  globalAgentCreated,
  globalAgentPublic,
  grantRequest,
  grantView,
  linkTokenCreated,
  passportCodeSent,
  passportEmailRequest,
  passportMe,
  passportSessionIssued,
  passportTokenIssued,
  passportTokenRequest,
  passportVerifyRequest,
} from '@memory/core';
import {
  FEEDBACK_EFFECTS,
  FEEDBACK_OUTCOMES,
  retrievalFeedbackRequest,
  retrievalFeedbackResponse,
} from '@memory/core';
import { z } from 'zod';

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

let components = new Components();
const schema = (s: z.ZodType, io: Io) => components.add(s, io);

const envelope = (data: z.ZodType) =>
  z.object({ data, request_id: z.string().uuid(), timestamp: z.string().datetime() });

const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: schema(problemSchema, 'output') } },
});

const ok = (s: z.ZodType, description = 'OK') => ({ description, content: { 'application/json': { schema: schema(s, 'output') } } });

const tenantErrors = {
  '401': problem('Missing or invalid API key (code `unauthorized`).'),
  '422': problem('Validation failed (code `validation_failed`); `errors[]` lists each field.'),
};

function queryParams(s: z.ZodObject) {
  const json = schema(s, 'input') as { properties: Record<string, unknown>; required?: string[] };
  return Object.entries(json.properties).map(([name, sch]) => ({
    name,
    in: 'query',
    required: json.required?.includes(name) ?? false,
    schema: sch,
  }));
}

export function buildOpenApiDocument(serverUrl?: string) {
  components = new Components();
  const paths = buildPaths();
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

function buildPaths() {
  return {
    '/v1/memories/add': {
      post: {
        operationId: 'addMemories',
        summary: 'Queue extraction of memories from a conversation',
        description:
          `The quality gate decides the \`status\` (${ADD_STATUSES.join(', ')}); \`job_id\` is non-null exactly when status is \`queued\`. ` +
          `Send \`Idempotency-Key\` to retry safely: the same key and body replay the saved response (header \`Idempotent-Replayed: true\`), ` +
          `the same key with another body is 422 \`idempotency_key_reused\`. Keys are kept ${'48'} hours by default. ` +
          `Limits: ${LIMITS.messagesPerAdd} messages, ${LIMITS.messageChars} characters per message, body ${LIMITS.bodyBytes} bytes.`,
        parameters: [
          { name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: LIMITS.idempotencyKeyChars } },
        ],
        requestBody: { required: true, content: { 'application/json': { schema: schema(addRequest, 'input') } } },
        responses: {
          '200': ok(
            addResponse,
            'Accepted, passed through or blocked; `status` says which. Usage controls (docs/quotas.md) answer here too, never as ' +
              'errors: `L1` (`blocked_reason: rate_limited`, `retry_after_seconds`) over the per-user or per-tenant write rate; ' +
              '`passthrough` with `nothing_to_extract: false` in the PASSTHROUGH quota mode (the source event is kept, no extraction); ' +
              '`blocked` (`quota_exhausted`, nothing stored) in BLOCKED. `processing_status: delayed` with `processing_eta_seconds` ' +
              'when the extraction backlog is behind.',
          ),
          '401': tenantErrors['401'],
          '403': problem('`PROV_403`: the writer named in `source.service` is bound to another API key.'),
          '404': problem('`PROV_404`: no service writer has the `source.service` key.'),
          '409': problem('`PROV_409`: the source event id exists with a different payload.'),
          '413': problem('Body larger than the limit.'),
          '422': problem('`validation_failed`, or `PROV_422` when the `source` block is invalid (e.g. evidence that looks like a secret).'),
        },
      },
    },
    '/v1/memories/jobs/{job_id}': {
      get: {
        operationId: 'getExtractionJob',
        summary: 'Poll an extraction job',
        description: 'Statuses: queued, running, completed (memories written), processed (nothing durable found), failed, dead.',
        parameters: [{ name: 'job_id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
        responses: { '200': ok(envelope(extractionJob)), '401': tenantErrors['401'], '404': problem('No such job for this tenant.') },
      },
    },
    '/v1/memories/retrieve': {
      post: {
        operationId: 'retrieveMemories',
        summary: 'Ranked memories and a prompt-ready block for a query',
        description:
          'The tenant’s quota mode shapes the answer (docs/quotas.md): DEGRADED_RETRIEVE ranks without calling the embeddings endpoint ' +
          'and returns at most 5 memories (`is_degraded: true`); PASSTHROUGH and BLOCKED return no memories and an empty block ' +
          '(`is_passthrough: true`): answer without memory context.',
        requestBody: { required: true, content: { 'application/json': { schema: schema(retrieveRequest, 'input') } } },
        responses: { '200': ok(retrieveResponse), ...tenantErrors },
      },
    },
    '/v1/memories/retrieval-feedback': {
      post: {
        operationId: 'sendRetrievalFeedback',
        summary: 'Report how a retrieve response was used; a user correction queues a retrospective extraction',
        description:
          `\`outcome\` is one of ${FEEDBACK_OUTCOMES.map((o) => `\`${o}\``).join(', ')}. Each moves the importance (which ranking weighs) ` +
          `of the memories concerned — \`used_memory_ids\`, else every memory the retrieval returned — by a fixed step ` +
          `(${FEEDBACK_OUTCOMES.map((o) => `${o} ${FEEDBACK_EFFECTS[o].importance >= 0 ? '+' : ''}${FEEDBACK_EFFECTS[o].importance}`).join(', ')}), ` +
          'scaled by `agent_confidence`. `user_corrected` requires `correction` and answers at once with `correction_job_id`: ' +
          'the job extracts memories from the correction and supersedes the memories it contradicts (poll GET /v1/memories/jobs/{id}). ' +
          'One feedback per retrieval and outcome (again: 409 `conflict` with the first `feedback_id`). ' +
          'Send `Idempotency-Key` to retry safely, as for add. See docs/lifecycle.md.',
        parameters: [
          { name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: LIMITS.idempotencyKeyChars } },
        ],
        requestBody: { required: true, content: { 'application/json': { schema: schema(retrievalFeedbackRequest, 'input') } } },
        responses: {
          '200': ok(retrievalFeedbackResponse, 'Recorded; the effect on the memories is applied.'),
          '401': tenantErrors['401'],
          '404': problem('No retrieval with this `retrieval_id` for this tenant (code `not_found`).'),
          '409': problem('`conflict`: feedback with this outcome was already recorded for this retrieval; `feedback_id` names it.'),
          '429': problem(
            '`rate_limited`: over the tenant’s write rate (docs/quotas.md). Headers `Retry-After`, `RateLimit` and `RateLimit-Policy` ' +
              '(e.g. `RateLimit-Policy: "tenant-writes";q=1200;w=60`, `RateLimit: "tenant-writes";r=0;t=12`); writes under a limit carry the same two headers.',
          ),
          '422': problem(
            '`validation_failed`: unknown outcome, a `used_memory_ids` entry the retrieval did not return, `agent_confidence` outside 0–1, ' +
              '`user_corrected` without `correction` (or `correction` with another outcome); or `idempotency_key_reused`.',
          ),
        },
      },
    },
    '/v1/memories': {
      get: {
        operationId: 'listMemories',
        summary: 'List a user’s memories, newest first, paged by cursor',
        parameters: queryParams(listMemoriesQuery),
        responses: { '200': ok(envelope(memoryPage)), ...tenantErrors },
      },
    },
    '/v1/memories/{memory_id}': {
      delete: {
        operationId: 'deleteMemory',
        summary: 'Delete a memory (archived: out of retrieval, kept in the revision ledger)',
        parameters: [{ name: 'memory_id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
        responses: {
          '200': ok(envelope(z.object({ id: z.string().uuid(), status: z.literal('archived'), deleted: z.literal(true) }))),
          '401': tenantErrors['401'],
          '404': problem('No such memory for this tenant.'),
          '429': problem(
            '`rate_limited`: over the tenant’s write rate (docs/quotas.md). Headers `Retry-After`, `RateLimit` and `RateLimit-Policy` ' +
              '(e.g. `RateLimit-Policy: "tenant-writes";q=1200;w=60`, `RateLimit: "tenant-writes";r=0;t=12`); writes under a limit carry the same two headers.',
          ),
        },
      },
    },
    '/v1/users/me/export': {
      get: {
        operationId: 'exportUser',
        summary: 'Complete export bundle of one end user (memories with provenance, ledger, source events, jobs)',
        parameters: queryParams(exportQuery),
        responses: { '200': { description: 'The bundle, see docs/export.md.' }, ...tenantErrors, '404': problem('Unknown user.') },
      },
    },
    '/v1/admin/tenants': {
      post: {
        operationId: 'createTenant',
        summary: 'Create a tenant and its first API key (operator only)',
        description: 'Exists only when MEMORY_ADMIN_TOKEN is configured; answers 404 otherwise. The key is shown once.',
        security: [{ AdminToken: [] }],
        requestBody: { required: true, content: { 'application/json': { schema: schema(createTenantRequest, 'input') } } },
        responses: {
          '201': ok(createTenantResponse, 'Created'),
          '401': problem('Wrong admin token.'),
          '404': problem('No admin token configured.'),
          '422': tenantErrors['422'],
        },
      },
    },
    '/v1/tenant/service-writers': {
      post: {
        operationId: 'createServiceWriter',
        summary: 'Register a service writer (a backend service that writes user facts)',
        description:
          'Priorities are integers 0–1000; higher wins a conflict. `categories` keys must be memory categories. ' +
          'Bind `api_key_id` to require that key on adds whose `source.service` is this writer (PROV_403 otherwise).',
        requestBody: { required: true, content: { 'application/json': { schema: schema(createServiceWriterRequest, 'input') } } },
        responses: {
          '201': ok(envelope(serviceWriterView), 'Created'),
          '401': tenantErrors['401'],
          '409': problem('`PROV_409`: this service_key exists already.'),
          '422': problem('`PROV_422`: invalid writer; `errors[]` names each field.'),
        },
      },
      get: {
        operationId: 'listServiceWriters',
        summary: 'List the tenant’s service writers',
        responses: { '200': ok(envelope(z.array(serviceWriterView))), '401': tenantErrors['401'] },
      },
    },
    '/v1/tenant/api-keys': {
      post: {
        operationId: 'createApiKey',
        summary: 'Create another API key (e.g. one per service); the key is shown once',
        requestBody: { required: true, content: { 'application/json': { schema: schema(createApiKeyRequest, 'input') } } },
        responses: {
          '201': ok(envelope(apiKeyView.extend({ api_key: z.string() })), 'Created'),
          ...tenantErrors,
        },
      },
      get: {
        operationId: 'listApiKeys',
        summary: 'List the tenant’s API keys (never the secrets)',
        responses: { '200': ok(envelope(z.array(apiKeyView))), '401': tenantErrors['401'] },
      },
    },
    '/v1/tenant/api-keys/{key_id}': {
      delete: {
        operationId: 'revokeApiKey',
        summary: 'Revoke an API key (effective at once in this process, within 10 s everywhere)',
        parameters: [{ name: 'key_id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
        responses: {
          '200': ok(envelope(apiKeyView)),
          '401': tenantErrors['401'],
          '404': problem('No such key for this tenant.'),
          '422': problem('A key cannot revoke itself.'),
        },
      },
    },
    '/v1/tenant/source-events': {
      get: {
        operationId: 'listSourceEvents',
        summary: 'List source events with payload hashes, linked jobs, evidence and scope, newest first',
        description: `\`limit\` 1–${SOURCE_EVENTS_LIMIT_MAX} (default 20); pass \`next_cursor\` back as \`cursor\` for the next page.`,
        parameters: queryParams(listSourceEventsQuery),
        responses: {
          '200': ok(envelope(z.object({ items: z.array(sourceEventView), limit: z.number().int(), next_cursor: z.string().nullable() }))),
          ...tenantErrors,
        },
      },
    },
    '/v1/tenant/usage': {
      get: {
        operationId: 'getTenantUsage',
        summary: 'The tenant’s plan, period, usage per unit, remaining budget, quota mode and thresholds',
        description: 'Budgets are per monthly period from the plan’s anchor; see docs/quotas.md for plans, thresholds and rate limits.',
        responses: { '200': ok(envelope(usageReport)), '401': tenantErrors['401'] },
      },
    },
    '/v1/admin/tenants/{tenant_id}/plan': {
      get: {
        operationId: 'getTenantPlan',
        summary: 'A tenant’s plan and usage (operator only)',
        security: [{ AdminToken: [] }],
        parameters: [{ name: 'tenant_id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
        responses: {
          '200': ok(envelope(usageReport)),
          '401': problem('Wrong admin token.'),
          '404': problem('No admin token configured, or no such tenant.'),
        },
      },
      put: {
        operationId: 'setTenantPlan',
        summary: 'Set a tenant’s plan and overrides (operator only); a new period starts and the quota mode is recomputed at once',
        security: [{ AdminToken: [] }],
        parameters: [{ name: 'tenant_id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
        requestBody: { required: true, content: { 'application/json': { schema: schema(planChangeRequest, 'input') } } },
        responses: {
          '200': ok(envelope(usageReport)),
          '401': problem('Wrong admin token.'),
          '404': problem('No admin token configured, or no such tenant.'),
          '422': tenantErrors['422'],
        },
      },
    },
    ...webhookPaths(),
    '/v1/tenant/settings': {
      get: {
        operationId: 'getTenantSettings',
        summary: 'The tenant’s settings (payload retention window)',
        responses: { '200': ok(envelope(tenantSettingsView)), '401': tenantErrors['401'] },
      },
      patch: {
        operationId: 'updateTenantSettings',
        summary: 'Change tenant settings',
        description:
          `\`payload_retention_days\`: raw source payloads older than this many days are redacted by the hourly retention run ` +
          `(the payload hash and the memories stay); ${PAYLOAD_RETENTION_DAYS_MIN}–${PAYLOAD_RETENTION_DAYS_MAX}, or null to keep them forever. ` +
          'A payload whose extraction job is still queued or running is kept until the job finishes.',
        requestBody: { required: true, content: { 'application/json': { schema: schema(updateTenantSettingsRequest, 'input') } } },
        responses: { '200': ok(envelope(tenantSettingsView)), ...tenantErrors },
      },
    },
    '/v1/tenant/domain-schema': {
      get: {
        operationId: 'getDomainSchema',
        summary: 'The tenant’s domain schema and the catalogue of schemas',
        description:
          'Available: `general` (General Engine, the default), `edtech` (EdTech Schema), `customer_support` (Customer Support Schema). ' +
          'Listed but not selectable: `hr_tech` and `healthtech` (announced), `agritech` (planned). See docs/domain-schemas.md.',
        responses: { '200': ok(envelope(tenantDomainSchemaView)), '401': tenantErrors['401'] },
      },
      patch: {
        operationId: 'setDomainSchema',
        summary: 'Switch the tenant’s domain schema (audited; memories are never rewritten)',
        description:
          'The request shape of add and retrieve never changes by schema; the schema adds domain context to retrieve’s ' +
          '`system_prompt_addition` and enables the domain endpoints (GET /v1/memories/edtech-profile for `edtech`; GET /v1/tenant/customers and /v1/tenant/support-stats for `customer_support`).',
        requestBody: { required: true, content: { 'application/json': { schema: schema(updateDomainSchemaRequest, 'input') } } },
        responses: {
          '200': ok(envelope(tenantDomainSchemaView)),
          ...tenantErrors,
          '422': problem('`validation_failed`: an announced or planned schema (the message names its status) or an unknown one.'),
        },
      },
    },
    '/v1/memories/edtech-profile': {
      get: {
        operationId: 'getEdtechProfile',
        summary: 'The structured student profile of a user (EdTech schema), with the memories behind each entry',
        description:
          'Built at read time from the user’s active memories (docs/domain-schemas.md, EdTech). ' +
          'Every entry lists the `memory_ids` it was read from and their `source_event_ids`.',
        parameters: queryParams(edtechProfileQuery),
        responses: {
          '200': ok(envelope(studentProfileView)),
          '401': tenantErrors['401'],
          '404': problem('The tenant never sent this `external_user_id`.'),
          '409': problem('`conflict`: the tenant’s domain schema is not `edtech`; enable it with PATCH /v1/tenant/domain-schema.'),
          '422': tenantErrors['422'],
        },
      },
    },
    '/v1/tenant/customers': {
      get: {
        operationId: 'listCustomers',
        summary: 'Customers (end users with conversations) with their support summary (Customer Support schema)',
        description:
          'Built at read time from the customers’ active memories and source events (docs/domain-schemas.md, Customer Support). ' +
          'Filters combine with AND; `sort` `last_contact` (default), `open_issues` or `sentiment`; keyset paging with `cursor` ' +
          '(a cursor is valid for the sort it was returned with); `total` counts the customers matching the filters.',
        parameters: queryParams(listCustomersQuery),
        responses: {
          '200': ok(envelope(customerListView)),
          '401': tenantErrors['401'],
          '409': problem('`conflict`: the tenant’s domain schema is not `customer_support`; enable it with PATCH /v1/tenant/domain-schema.'),
          '422': tenantErrors['422'],
        },
      },
    },
    '/v1/tenant/customers/{external_user_id}': {
      get: {
        operationId: 'getCustomerProfile',
        summary: 'One customer’s support profile: plan, products, environment, open and past issues, sentiment trend, channel, escalations',
        description:
          'Every entry lists the `memory_ids` it was read from and their `source_event_ids` (docs/domain-schemas.md, Customer Support). ' +
          'URL-encode the `external_user_id`.',
        parameters: [{ name: 'external_user_id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          '200': ok(envelope(customerProfileView)),
          '401': tenantErrors['401'],
          '404': problem('The tenant never sent this `external_user_id`.'),
          '409': problem('`conflict`: the tenant’s domain schema is not `customer_support`.'),
        },
      },
    },
    '/v1/tenant/support-stats': {
      get: {
        operationId: 'getSupportStats',
        summary: 'Support counts and trends over a window: conversations, issues opened and resolved, escalations, sentiment, channels, plans',
        description:
          '`window` (`1d`–`366d`, default `30d`, ending now) or `from` + optional `to`. `previous` holds the same totals for the ' +
          'window of equal length before, `series` per day (up to 92 days) or per week (UTC). docs/domain-schemas.md, Support stats.',
        parameters: queryParams(supportStatsQuery),
        responses: {
          '200': ok(envelope(supportStatsView)),
          '401': tenantErrors['401'],
          '409': problem('`conflict`: the tenant’s domain schema is not `customer_support`.'),
          '422': tenantErrors['422'],
        },
      },
    },
    '/v1/tenant/reviews': {
      get: {
        operationId: 'listReviews',
        summary: 'Conflicts between equally trusted claims, waiting for (or resolved by) a person',
        description: 'See docs/conflicts.md for the fields. Newest first; `limit` 1–100.',
        parameters: queryParams(listReviewsQuery),
        responses: { '200': { description: '`{ data: { items: Review[], limit, next_cursor } }`' }, ...tenantErrors },
      },
    },
    '/v1/tenant/reviews/{review_id}': {
      get: {
        operationId: 'getReview',
        summary: 'One review with both claims and their provenance',
        parameters: [{ name: 'review_id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
        responses: { '200': { description: '`{ data: Review }`' }, '401': tenantErrors['401'], '404': problem('No such review for this tenant.') },
      },
    },
    '/v1/tenant/reviews/{review_id}/resolve': {
      post: {
        operationId: 'resolveReview',
        summary: 'Keep one claim: it becomes active, the other is archived; both changes go to the ledger',
        parameters: [{ name: 'review_id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
        requestBody: { required: true, content: { 'application/json': { schema: schema(resolveReviewRequest, 'input') } } },
        responses: {
          '200': { description: '`{ data: Review }` (resolved)' },
          '401': tenantErrors['401'],
          '404': problem('No such review for this tenant.'),
          '409': problem('`conflict`: the review is already resolved.'),
          '422': problem('`chosen_memory_id` is not one of the two claims.'),
        },
      },
    },
    '/v1/admin/tenants/{tenant_id}/admins': {
      post: {
        operationId: 'createConsoleAdmin',
        summary: 'Create a console admin for a tenant (operator only); the admin signs in with an emailed code',
        security: [{ AdminToken: [] }],
        parameters: [{ name: 'tenant_id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
        requestBody: { required: true, content: { 'application/json': { schema: schema(createAdminRequest, 'input') } } },
        responses: {
          '201': { description: '`{ data: { admin_id, tenant_id, email } }`' },
          '401': problem('Wrong admin token.'),
          '404': problem('No admin token configured, or no such tenant.'),
          '409': problem('An admin with this email exists.'),
          '422': tenantErrors['422'],
        },
      },
    },
    ...passportPaths(),
    '/v1/health': {
      get: { operationId: 'health', summary: 'Liveness', security: [], responses: { '200': { description: '`{"status":"ok"}`' } } },
    },
    '/v1/health/ready': {
      get: {
        operationId: 'healthReady',
        summary: 'Readiness: the database, the job runner and the extraction backlog',
        description: 'See docs/operations.md. Not authenticated; reveals no tenant data.',
        security: [],
        responses: {
          '200': {
            description:
              '`{ status: "ready", database: { status, engine, latency_ms }, jobs: { mode, runner, backlog: { depth, oldest_wait_seconds, processing_status, processing_eta_seconds }, threads: { size, started, calls, failures } | null } }`',
          },
          '503': problem('`database_unavailable`: the database did not answer within 2 s; `database` and `jobs` as above (`backlog: null`).'),
        },
      },
    },
    ...universalPaths(),
  };
}

/** The universal (passport) store: agent key plus X-Service-UUI (docs/passport-universal.md). */
function universalPaths() {
  const security = [{ ApiKey: [], ServiceUui: [] }];
  const authErrors = {
    '401': problem('`unauthorized`: missing, unknown or revoked agent key; missing, unknown, expired or revoked `X-Service-UUI` token.'),
    '403': problem('`forbidden`: the `X-Service-UUI` token was issued to another agent.'),
  };
  return {
    '/v1/universal/memories/add': {
      post: {
        operationId: 'addUniversalMemories',
        summary: 'Queue universal extraction of a passport user’s conversation (read-write grant)',
        description:
          'Needs an active `read_write` grant of the passport user for this agent. The quality gate and secret redaction of ' +
          '`POST /v1/memories/add` apply and `status` means the same; a queued job writes only the universal store and only ' +
          'the categories in `categories`. `idempotency_key` in the body: the same key with the same messages and metadata ' +
          'replays the first response (same `job_id`, header `Idempotent-Replayed: true`); with other content it is 422 ' +
          '`idempotency_key_reused`. Poll the job at GET /v1/universal/memories/jobs/{job_id}.',
        security,
        requestBody: { required: true, content: { 'application/json': { schema: schema(universalAddRequest, 'input') } } },
        responses: {
          '200': ok(universalAddResponse, 'Accepted, passed through or blocked; `status` says which.'),
          '401': authErrors['401'],
          '403': problem(
            '`UAT_001` (`error: "no_grant_for_user"`): no active grant; `UAT_002` (`error: "write_not_permitted"`): the grant is read-only; ' +
              '`forbidden`: the token was issued to another agent.',
          ),
          '413': problem('Body larger than the limit.'),
          '422': problem('`validation_failed`, or `idempotency_key_reused`.'),
        },
      },
    },
    '/v1/universal/memories/jobs/{job_id}': {
      get: {
        operationId: 'getUniversalJob',
        summary: 'Poll a universal extraction job (only the agent that queued it, for the same passport user)',
        security,
        parameters: [{ name: 'job_id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
        responses: { '200': ok(envelope(universalJob)), ...authErrors, '404': problem('No such job for this agent and passport user.') },
      },
    },
    '/v1/universal/memories/retrieve': {
      post: {
        operationId: 'retrieveUniversalMemories',
        summary: 'Rank the passport user’s universal memories in the categories granted to this agent',
        description:
          'The fields of `POST /v1/memories/retrieve` plus `permission_error` and `categories_available`. Without an active grant ' +
          'the answer is 200 with empty `data` and `system_prompt_addition`, `permission_error: "no_grant_for_user"` and ' +
          '`categories_available: []`. `retrieval_id` is null (there is no universal retrieval feedback).',
        security,
        requestBody: { required: true, content: { 'application/json': { schema: schema(universalRetrieveRequest, 'input') } } },
        responses: { '200': ok(universalRetrieveResponse), ...authErrors, '422': tenantErrors['422'] },
      },
    },
  };
}

/** The memory passport (docs/passport.md). */
function passportPaths() {
  const idParam = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string', format: 'uuid' } });
  const body = (s: z.ZodType) => ({ required: true, content: { 'application/json': { schema: schema(s, 'input') } } });
  const sessionErrors = { '401': problem('Missing, unknown or expired passport session (code `unauthorized`, `WWW-Authenticate: Bearer`).') };
  const passport = [{ PassportSession: [] }];
  const codeSent = {
    '200': ok(envelope(passportCodeSent), 'The same answer whether or not the address has a passport.'),
    '422': tenantErrors['422'],
    '429': problem('`rate_limited`: 3 codes per address or 20 per client IP in 10 minutes; `Retry-After` says when.'),
    '503': problem('`service_unavailable`: no way to send mail is configured.'),
  };
  return {
    '/v1/agents/global': {
      post: {
        operationId: 'createGlobalAgent',
        summary: 'Create a global agent of the tenant; its key is shown once',
        description:
          '`name` is required; every other field is optional. `redirect_uri` defaults to `""` (the consent page says the connection is done); ' +
          'otherwise it must be an absolute https URL (http only for localhost) without a fragment, and the browser is sent to it exactly.',
        requestBody: body(createGlobalAgentRequest),
        responses: { '201': ok(envelope(globalAgentCreated), 'Created'), ...tenantErrors },
      },
    },
    '/v1/agents/global/{agent_id}': {
      get: {
        operationId: 'getGlobalAgent',
        summary: 'The public profile of a global agent (no tenant, no keys)',
        security: [],
        parameters: [idParam('agent_id')],
        responses: { '200': ok(envelope(globalAgentPublic)), '404': problem('No such agent.') },
      },
    },
    '/v1/admin/agents/{agent_id}/verify': {
      post: {
        operationId: 'verifyGlobalAgent',
        summary: 'Mark a global agent verified (operator only)',
        security: [{ AdminToken: [] }],
        parameters: [idParam('agent_id')],
        responses: {
          '200': ok(envelope(globalAgentPublic)),
          '401': problem('Wrong admin token.'),
          '404': problem('No admin token configured, or no such agent.'),
        },
      },
    },
    '/v1/tenant/memory-passport/link-token': {
      post: {
        operationId: 'createLinkToken',
        summary: 'A single-use consent link token for one of the tenant’s agents and one of its users',
        description:
          'Create it after the user signed in to your app, keep it in your backend session, and send the browser to ' +
          '`/connect?agent_id=<agent_id>&link_token=<link_token>`. It expires after `expires_in_seconds` (MEMORY_LINK_TOKEN_TTL_SECONDS, ' +
          'default 600) and works once. Another tenant’s agent is 404.',
        requestBody: body(createLinkTokenRequest),
        responses: { '201': ok(envelope(linkTokenCreated), 'Created'), ...tenantErrors, '404': problem('No such agent for this tenant.') },
      },
    },
    '/v1/agents/passport-token': {
      post: {
        operationId: 'exchangeLinkToken',
        summary: 'Exchange an approved link token for the user’s X-Service-UUI token (agent backend, once)',
        description:
          'After the user approved on the consent page, the agent’s backend sends the link token it already holds, with the agent key. ' +
          'The X-Service-UUI token is in this response once and never in a URL. Pending tokens answer 409 `link_token_pending` with `Retry-After`.',
        security: [{ AgentKey: [] }],
        requestBody: body(passportTokenRequest),
        responses: {
          '200': ok(envelope(passportTokenIssued)),
          '401': problem('Missing or unknown agent key (`unauthorized`).'),
          '403': problem('`link_token_declined`: the user declined (or disconnected before the exchange).'),
          '404': problem('`link_token_invalid`: unknown link token, or issued for another agent.'),
          '409': problem('`link_token_used`: already exchanged; `link_token_pending`: the user has not approved yet.'),
          '410': problem('`link_token_expired`.'),
          '422': tenantErrors['422'],
        },
      },
    },
    '/v1/uui/register': {
      post: {
        operationId: 'registerPassport',
        summary: 'Create a passport for the address (if it has none) and e-mail a sign-in code',
        security: [],
        requestBody: body(passportEmailRequest),
        responses: codeSent,
      },
    },
    '/v1/uui/otp/send': {
      post: {
        operationId: 'sendPassportCode',
        summary: 'E-mail a sign-in code (6 digits, 10 minutes, single use, 5 tries)',
        security: [],
        requestBody: body(passportEmailRequest),
        responses: codeSent,
      },
    },
    '/v1/uui/otp/verify': {
      post: {
        operationId: 'verifyPassportCode',
        summary: 'Check the code and return a passport session token (creates the passport at the first sign-in)',
        description: `The session ends after ${PASSPORT_SESSION_RULES.idleMs / 3_600_000} hours without use and ${PASSPORT_SESSION_RULES.absoluteMs / 86_400_000} days after sign-in.`,
        security: [],
        requestBody: body(passportVerifyRequest),
        responses: {
          '200': ok(envelope(passportSessionIssued)),
          '401': problem('Wrong, expired, used or locked code, or no code for the address (one message for all).'),
          '422': tenantErrors['422'],
        },
      },
    },
    '/v1/uui/me': {
      get: { operationId: 'getPassport', summary: 'The passport of the session', security: passport, responses: { '200': ok(envelope(passportMe)), ...sessionErrors } },
      delete: {
        operationId: 'deletePassport',
        summary: 'Erase the passport: universal memories, grants, connections, tokens, sessions and codes (audited without content)',
        security: passport,
        responses: { '200': ok(envelope(z.object({ id: z.string().uuid(), deleted: z.literal(true) }))), ...sessionErrors },
      },
    },
    '/v1/uui/me/grants': {
      get: { operationId: 'listGrants', summary: 'Active grants', security: passport, responses: { '200': ok(envelope(z.array(grantView))), ...sessionErrors } },
      post: {
        operationId: 'saveGrant',
        summary: 'Create (201) or replace (200) the grant for an agent',
        security: passport,
        requestBody: body(grantRequest),
        responses: {
          '200': ok(envelope(grantView), 'Updated'),
          '201': ok(envelope(grantView), 'Created'),
          ...sessionErrors,
          '404': problem('No such agent.'),
          '422': tenantErrors['422'],
        },
      },
    },
    '/v1/uui/me/grants/{grant_id}': {
      delete: {
        operationId: 'revokeGrant',
        summary: 'Revoke a grant at once',
        security: passport,
        parameters: [idParam('grant_id')],
        responses: {
          '200': ok(envelope(z.object({ id: z.string().uuid(), status: z.literal('revoked') }))),
          ...sessionErrors,
          '404': problem('No such grant of this passport.'),
        },
      },
    },
    '/v1/uui/organisations': {
      get: {
        operationId: 'listOrganisations',
        summary: 'The public directory of listed agents, verified first',
        security: [],
        parameters: queryParams(directoryQuery),
        responses: {
          '200': ok(envelope(z.object({ items: z.array(globalAgentPublic), limit: z.number().int(), next_cursor: z.string().nullable() }))),
          '422': tenantErrors['422'],
        },
      },
    },
    '/v1/uui/me/connections': {
      get: {
        operationId: 'listConnections',
        summary: 'Services linked to this passport',
        security: passport,
        responses: { '200': ok(envelope(z.array(connectionView))), ...sessionErrors },
      },
    },
    '/v1/uui/me/connections/{connection_id}': {
      delete: {
        operationId: 'disconnectService',
        summary: 'Disconnect a service: its X-Service-UUI tokens stop working at once (the grant stays until revoked)',
        security: passport,
        parameters: [idParam('connection_id')],
        responses: {
          '200': ok(envelope(z.object({ id: z.string().uuid(), disconnected: z.literal(true) }))),
          ...sessionErrors,
          '404': problem('No such connection of this passport.'),
        },
      },
    },
    '/v1/uui/me/questions': {
      get: {
        operationId: 'listPassportQuestions',
        summary: 'Pending questions: conflicting universal memories only the user can settle, oldest first',
        description: 'Each question has two `options` (the conflicting claims); while it is open, neither claim is retrieved by any agent.',
        security: passport,
        responses: { '200': ok(envelope(z.array(passportQuestion))), ...sessionErrors },
      },
    },
    '/v1/uui/me/questions/{review_id}/resolve': {
      post: {
        operationId: 'resolvePassportQuestion',
        summary: 'Answer a pending question: keep one option, archive the other',
        security: passport,
        parameters: [idParam('review_id')],
        requestBody: body(resolvePassportQuestionRequest),
        responses: {
          '200': ok(envelope(resolvedPassportQuestion)),
          ...sessionErrors,
          '404': problem('No such question of this passport.'),
          '409': problem('`conflict`: the question has already been answered.'),
          '422': problem('`validation_failed`: `keep_memory_id` is missing or is not one of the options.'),
        },
      },
    },
  };
}

const endpointIdParam = { name: 'endpoint_id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };
const webhookNotFound = problem('No such endpoint (or delivery) for this tenant; another tenant’s is 404 too.');

/** The tenant's webhook endpoints and delivery log (docs/webhooks.md). */
function webhookPaths() {
  const catalogue = WEBHOOK_EVENT_TYPES.map((t) => `\`${t}\`: ${WEBHOOK_EVENT_DESCRIPTIONS[t]}`).join(' ');
  return {
    '/v1/tenant/webhooks': {
      post: {
        operationId: 'createWebhookEndpoint',
        summary: 'Register a webhook endpoint for chosen event types; the signing secret is shown once',
        description:
          'Deliveries follow Standard Webhooks: headers `webhook-id`, `webhook-timestamp`, `webhook-signature` ' +
          '(`v1,<base64 HMAC-SHA256 of id.timestamp.body>` with the `whsec_` secret). Verify with `verifyWebhook` from `@memory/sdk`. ' +
          'Without MEMORY_WEBHOOKS_ALLOW_PRIVATE the URL must be https:// on an allowed port (MEMORY_WEBHOOKS_ALLOWED_PORTS, default 443) and must not point to a private, loopback or link-local address, also through what its host name resolves to (checked at registration and at each delivery). ' +
          `Event types: ${catalogue}`,
        requestBody: { required: true, content: { 'application/json': { schema: schema(createWebhookEndpointRequest, 'input') } } },
        responses: {
          '201': ok(envelope(webhookEndpointWithSecret), 'Created'),
          ...tenantErrors,
          '409': problem('`conflict`: the tenant has the maximum number of endpoints.'),
        },
      },
      get: {
        operationId: 'listWebhookEndpoints',
        summary: 'List the tenant’s webhook endpoints (never the secrets)',
        responses: { '200': ok(envelope(z.array(webhookEndpointView))), '401': tenantErrors['401'] },
      },
    },
    '/v1/tenant/webhooks/{endpoint_id}': {
      get: {
        operationId: 'getWebhookEndpoint',
        summary: 'One webhook endpoint',
        parameters: [endpointIdParam],
        responses: { '200': ok(envelope(webhookEndpointView)), '401': tenantErrors['401'], '404': webhookNotFound },
      },
      patch: {
        operationId: 'updateWebhookEndpoint',
        summary: 'Change the URL, description or event types; `enabled` disables or re-enables the endpoint',
        description: 'Re-enabling clears the failure count. Deliveries that came due while the endpoint was disabled are not sent; resend them.',
        parameters: [endpointIdParam],
        requestBody: { required: true, content: { 'application/json': { schema: schema(updateWebhookEndpointRequest, 'input') } } },
        responses: { '200': ok(envelope(webhookEndpointView)), ...tenantErrors, '404': webhookNotFound },
      },
      delete: {
        operationId: 'deleteWebhookEndpoint',
        summary: 'Delete the endpoint and its delivery log',
        parameters: [endpointIdParam],
        responses: {
          '200': ok(envelope(z.object({ id: z.string().uuid(), deleted: z.literal(true) }))),
          '401': tenantErrors['401'],
          '404': webhookNotFound,
        },
      },
    },
    '/v1/tenant/webhooks/{endpoint_id}/rotate-secret': {
      post: {
        operationId: 'rotateWebhookSecret',
        summary: 'Replace the signing secret; the new one is shown once, the old one keeps signing during the overlap window',
        description:
          'For MEMORY_WEBHOOK_ROTATION_OVERLAP_HOURS (default 24) every delivery carries two signatures, ' +
          'one per secret (`previous_secret_expires_at` says until when).',
        parameters: [endpointIdParam],
        responses: { '200': ok(envelope(webhookEndpointWithSecret)), '401': tenantErrors['401'], '404': webhookNotFound },
      },
    },
    '/v1/tenant/webhooks/{endpoint_id}/deliveries': {
      get: {
        operationId: 'listWebhookDeliveries',
        summary: 'The endpoint’s delivery log, newest first: status, attempts, response codes, payload',
        description: `\`limit\` 1–${WEBHOOK_DELIVERIES_LIMIT_MAX} (default 20); pass \`next_cursor\` back as \`cursor\` for the next page.`,
        parameters: [endpointIdParam, ...queryParams(listWebhookDeliveriesQuery)],
        responses: { '200': ok(envelope(webhookDeliveryPage)), ...tenantErrors, '404': webhookNotFound },
      },
    },
    '/v1/tenant/webhooks/{endpoint_id}/deliveries/{delivery_id}/resend': {
      post: {
        operationId: 'resendWebhookDelivery',
        summary: 'Send a delivery’s event again, as a new delivery with the same `webhook-id`',
        parameters: [endpointIdParam, { name: 'delivery_id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
        responses: {
          '202': ok(envelope(webhookDeliveryView), 'Accepted: the new delivery, pending'),
          '401': tenantErrors['401'],
          '404': webhookNotFound,
          '409': problem('`conflict`: the endpoint is disabled; enable it first.'),
        },
      },
    },
  };
}
