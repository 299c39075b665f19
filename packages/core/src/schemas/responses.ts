/**
 * Response shapes of the /v1 API that no domain module returns as a named view: the success envelope
 * (`respond()` in apps/web/lib/http.ts writes it), the acknowledgements of deletes and revocations, and the
 * pages around views declared elsewhere. The OpenAPI document generates their JSON Schema from here.
 */
import { z } from 'zod';
import { globalAgentPublic } from './passport';
import { apiKeyView, sourceEventView } from './provenance';

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
