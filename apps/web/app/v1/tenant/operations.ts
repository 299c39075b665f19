/**
 * The tenant's own operations (routes below this folder; webhooks in webhooks/operations.ts): service writers,
 * API keys, source events, usage, settings, the domain schema and its support endpoints, reviews, link tokens.
 * lib/openapi.ts assembles them into the document.
 */
import {
  PAYLOAD_RETENTION_DAYS_MAX,
  PAYLOAD_RETENTION_DAYS_MIN,
  SOURCE_EVENTS_LIMIT_MAX,
  apiKeyCreated,
  apiKeyView,
  createApiKeyRequest,
  createLinkTokenRequest,
  createServiceWriterRequest,
  customerListView,
  customerProfileView,
  envelope,
  linkTokenCreated,
  listCustomersQuery,
  listReviewsQuery,
  listSourceEventsQuery,
  resolveReviewRequest,
  reviewPage,
  reviewView,
  serviceWriterView,
  sourceEventPage,
  supportStatsQuery,
  supportStatsView,
  tenantDomainSchemaView,
  tenantSettingsView,
  updateDomainSchemaRequest,
  updateTenantSettingsRequest,
  usageReport,
} from '@memory/core';
import { z } from 'zod';
import { defineOperation, ok, problem, tenantErrors } from '@/lib/operation';

const noSuchReview = problem('No such review for this tenant.');
const notCustomerSupport = problem('`conflict`: the tenant’s domain schema is not `customer_support`.');

export const createServiceWriter = defineOperation({
  method: 'post',
  path: '/v1/tenant/service-writers',
  operationId: 'createServiceWriter',
  summary: 'Register a service writer (a backend service that writes user facts)',
  description:
    'Priorities are integers 0–1000; higher wins a conflict. `categories` keys must be memory categories. ' +
    'Bind `api_key_id` to require that key on adds whose `source.service` is this writer (PROV_403 otherwise).',
  body: createServiceWriterRequest,
  responses: {
    '201': ok(envelope(serviceWriterView), 'Created'),
    '401': tenantErrors['401'],
    '409': problem('`PROV_409`: this service_key exists already.'),
    '422': problem('`PROV_422`: invalid writer; `errors[]` names each field.'),
  },
});

export const listServiceWriters = defineOperation({
  method: 'get',
  path: '/v1/tenant/service-writers',
  operationId: 'listServiceWriters',
  summary: 'List the tenant’s service writers',
  responses: { '200': ok(envelope(z.array(serviceWriterView))), '401': tenantErrors['401'] },
});

export const createApiKey = defineOperation({
  method: 'post',
  path: '/v1/tenant/api-keys',
  operationId: 'createApiKey',
  summary: 'Create another API key (e.g. one per service); the key is shown once',
  body: createApiKeyRequest,
  responses: { '201': ok(envelope(apiKeyCreated), 'Created'), ...tenantErrors },
});

export const listApiKeys = defineOperation({
  method: 'get',
  path: '/v1/tenant/api-keys',
  operationId: 'listApiKeys',
  summary: 'List the tenant’s API keys (never the secrets)',
  responses: { '200': ok(envelope(z.array(apiKeyView))), '401': tenantErrors['401'] },
});

export const revokeApiKey = defineOperation({
  method: 'delete',
  path: '/v1/tenant/api-keys/{key_id}',
  operationId: 'revokeApiKey',
  summary: 'Revoke an API key (effective at once in this process, within 10 s everywhere)',
  responses: {
    '200': ok(envelope(apiKeyView)),
    '401': tenantErrors['401'],
    '404': problem('No such key for this tenant.'),
    '422': problem('A key cannot revoke itself.'),
  },
});

export const listSourceEvents = defineOperation({
  method: 'get',
  path: '/v1/tenant/source-events',
  operationId: 'listSourceEvents',
  summary: 'List source events with payload hashes, linked jobs, evidence and scope, newest first',
  description: `\`limit\` 1–${SOURCE_EVENTS_LIMIT_MAX} (default 20); pass \`next_cursor\` back as \`cursor\` for the next page.`,
  query: listSourceEventsQuery,
  responses: { '200': ok(envelope(sourceEventPage)), ...tenantErrors },
});

export const getTenantUsage = defineOperation({
  method: 'get',
  path: '/v1/tenant/usage',
  operationId: 'getTenantUsage',
  summary: 'The tenant’s plan, period, usage per unit, remaining budget, quota mode and thresholds',
  description: 'Budgets are per monthly period from the plan’s anchor; see docs/quotas.md for plans, thresholds and rate limits.',
  responses: { '200': ok(envelope(usageReport)), '401': tenantErrors['401'] },
});

export const getTenantSettings = defineOperation({
  method: 'get',
  path: '/v1/tenant/settings',
  operationId: 'getTenantSettings',
  summary: 'The tenant’s settings (payload retention window, review before write)',
  responses: { '200': ok(envelope(tenantSettingsView)), '401': tenantErrors['401'] },
});

export const updateTenantSettings = defineOperation({
  method: 'patch',
  path: '/v1/tenant/settings',
  operationId: 'updateTenantSettings',
  summary: 'Change tenant settings',
  description:
    `\`payload_retention_days\`: raw source payloads older than this many days are redacted by the hourly retention run ` +
    `(the payload hash and the memories stay); ${PAYLOAD_RETENTION_DAYS_MIN}–${PAYLOAD_RETENTION_DAYS_MAX}, or null to keep them forever. ` +
    'A payload whose extraction job is still queued or running is kept until the job finishes. ' +
    '`review_before_write`: `{ categories, below_authority }` holds new memories of those categories, or from writers whose ' +
    'authority for the memory’s category is below `below_authority`, as `pending` until an admin decides their review; ' +
    'null turns it off (docs/review-before-write.md). Each change is audited.',
  body: updateTenantSettingsRequest,
  responses: { '200': ok(envelope(tenantSettingsView)), ...tenantErrors },
});

export const getDomainSchema = defineOperation({
  method: 'get',
  path: '/v1/tenant/domain-schema',
  operationId: 'getDomainSchema',
  summary: 'The tenant’s domain schema and the catalogue of schemas',
  description:
    'Available: `general` (General Engine, the default), `edtech` (EdTech Schema), `customer_support` (Customer Support Schema). ' +
    'Listed but not selectable: `hr_tech` and `healthtech` (announced), `agritech` (planned). See docs/domain-schemas.md.',
  responses: { '200': ok(envelope(tenantDomainSchemaView)), '401': tenantErrors['401'] },
});

export const setDomainSchema = defineOperation({
  method: 'patch',
  path: '/v1/tenant/domain-schema',
  operationId: 'setDomainSchema',
  summary: 'Switch the tenant’s domain schema (audited; memories are never rewritten)',
  description:
    'The request shape of add and retrieve never changes by schema; the schema adds domain context to retrieve’s ' +
    '`system_prompt_addition` and enables the domain endpoints (GET /v1/memories/edtech-profile for `edtech`; GET /v1/tenant/customers and /v1/tenant/support-stats for `customer_support`).',
  body: updateDomainSchemaRequest,
  responses: {
    '200': ok(envelope(tenantDomainSchemaView)),
    ...tenantErrors,
    '422': problem('`validation_failed`: an announced or planned schema (the message names its status) or an unknown one.'),
  },
});

export const listCustomers = defineOperation({
  method: 'get',
  path: '/v1/tenant/customers',
  operationId: 'listCustomers',
  summary: 'Customers (end users with conversations) with their support summary (Customer Support schema)',
  description:
    'Built at read time from the customers’ active memories and source events (docs/domain-schemas.md, Customer Support). ' +
    'Filters combine with AND; `sort` `last_contact` (default), `open_issues` or `sentiment`; keyset paging with `cursor` ' +
    '(a cursor is valid for the sort it was returned with); `total` counts the customers matching the filters.',
  query: listCustomersQuery,
  responses: {
    '200': ok(envelope(customerListView)),
    '401': tenantErrors['401'],
    '409': problem('`conflict`: the tenant’s domain schema is not `customer_support`; enable it with PATCH /v1/tenant/domain-schema.'),
    '422': tenantErrors['422'],
  },
});

export const getCustomerProfile = defineOperation({
  method: 'get',
  path: '/v1/tenant/customers/{external_user_id}',
  operationId: 'getCustomerProfile',
  summary: 'One customer’s support profile: plan, products, environment, open and past issues, sentiment trend, channel, escalations',
  description:
    'Every entry lists the `memory_ids` it was read from and their `source_event_ids` (docs/domain-schemas.md, Customer Support). ' +
    'URL-encode the `external_user_id`.',
  pathTypes: { external_user_id: 'text' },
  responses: {
    '200': ok(envelope(customerProfileView)),
    '401': tenantErrors['401'],
    '404': problem('The tenant never sent this `external_user_id`.'),
    '409': notCustomerSupport,
  },
});

export const getSupportStats = defineOperation({
  method: 'get',
  path: '/v1/tenant/support-stats',
  operationId: 'getSupportStats',
  summary: 'Support counts and trends over a window: conversations, issues opened and resolved, escalations, sentiment, channels, plans',
  description:
    '`window` (`1d`–`366d`, default `30d`, ending now) or `from` + optional `to`. `previous` holds the same totals for the ' +
    'window of equal length before, `series` per day (up to 92 days) or per week (UTC). docs/domain-schemas.md, Support stats.',
  query: supportStatsQuery,
  responses: { '200': ok(envelope(supportStatsView)), '401': tenantErrors['401'], '409': notCustomerSupport, '422': tenantErrors['422'] },
});

export const listReviews = defineOperation({
  method: 'get',
  path: '/v1/tenant/reviews',
  operationId: 'listReviews',
  summary: 'Conflicts between equally trusted claims, and memories held before write, waiting for (or decided by) a person',
  description:
    'See docs/conflicts.md for the fields and docs/review-before-write.md for `kind: pending_write`. Newest first; `limit` 1–100; ' +
    '`kind` filters `conflict` or `pending_write`.',
  query: listReviewsQuery,
  responses: { '200': ok(envelope(reviewPage)), ...tenantErrors },
});

export const getReview = defineOperation({
  method: 'get',
  path: '/v1/tenant/reviews/{review_id}',
  operationId: 'getReview',
  summary: 'One review with both claims and their provenance',
  responses: { '200': ok(envelope(reviewView)), '401': tenantErrors['401'], '404': noSuchReview },
});

export const resolveReview = defineOperation({
  method: 'post',
  path: '/v1/tenant/reviews/{review_id}/resolve',
  operationId: 'resolveReview',
  summary: 'Decide a review: keep one claim of a conflict, or approve (optionally edited) or reject a held memory',
  description:
    'A `conflict` review takes `chosen_memory_id`: that claim becomes active, the other is archived. A `pending_write` review ' +
    'takes `action`: `approve` writes the held memory (with `content`, as edited; the ledger keeps both) and then applies the ' +
    'conflict rules; `reject` discards it (archived, kept in the ledger). See docs/review-before-write.md.',
  body: resolveReviewRequest,
  responses: {
    '200': ok(envelope(reviewView), 'The review, resolved'),
    '401': tenantErrors['401'],
    '404': noSuchReview,
    '409': problem('`conflict`: the review is already resolved, or the held memory is no longer pending.'),
    '422': problem('`chosen_memory_id` is not one of the two claims, or the body does not fit the review’s kind.'),
  },
});

export const createLinkToken = defineOperation({
  method: 'post',
  path: '/v1/tenant/memory-passport/link-token',
  operationId: 'createLinkToken',
  summary: 'A single-use consent link token for one of the tenant’s agents and one of its users',
  description:
    'Create it after the user signed in to your app, keep it in your backend session, and send the browser to ' +
    '`/connect?agent_id=<agent_id>&link_token=<link_token>`. It expires after `expires_in_seconds` (MEMORY_LINK_TOKEN_TTL_SECONDS, ' +
    'default 600) and works once. Another tenant’s agent is 404.',
  body: createLinkTokenRequest,
  responses: { '201': ok(envelope(linkTokenCreated), 'Created'), ...tenantErrors, '404': problem('No such agent for this tenant.') },
});
