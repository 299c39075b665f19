/** Request and response schemas of the universal (passport) memory endpoints: docs/passport-universal.md. */
import { z } from 'zod';
import { jsonObject, memoryCategory } from './common';
import { LIMITS } from './limits';
import { JOB_STATUSES, addRequest, addResponse, retrieveRequest, retrieveResponse } from './memories';

export const universalAddRequest = z
  .object({
    messages: addRequest.shape.messages,
    metadata: jsonObject(LIMITS.metadataBytes, 'metadata').optional(),
    idempotency_key: z
      .string()
      .min(1)
      .max(LIMITS.idempotencyKeyChars)
      .optional()
      .meta({
        description:
          'Retry safely: the same key with the same messages and metadata replays the first response (same `job_id`); ' +
          'the same key with other content is 422 `idempotency_key_reused`. Scoped to (passport user, agent).',
      }),
  })
  .strict()
  .meta({ id: 'UniversalAddRequest' });
export type UniversalAddRequest = z.infer<typeof universalAddRequest>;

export const universalAddResponse = addResponse
  .extend({
    categories: z.array(z.string()).meta({
      description: 'The categories the job may write: the grant’s at acceptance. Memories in other categories are dropped.',
    }),
  })
  .meta({ id: 'UniversalAddResponse' });
export type UniversalAddResponse = z.infer<typeof universalAddResponse>;

export const universalJob = z
  .object({
    job_id: z.string().uuid(),
    status: z.enum(JOB_STATUSES),
    categories: z.array(z.string()),
    memories_created: z.number().int(),
    attempts: z.number().int(),
    error: z.string().nullable(),
    error_summary: z.string().nullable(),
    extraction_metadata: z.record(z.string(), z.unknown()).meta({
      description: '`dropped_outside_grant`, `memories_reinforced`, `reviews_opened`, `provider`, … (docs/passport-universal.md).',
    }),
    created_at: z.string().datetime(),
    updated_at: z.string().datetime(),
    finished_at: z.string().datetime().nullable(),
  })
  .meta({ id: 'UniversalJob' });
export type UniversalJobView = z.infer<typeof universalJob>;

export const universalRetrieveRequest = z
  .object({
    query: retrieveRequest.shape.query,
    limit: retrieveRequest.shape.limit,
    format: retrieveRequest.shape.format,
    context_max_tokens: retrieveRequest.shape.context_max_tokens,
  })
  .strict()
  .meta({ id: 'UniversalRetrieveRequest' });
export type UniversalRetrieveRequest = z.infer<typeof universalRetrieveRequest>;

export const UNIVERSAL_PERMISSION_ERRORS = ['no_grant_for_user'] as const;

export const universalRetrieveResponse = retrieveResponse
  .extend({
    permission_error: z.enum(UNIVERSAL_PERMISSION_ERRORS).nullable().meta({
      description: '`no_grant_for_user` when this agent has no active grant for the passport user (then everything else is empty); else null.',
    }),
    categories_available: z.array(memoryCategory).meta({ description: 'The categories this agent’s grant covers.' }),
  })
  .meta({ id: 'UniversalRetrieveResponse' });
export type UniversalRetrieveResponse = z.infer<typeof universalRetrieveResponse>;

/** A conflict between universal claims, as the passport user sees it (Pending Questions). */
export const passportQuestion = z
  .object({
    id: z.string().uuid(),
    question: z.string(),
    subject: z.string(),
    options: z.array(z.object({ memory_id: z.string().uuid(), content: z.string() })),
    created_at: z.string().datetime(),
  })
  .meta({ id: 'PassportQuestion' });
export type PassportQuestion = z.infer<typeof passportQuestion>;
