import { z } from 'zod';
import { externalUserId, jsonObject, memoryCategory, requestMeta, retrieveCategory } from './common';
import { findSecrets, looksLikeSecret } from '../secrets';
import { LIMITS } from './limits';
import { metadataFilter, metadataFilterQuery } from './metadata-filter';

export const conversationMessage = z
  .object({
    role: z.enum(['user', 'assistant', 'system']),
    name: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(LIMITS.speakerNameChars, `must be at most ${LIMITS.speakerNameChars} characters`)
      .optional()
      .describe(
        'Optional speaker name. Extraction attributes the message\'s statements to this person ("Caroline went to …") instead of "the user"; use it when several people talk in one conversation.',
      ),
    content: z
      .string()
      .max(LIMITS.messageChars, `must be at most ${LIMITS.messageChars} characters`)
      .refine((s) => s.trim().length > 0, 'must not be empty'),
  })
  .meta({ id: 'ConversationMessage' });

const isoDatetime = z.string().datetime({ offset: true, message: 'must be an ISO 8601 date-time with a time zone' });

export const evidenceItem = z
  .object({
    source_type: z.string().min(1).max(64),
    reference: z
      .string()
      .min(1)
      .max(LIMITS.evidenceReferenceChars)
      .refine((v) => !looksLikeSecret(v) && findSecrets(v).length === 0, 'looks like a secret: evidence must reference a record, not contain credentials'),
  })
  .strict();

export const sourceBlock = z
  .object({
    service: z
      .string()
      .min(1)
      .max(LIMITS.serviceKeyChars)
      .regex(/^[a-z0-9][a-z0-9_-]*$/, 'must be a slug: lower-case letters, digits, "-" and "_"'),
    event_id: z.string().min(1).max(LIMITS.sourceEventIdChars),
    observed_at: isoDatetime.optional(),
    scope: jsonObject(LIMITS.scopeBytes, 'scope').optional(),
    evidence: z.array(evidenceItem).max(LIMITS.evidenceItems).optional(),
  })
  .meta({ id: 'SourceBlock', description: 'Where this conversation came from (creates a source event).' });

export const addRequest = z
  .object({
    external_user_id: externalUserId,
    agent_id: z.string().min(1).max(LIMITS.agentIdChars).nullish(),
    messages: z
      .array(conversationMessage)
      .min(1, 'at least one message is required')
      .max(LIMITS.messagesPerAdd, `at most ${LIMITS.messagesPerAdd} messages per call`)
      .refine(
        (ms) => ms.reduce((n, m) => n + m.content.length, 0) <= LIMITS.conversationChars,
        `the messages together must be at most ${LIMITS.conversationChars} characters`,
      ),
    metadata: jsonObject(LIMITS.metadataBytes, 'metadata').optional(),
    source: sourceBlock.nullish(),
  })
  .strict()
  .meta({ id: 'AddMemoriesRequest' });
export type AddRequest = z.infer<typeof addRequest>;

/** The plans a tenant can be on (their budgets: quota/plans.ts). */
export const PLAN_IDS = ['free', 'pro', 'enterprise', 'unlimited'] as const;
export type PlanId = (typeof PLAN_IDS)[number];

export const QUOTA_MODES = ['FULL', 'PASSTHROUGH', 'DEGRADED_RETRIEVE', 'BLOCKED'] as const;
export type QuotaMode = (typeof QUOTA_MODES)[number];

export const ADD_STATUSES = ['queued', 'passthrough', 'L1', 'L2', 'L3', 'L4', 'blocked'] as const;

export const addResponse = z
  .object({
    job_id: z.string().uuid().nullable(),
    status: z.enum(ADD_STATUSES),
    blocked_reason: z.string().nullable(),
    nothing_to_extract: z.boolean(),
    retry_after_seconds: z.number().nullable().meta({ description: 'With `L1`: seconds until the write-rate window resets.' }),
    budget_remaining_pct: z
      .number()
      .nullable()
      .meta({ description: "The tenant's remaining budget of the tightest unit this period, after this call; null on an unlimited plan." }),
    quota_mode: z.enum(QUOTA_MODES).meta({ description: "The tenant's quota mode after this call (docs/quotas.md)." }),
    processing_eta_seconds: z.number().nullable().meta({ description: 'With `delayed`: queue depth / measured extraction rate, in seconds; null when no rate is known.' }),
    processing_status: z.enum(['normal', 'delayed']),
    ...requestMeta,
  })
  .meta({ id: 'AddMemoriesResponse' });
export type AddResponse = z.infer<typeof addResponse>;

export const JOB_STATUSES = ['queued', 'running', 'completed', 'processed', 'failed', 'dead'] as const;

export const extractionJob = z
  .object({
    job_id: z.string().uuid(),
    status: z.enum(JOB_STATUSES),
    memories_created: z.number().int(),
    pending_candidates_buffered: z.number().int(),
    pending_candidates_promoted: z.number().int(),
    attempts: z.number().int(),
    queue_name: z.string(),
    error: z.string().nullable(),
    error_summary: z.string().nullable(),
    extraction_metadata: z
      .object({
        compositional_pass_attempted: z.boolean(),
        compositional_pass_used: z.boolean(),
        compositional_entities: z.number().int(),
        compositional_relationships: z.number().int(),
        compositional_error: z.string().nullable(),
      })
      .catchall(z.unknown()),
    provider: z.string().nullable().meta({
      description:
        'The extraction provider that produced the memories (`builtin`, `openai-chat:<model>`); null until the job finishes. ' +
        'When it differs from the configured provider, `extraction_metadata.fallback_from` and `fallback_reason` say why.',
    }),
    token_usage: z
      .object({
        prompt_tokens: z.number().int(),
        completion_tokens: z.number().int(),
        total_tokens: z.number().int(),
        calls: z.number().int().meta({ description: 'Model requests made, including failed and retried ones.' }),
      })
      .nullable()
      .meta({ description: 'Model tokens the job spent, summed over all its attempts; null when no model was called.' }),
    external_user_id: z.string(),
    source_event_id: z.string().uuid(),
    created_at: z.string().datetime(),
    updated_at: z.string().datetime(),
    finished_at: z.string().datetime().nullable(),
  })
  .meta({ id: 'ExtractionJob' });
export type ExtractionJobView = z.infer<typeof extractionJob>;

export const provenance = z
  .object({
    service: z.string().optional(),
    event_id: z.string().optional(),
    observed_at: z.string().datetime().optional(),
    received_at: z.string().datetime().optional(),
    payload_hash: z.string().optional(),
    scope: z.record(z.string(), z.unknown()).optional(),
    writer_id: z.string().uuid().optional(),
    evidence: z.array(evidenceItem).optional(),
    message_indices: z.array(z.number().int()).optional(),
    job_id: z.string().uuid().optional(),
  })
  .meta({ id: 'Provenance', description: 'Where a memory came from. Fields are present only when known.' });

export const memorySearchResult = z
  .object({
    id: z.string().uuid(),
    content: z.string(),
    category: z.string(),
    importance_score: z.number(),
    last_accessed: z.string().datetime().nullable(),
    relevance_score: z.number(),
    context_snippet: z.string(),
    source_event_id: z.string().nullable(),
    provenance: provenance.nullable(),
  })
  .meta({ id: 'MemorySearchResult' });
export type MemorySearchResult = z.infer<typeof memorySearchResult>;

export const retrieveRequest = z
  .object({
    external_user_id: externalUserId,
    query: z.string().max(LIMITS.queryChars, `must be at most ${LIMITS.queryChars} characters`),
    limit: z.number().int().min(1).max(LIMITS.retrieveLimitMax).default(LIMITS.retrieveLimitDefault),
    categories: z.array(retrieveCategory).min(1).optional(),
    agent_id: z.string().min(1).max(LIMITS.agentIdChars).nullish(),
    time_filter_days: z.number().int().min(1).max(LIMITS.timeFilterDaysMax).nullish(),
    format: z.enum(['bullets', 'json', 'xml']).default('bullets'),
    context_max_tokens: z.number().int().min(0).max(LIMITS.contextMaxTokensMax).default(LIMITS.contextMaxTokensDefault),
    metadata_filter: metadataFilter.optional(),
    // when the question is asked: a relative date in the query ("… two weeks ago") counts from it (default: now)
    reference_time: z.string().datetime({ offset: true }).nullish(),
  })
  .strict()
  .meta({ id: 'RetrieveRequest' });
export type RetrieveRequest = z.infer<typeof retrieveRequest>;


export const retrieveResponse = z
  .object({
    retrieval_id: z.string().uuid().nullable(),
    data: z.array(memorySearchResult),
    cached: z.boolean(),
    system_prompt_addition: z.string(),
    context_token_count: z.number().int().nullable(),
    memories_from_hot_tier: z.number().int(),
    clarification_question: z.string().nullable(),
    quota_mode: z.enum(QUOTA_MODES).meta({ description: "The tenant's quota mode after this call (docs/quotas.md)." }),
    budget_remaining_pct: z
      .number()
      .nullable()
      .meta({ description: "The tenant's remaining budget of the tightest unit this period; null on an unlimited plan." }),
    is_degraded: z
      .boolean()
      .meta({ description: 'True when the answer came from the cheaper path: DEGRADED_RETRIEVE, or the embeddings endpoint failed.' }),
    is_passthrough: z
      .boolean()
      .meta({ description: 'True in PASSTHROUGH and BLOCKED: no memories are returned; answer without memory context.' }),
    ...requestMeta,
  })
  .meta({ id: 'RetrieveResponse' });
export type RetrieveResponse = z.infer<typeof retrieveResponse>;

/** `pending`: held for review before write (docs/review-before-write.md); never retrieved, listed only when asked for. */
export const MEMORY_STATUSES = ['active', 'inactive', 'archived', 'pending'] as const;

export const memoryRecord = z
  .object({
    id: z.string().uuid(),
    external_user_id: z.string(),
    agent_id: z.string().nullable(),
    content: z.string(),
    category: z.string(),
    status: z.enum(MEMORY_STATUSES),
    importance_score: z.number(),
    confidence: z.number(),
    access_count: z.number().int(),
    last_accessed: z.string().datetime().nullable(),
    created_at: z.string().datetime(),
    updated_at: z.string().datetime(),
    source_event_id: z.string().nullable(),
    provenance: provenance.nullable(),
  })
  .meta({ id: 'Memory' });
export type MemoryRecord = z.infer<typeof memoryRecord>;

export const listMemoriesQuery = z.object({
  external_user_id: externalUserId,
  limit: z.coerce.number().int().min(1).max(LIMITS.listLimitMax).default(LIMITS.listLimitDefault),
  cursor: z.string().max(512).optional(),
  status: z.enum([...MEMORY_STATUSES, 'all']).default('active'),
  category: memoryCategory.optional(),
  metadata_filter: metadataFilterQuery.optional(),
});

export const memoryPage = z
  .object({
    items: z.array(memoryRecord),
    limit: z.number().int(),
    next_cursor: z.string().nullable(),
  })
  .meta({ id: 'MemoryPage' });

export const exportQuery = z.object({ external_user_id: externalUserId });

export const createTenantRequest = z
  .object({
    name: z.string().trim().min(1).max(200),
    plan: z
      .enum(PLAN_IDS)
      .optional()
      .meta({ description: 'The plan (docs/quotas.md); default MEMORY_DEFAULT_PLAN (`unlimited` unless configured).' }),
  })
  .strict()
  .meta({ id: 'CreateTenantRequest' });

export const createTenantResponse = z
  .object({
    data: z.object({
      tenant_id: z.string().uuid(),
      name: z.string(),
      api_key: z.string().meta({ description: 'Shown once. Only its SHA-256 is stored.' }),
    }),
  })
  .meta({ id: 'CreateTenantResponse' });
