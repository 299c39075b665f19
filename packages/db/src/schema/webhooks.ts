/** Webhooks (issue 7, docs/webhooks.md): tenant endpoints, the event outbox and one delivery per (endpoint, event). */
import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { oneOf, tstz } from './columns';
import {
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_DISABLED_REASONS,
  WEBHOOK_ENDPOINT_STATUSES,
  type WebhookDeliveryStatus,
  type WebhookDisabledReason,
  type WebhookEndpointStatus,
} from './enums';
import { tenantRef } from './tenants';

/** An HTTPS (or, when the operator allows it, private) URL a tenant registered for chosen event types. */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey(),
    tenantId: tenantRef(),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    /** The event types it receives, e.g. `["memory.created","job.completed"]`. */
    eventTypes: jsonb('event_types').notNull().default(sql`'[]'::jsonb`),
    status: text('status').$type<WebhookEndpointStatus>().notNull().default('enabled'),
    /** Why it is disabled: `manual`, `gone` (the receiver answered 410) or `failing` (persistent failure). */
    disabledReason: text('disabled_reason').$type<WebhookDisabledReason>(),
    /**
     * The signing secret (`whsec_…`), AES-256-GCM encrypted with a key derived from MEMORY_WEBHOOK_SECRET_KEY:
     * HMAC needs the secret itself, so it cannot be hashed. `iv.tag.ciphertext`, base64url.
     */
    secretCiphertext: text('secret_ciphertext').notNull(),
    /** After a rotation: the previous secret, which also signs until `previous_secret_expires_at`. */
    previousSecretCiphertext: text('previous_secret_ciphertext'),
    previousSecretExpiresAt: tstz('previous_secret_expires_at'),
    /** Display only: `whsec_` and the first four characters after it. */
    secretPrefix: text('secret_prefix').notNull(),
    /** Deliveries that ended without success in a row, and when the first of them was created (auto-disable). */
    consecutiveFailures: integer('consecutive_failures').notNull().default(0),
    failingSince: tstz('failing_since'),
    createdAt: tstz('created_at').notNull().defaultNow(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('webhook_endpoints_tenant_idx').on(t.tenantId, t.status),
    check('webhook_endpoints_status_check', oneOf(t.status, WEBHOOK_ENDPOINT_STATUSES)),
    check('webhook_endpoints_disabled_reason_check', oneOf(t.disabledReason, WEBHOOK_DISABLED_REASONS)),
  ],
);

/** The outbox: one row per event, written in the transaction of the change it reports. */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    /** Also the `webhook-id` of every delivery of the event (`msg_` + this id without dashes). */
    id: uuid('id').primaryKey(),
    tenantId: tenantRef(),
    type: text('type').notNull(),
    /** The exact JSON body sent: `{ type, timestamp, data }`. Ids and counts, never memory content. */
    payload: jsonb('payload').notNull(),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [index('webhook_events_tenant_idx').on(t.tenantId, t.createdAt)],
);

/** One event to one endpoint: its state, attempts and the outcome of the last attempt. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey(),
    tenantId: tenantRef(),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    eventId: uuid('event_id')
      .notNull()
      .references(() => webhookEvents.id, { onDelete: 'cascade' }),
    eventType: text('event_type').notNull(),
    status: text('status').$type<WebhookDeliveryStatus>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: tstz('next_attempt_at').notNull().defaultNow(),
    leaseUntil: tstz('lease_until'),
    /** Inngest mode: when the delivery was handed to the `memory-webhook-delivery` function. */
    dispatchedAt: tstz('dispatched_at'),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    lastAttemptAt: tstz('last_attempt_at'),
    /** Every attempt: `[{ at, status_code, error, duration_ms }]` (no bodies). */
    attemptLog: jsonb('attempt_log').notNull().default(sql`'[]'::jsonb`),
    /** The delivery this one re-sends (POST …/resend), if any. */
    resendOf: uuid('resend_of'),
    createdAt: tstz('created_at').notNull().defaultNow(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
    finishedAt: tstz('finished_at'),
  },
  (t) => [
    index('webhook_deliveries_due_idx').on(t.status, t.nextAttemptAt),
    index('webhook_deliveries_endpoint_idx').on(t.tenantId, t.endpointId, t.createdAt),
    check('webhook_deliveries_status_check', oneOf(t.status, WEBHOOK_DELIVERY_STATUSES)),
  ],
);
