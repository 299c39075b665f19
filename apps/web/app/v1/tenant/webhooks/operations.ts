/** The tenant's webhook endpoints and delivery log (docs/webhooks.md; routes below this folder). */
import {
  WEBHOOK_DELIVERIES_LIMIT_MAX,
  WEBHOOK_EVENT_DESCRIPTIONS,
  WEBHOOK_EVENT_TYPES,
  createWebhookEndpointRequest,
  envelope,
  listWebhookDeliveriesQuery,
  resourceDeleted,
  updateWebhookEndpointRequest,
  webhookDeliveryPage,
  webhookDeliveryView,
  webhookEndpointView,
  webhookEndpointWithSecret,
} from '@memory/core';
import { z } from 'zod';
import { defineOperation, ok, problem, tenantErrors } from '@/lib/operation';

const notFound = problem('No such endpoint (or delivery) for this tenant; another tenant’s is 404 too.');
const catalogue = WEBHOOK_EVENT_TYPES.map((t) => `\`${t}\`: ${WEBHOOK_EVENT_DESCRIPTIONS[t]}`).join(' ');

export const createWebhookEndpoint = defineOperation({
  method: 'post',
  path: '/v1/tenant/webhooks',
  operationId: 'createWebhookEndpoint',
  summary: 'Register a webhook endpoint for chosen event types; the signing secret is shown once',
  description:
    'Deliveries follow Standard Webhooks: headers `webhook-id`, `webhook-timestamp`, `webhook-signature` ' +
    '(`v1,<base64 HMAC-SHA256 of id.timestamp.body>` with the `whsec_` secret). Verify with `verifyWebhook` from `@memory/sdk`. ' +
    'Without MEMORY_WEBHOOKS_ALLOW_PRIVATE the URL must be https:// on an allowed port (MEMORY_WEBHOOKS_ALLOWED_PORTS, default 443) and must not point to a private, loopback or link-local address, also through what its host name resolves to (checked at registration and at each delivery). ' +
    `Event types: ${catalogue}`,
  body: createWebhookEndpointRequest,
  responses: {
    '201': ok(envelope(webhookEndpointWithSecret), 'Created'),
    ...tenantErrors,
    '409': problem('`conflict`: the tenant has the maximum number of endpoints.'),
  },
});

export const listWebhookEndpoints = defineOperation({
  method: 'get',
  path: '/v1/tenant/webhooks',
  operationId: 'listWebhookEndpoints',
  summary: 'List the tenant’s webhook endpoints (never the secrets)',
  responses: { '200': ok(envelope(z.array(webhookEndpointView))), '401': tenantErrors['401'] },
});

export const getWebhookEndpoint = defineOperation({
  method: 'get',
  path: '/v1/tenant/webhooks/{endpoint_id}',
  operationId: 'getWebhookEndpoint',
  summary: 'One webhook endpoint',
  responses: { '200': ok(envelope(webhookEndpointView)), '401': tenantErrors['401'], '404': notFound },
});

export const updateWebhookEndpoint = defineOperation({
  method: 'patch',
  path: '/v1/tenant/webhooks/{endpoint_id}',
  operationId: 'updateWebhookEndpoint',
  summary: 'Change the URL, description or event types; `enabled` disables or re-enables the endpoint',
  description: 'Re-enabling clears the failure count. Deliveries that came due while the endpoint was disabled are not sent; resend them.',
  body: updateWebhookEndpointRequest,
  responses: { '200': ok(envelope(webhookEndpointView)), ...tenantErrors, '404': notFound },
});

export const deleteWebhookEndpoint = defineOperation({
  method: 'delete',
  path: '/v1/tenant/webhooks/{endpoint_id}',
  operationId: 'deleteWebhookEndpoint',
  summary: 'Delete the endpoint and its delivery log',
  responses: { '200': ok(envelope(resourceDeleted)), '401': tenantErrors['401'], '404': notFound },
});

export const rotateWebhookSecret = defineOperation({
  method: 'post',
  path: '/v1/tenant/webhooks/{endpoint_id}/rotate-secret',
  operationId: 'rotateWebhookSecret',
  summary: 'Replace the signing secret; the new one is shown once, the old one keeps signing during the overlap window',
  description:
    'For MEMORY_WEBHOOK_ROTATION_OVERLAP_HOURS (default 24) every delivery carries two signatures, ' +
    'one per secret (`previous_secret_expires_at` says until when).',
  responses: { '200': ok(envelope(webhookEndpointWithSecret)), '401': tenantErrors['401'], '404': notFound },
});

export const listWebhookDeliveries = defineOperation({
  method: 'get',
  path: '/v1/tenant/webhooks/{endpoint_id}/deliveries',
  operationId: 'listWebhookDeliveries',
  summary: 'The endpoint’s delivery log, newest first: status, attempts, response codes, payload',
  description: `\`limit\` 1–${WEBHOOK_DELIVERIES_LIMIT_MAX} (default 20); pass \`next_cursor\` back as \`cursor\` for the next page.`,
  query: listWebhookDeliveriesQuery,
  responses: { '200': ok(envelope(webhookDeliveryPage)), ...tenantErrors, '404': notFound },
});

export const resendWebhookDelivery = defineOperation({
  method: 'post',
  path: '/v1/tenant/webhooks/{endpoint_id}/deliveries/{delivery_id}/resend',
  operationId: 'resendWebhookDelivery',
  summary: 'Send a delivery’s event again, as a new delivery with the same `webhook-id`',
  responses: {
    '202': ok(envelope(webhookDeliveryView), 'Accepted: the new delivery, pending'),
    '401': tenantErrors['401'],
    '404': notFound,
    '409': problem('`conflict`: the endpoint is disabled; enable it first.'),
  },
});
