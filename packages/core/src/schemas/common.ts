import { z } from 'zod';
import { MEMORY_CATEGORIES } from '../categories';
import { LIMITS } from './limits';

export const externalUserId = z
  .string()
  .min(1, 'must not be empty')
  .max(LIMITS.externalUserIdChars, `must be at most ${LIMITS.externalUserIdChars} characters`)
  .meta({ description: 'The end user’s id in the tenant’s system, unique inside the tenant.', example: 'user_42' });

export const memoryCategory = z.enum(MEMORY_CATEGORIES).meta({ id: 'MemoryCategory', description: 'Memory category.' });

/**
 * A category a tenant retrieve can filter on: the memory categories, and `conversation` for passages of the
 * evidence layer (what was said, docs/evidence-layer.md).
 */
export const retrieveCategory = z
  .enum([...MEMORY_CATEGORIES, 'conversation'])
  .meta({ id: 'RetrieveCategory', description: 'A memory category, or `conversation` for passages of what was said.' });

export const jsonObject = (maxBytes: number, what: string) =>
  z
    .record(z.string(), z.unknown())
    .refine((v) => Buffer.byteLength(JSON.stringify(v)) <= maxBytes, `${what} must serialise to at most ${maxBytes} bytes`);

export const requestMeta = {
  request_id: z.string().uuid().meta({ description: 'Id of this request; quote it when reporting a problem.' }),
  timestamp: z.string().datetime().meta({ description: 'When the response was produced (ISO 8601, UTC).' }),
};

export const problemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    instance: z.string().optional(),
    code: z.string().meta({ description: 'Stable machine-readable error code, e.g. validation_failed, PROV_409.' }),
    request_id: z.string(),
    errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .meta({ id: 'Problem', description: 'RFC 9457 problem details (application/problem+json).' });
