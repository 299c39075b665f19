/**
 * Response shapes of the /v1 API that no domain module returns as a named view: the success envelope
 * (`respond()` in apps/web/lib/http.ts writes it), the acknowledgements of deletes and revocations, and the
 * pages around views declared elsewhere. The OpenAPI document generates their JSON Schema from here.
 */
import { z } from 'zod';
import { globalAgentPublic } from './passport';
import { apiKeyView, reviewView, sourceEventView } from './provenance';

/** The success envelope of the spec: `{ data, request_id, timestamp }`. */
export const envelope = <T extends z.ZodType>(data: T) =>
  z.object({ data, request_id: z.string().uuid(), timestamp: z.string().datetime() });

/** A cursor page: `items`, the `limit` applied and the cursor of the next page (null on the last). */
const page = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), limit: z.number().int(), next_cursor: z.string().nullable() });

/** DELETE /v1/memories/{memory_id}: the memory is archived, not erased. */
export const memoryDeleted = z.object({ id: z.string().uuid(), status: z.literal('archived'), deleted: z.literal(true) });

/** DELETE of a webhook endpoint or of the passport: gone for good. */
export const resourceDeleted = z.object({ id: z.string().uuid(), deleted: z.literal(true) });

/** POST /v1/tenant/api-keys: the key's view with the secret, shown this once. */
export const apiKeyCreated = apiKeyView.extend({ api_key: z.string() });

/** GET /v1/tenant/source-events. */
export const sourceEventPage = page(sourceEventView);

/** DELETE /v1/uui/me/grants/{grant_id}. */
export const grantRevoked = z.object({ id: z.string().uuid(), status: z.literal('revoked') });

/** DELETE /v1/uui/me/connections/{connection_id}. */
export const connectionDisconnected = z.object({ id: z.string().uuid(), disconnected: z.literal(true) });

/** GET /v1/uui/organisations: the public directory. */
export const directoryPage = page(globalAgentPublic);

/** GET /v1/tenant/reviews. */
export const reviewPage = page(reviewView);

/** GET /v1/health: liveness, no dependency checked. */
export const liveness = z.object({ status: z.literal('ok') });

/** GET /v1/health/ready (200): the database, the job runner, the extraction backlog and the extraction threads. */
export const readiness = z
  .object({
    status: z.enum(['ready', 'not_ready']),
    database: z.object({ status: z.enum(['ok', 'unavailable']), engine: z.enum(['postgres', 'pglite']), latency_ms: z.number().nullable() }),
    jobs: z.object({
      mode: z.enum(['embedded', 'inngest']),
      runner: z.enum(['running', 'off', 'inngest']),
      backlog: z
        .object({
          depth: z.number().int(),
          oldest_wait_seconds: z.number(),
          processing_status: z.enum(['normal', 'delayed']),
          processing_eta_seconds: z.number().nullable(),
        })
        .nullable(),
      threads: z.object({ size: z.number().int(), started: z.number().int(), calls: z.number().int(), failures: z.number().int() }).nullable(),
    }),
  })
  .meta({ id: 'Readiness' });
