import { z } from 'zod';

/** The webhook event types a tenant can subscribe to (descriptions: webhooks/catalogue.ts). */
export const WEBHOOK_EVENT_TYPES = [
  'job.completed',
  'job.failed',
  'memory.created',
  'memory.updated',
  'memory.archived',
  'memory.pending',
  'memory.approved',
  'memory.rejected',
  'review.created',
  'review.resolved',
  'grant.created',
  'grant.revoked',
  'quota.mode_changed',
  'user.erased',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const WEBHOOK_DELIVERIES_LIMIT_MAX = 100;

const eventTypes = z
  .array(z.enum(WEBHOOK_EVENT_TYPES))
  .min(1, 'choose at least one event type')
  .max(WEBHOOK_EVENT_TYPES.length)
  .transform((list) => [...new Set(list)]);

const url = z.string().trim().min(1).max(2048);

export const createWebhookEndpointRequest = z
  .object({ url, description: z.string().trim().max(500).default(''), event_types: eventTypes })
  .strict()
  .meta({ id: 'CreateWebhookEndpointRequest' });

export const updateWebhookEndpointRequest = z
  .object({
    url: url.optional(),
    description: z.string().trim().max(500).optional(),
    event_types: eventTypes.optional(),
    /** false disables the endpoint; true enables it again and clears its failure count. */
    enabled: z.boolean().optional(),
  })
  .strict()
  .meta({ id: 'UpdateWebhookEndpointRequest' });

export const webhookEndpointView = z
  .object({
    id: z.string().uuid(),
    url: z.string(),
    description: z.string(),
    event_types: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
    status: z.enum(['enabled', 'disabled']),
    disabled_reason: z.enum(['manual', 'gone', 'failing']).nullable(),
    secret_prefix: z.string().describe('`whsec_` and the first four characters; the secret itself is shown once'),
    previous_secret_expires_at: z.string().datetime().nullable().describe('while set and in the future, the previous secret also signs'),
    consecutive_failures: z.number().int(),
    created_at: z.string().datetime(),
    updated_at: z.string().datetime(),
  })
  .meta({ id: 'WebhookEndpoint' });

export const webhookEndpointWithSecret = webhookEndpointView
  .extend({ secret: z.string().describe('the signing secret (`whsec_…`), shown only in this response') })
  .meta({ id: 'WebhookEndpointWithSecret' });

export const listWebhookDeliveriesQuery = z.object({
  status: z.enum(['pending', 'sending', 'succeeded', 'failed']).optional(),
  limit: z.coerce.number().int().min(1).max(WEBHOOK_DELIVERIES_LIMIT_MAX).default(20),
  cursor: z.string().max(512).optional(),
});

export const webhookAttemptView = z.object({
  at: z.string().datetime(),
  status_code: z.number().int().nullable(),
  error: z.string().nullable(),
  duration_ms: z.number().int(),
});

export const webhookDeliveryView = z
  .object({
    id: z.string().uuid(),
    endpoint_id: z.string().uuid(),
    webhook_id: z.string().describe('the `webhook-id` header: the same for every attempt and resend of one event'),
    event_type: z.enum(WEBHOOK_EVENT_TYPES),
    status: z.enum(['pending', 'sending', 'succeeded', 'failed']),
    attempts: z.number().int(),
    max_attempts: z.number().int(),
    next_attempt_at: z.string().datetime().nullable(),
    last_status_code: z.number().int().nullable(),
    last_error: z.string().nullable(),
    last_attempt_at: z.string().datetime().nullable(),
    attempt_log: z.array(webhookAttemptView),
    resend_of: z.string().uuid().nullable(),
    payload: z.record(z.string(), z.unknown()).describe('the JSON body sent: `{ type, timestamp, data }`'),
    created_at: z.string().datetime(),
    finished_at: z.string().datetime().nullable(),
  })
  .meta({ id: 'WebhookDelivery' });

export const webhookDeliveryPage = z
  .object({ items: z.array(webhookDeliveryView), limit: z.number().int(), next_cursor: z.string().nullable() })
  .meta({ id: 'WebhookDeliveryPage' });

export type WebhookEndpointView = z.output<typeof webhookEndpointView>;
export type WebhookDeliveryView = z.output<typeof webhookDeliveryView>;
