/**
 * The one Drizzle schema, shared by PostgreSQL (postgres.js) and PGlite.
 * Every tenant-owned row carries `tenant_id`; every query in the domain filters on it.
 * Memories keep world time (`observed_at`) apart from system time (`created_at`, `updated_at`).
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const tsvector = customType<{ data: string }>({
  dataType() {
    return 'tsvector';
  },
});

const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Every tenant-owned row carries its partition; deleting a tenant removes its rows. */
const tenantRef = () =>
  uuid('tenant_id')
    .notNull()
    .references(() => tenants.id, { onDelete: 'cascade' });

/** A passport user's row (issue 5): deleting the passport removes it. */
const passportUserRef = () =>
  uuid('passport_user_id')
    .notNull()
    .references(() => passportUsers.id, { onDelete: 'cascade' });

/** A global agent's row: deleting the agent removes it. */
const agentRef = () =>
  uuid('agent_id')
    .notNull()
    .references(() => globalAgents.id, { onDelete: 'cascade' });

const userRef = () =>
  uuid('user_id')
    .notNull()
    .references(() => endUsers.id, { onDelete: 'cascade' });

/** The run-state columns every job queue table has (lease, attempts, backoff, memoised steps, outcome). */
const jobRunColumns = () => ({
  attempts: integer('attempts').notNull().default(0),
  maxAttempts: integer('max_attempts').notNull(),
  runAfter: tstz('run_after').notNull().defaultNow(),
  leaseUntil: tstz('lease_until'),
  lockedBy: text('locked_by'),
  memoriesCreated: integer('memories_created').notNull().default(0),
  error: text('error'),
  errorSummary: text('error_summary'),
  extractionMetadata: jsonb('extraction_metadata').notNull().default(sql`'{}'::jsonb`),
  /** Memoised step results, so a retried run skips the steps that already finished. */
  stepState: jsonb('step_state').notNull().default(sql`'{}'::jsonb`),
  createdAt: tstz('created_at').notNull().defaultNow(),
  updatedAt: tstz('updated_at').notNull().defaultNow(),
  finishedAt: tstz('finished_at'),
});

/**
 * Ranking inputs computed once when a memory or passage is written (packages/core/src/retrieval/analysis.ts),
 * so loading a user's set for retrieval parses them instead of analysing every text again: `terms` are the
 * text's stems in order, space-separated; `vector` is the offline semantic vector, int8-quantised and base64
 * encoded, made by `vector_model`. Null on rows written before they existed (analysed at load instead).
 */
const analysisColumns = () => ({
  terms: text('terms'),
  vector: text('vector'),
  vectorModel: text('vector_model'),
});

/** The columns of a stored claim, shared by tenant memories and the universal store. */
const claimColumns = () => ({
  content: text('content').notNull(),
  category: text('category').notNull(),
  /** active | inactive | archived. Retrieval sees only active rows. */
  status: text('status').notNull().default('active'),
  importance: real('importance').notNull(),
  confidence: real('confidence').notNull(),
  /** Normalised content; the same fact said twice has the same fingerprint. */
  fingerprint: text('fingerprint').notNull(),
  jobId: uuid('job_id'),
  /** Indices (0-based) of the add call's messages the memory came from. */
  messageIndices: jsonb('message_indices').notNull().default(sql`'[]'::jsonb`),
  observedAt: tstz('observed_at'),
  /** The claim's subject for conflict detection, e.g. `residence`, `diet`; null when not a functional claim. */
  subject: text('subject'),
  /** The normalised value the claim states about its subject, e.g. `lisbon`. */
  claimValue: text('claim_value'),
  /** The claim is negated or ended ("is not vegetarian anymore", "quit smoking"; docs/conflicts.md). */
  claimNegated: boolean('claim_negated').notNull().default(false),
  /** The memory that superseded this one, when it lost a conflict. */
  supersededBy: uuid('superseded_by'),
  accessCount: integer('access_count').notNull().default(0),
  lastAccessed: tstz('last_accessed'),
  createdAt: tstz('created_at').notNull().defaultNow(),
  updatedAt: tstz('updated_at').notNull().defaultNow(),
});

export const tenants = pgTable('tenants', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
  /** Raw source payloads older than this are redacted (the hash stays). Null keeps them. */
  payloadRetentionDays: integer('payload_retention_days').default(30),
  /** The active domain schema (packages/core/src/domains): `general`, `edtech` or `customer_support`. */
  domainSchema: text('domain_schema').notNull().default('general'),
  /** The tenant's plan (docs/quotas.md): `free`, `pro`, `enterprise` or `unlimited` (the default: no budget, no rate limits). */
  plan: text('plan').notNull().default('unlimited'),
  /** When the plan was set: monthly budget periods start on this instant's day and time, every month. */
  planAnchor: tstz('plan_anchor').notNull().defaultNow(),
  /** Per-tenant overrides of the plan: `{ budgets?: {add_calls?, retrieve_calls?}, rate_limits?: {user_writes_per_minute?, tenant_writes_per_minute?} }`. */
  planOverrides: jsonb('plan_overrides').notNull().default(sql`'{}'::jsonb`),
  /** The last quota mode seen; a different computed mode is a transition (audited once, by whoever flips this column). */
  quotaMode: text('quota_mode').notNull().default('FULL'),
  createdAt: tstz('created_at').notNull().defaultNow(),
});

/** The budget units (docs/quotas.md) counted by both usage tables. */
const usageCounterColumns = () => ({
  addCalls: integer('add_calls').notNull().default(0),
  retrieveCalls: integer('retrieve_calls').notNull().default(0),
});

/**
 * Budget consumption per tenant per plan period (docs/quotas.md): one row per (tenant, period start), incremented
 * with atomic upserts so every server process counts into the same row.
 */
export const tenantUsage = pgTable(
  'tenant_usage',
  {
    tenantId: tenantRef(),
    periodStart: tstz('period_start').notNull(),
    ...usageCounterColumns(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.periodStart] })],
);

/** The same counters per UTC day, for the console's usage chart. */
export const tenantUsageDaily = pgTable(
  'tenant_usage_daily',
  {
    tenantId: tenantRef(),
    day: text('day').notNull(),
    ...usageCounterColumns(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.day] })],
);

/**
 * Fixed-window write-rate counters (docs/quotas.md, Rate limits) when PostgreSQL/PGlite is the limiter's store:
 * one row per limited key (`t:<tenant>` or `u:<tenant>:<user>`), reset in place when a new window begins.
 */
export const rateLimitCounters = pgTable('rate_limit_counters', {
  key: text('key').primaryKey(),
  windowStart: tstz('window_start').notNull(),
  count: integer('count').notNull().default(0),
});

export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey(),
    tenantId: tenantRef(),
    name: text('name').notNull(),
    /** SHA-256 of the whole key, hex. The key itself is never stored. */
    keyHash: text('key_hash').notNull(),
    /** Display prefix and last four characters, for dashboards. */
    displayPrefix: text('display_prefix').notNull(),
    last4: text('last4').notNull(),
    createdAt: tstz('created_at').notNull().defaultNow(),
    revokedAt: tstz('revoked_at'),
  },
  (t) => [uniqueIndex('api_keys_key_hash_uq').on(t.keyHash), index('api_keys_tenant_idx').on(t.tenantId)],
);

/** A named backend service that writes user facts, with its authority per memory category. */
export const serviceWriters = pgTable(
  'service_writers',
  {
    id: uuid('id').primaryKey(),
    tenantId: tenantRef(),
    /** Stable slug, unique per tenant; the `source.service` of add calls. */
    serviceKey: text('service_key').notNull(),
    displayName: text('display_name').notNull(),
    /** `{ default_priority: int, categories: { [category]: int } }` */
    authorityRules: jsonb('authority_rules').notNull(),
    /** When set, adds for this writer must use exactly this API key (PROV_403 otherwise). */
    apiKeyId: uuid('api_key_id').references(() => apiKeys.id),
    createdAt: tstz('created_at').notNull().defaultNow(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('service_writers_key_uq').on(t.tenantId, t.serviceKey)],
);

export const endUsers = pgTable(
  'end_users',
  {
    id: uuid('id').primaryKey(),
    tenantId: tenantRef(),
    externalUserId: text('external_user_id').notNull(),
    /** Bumped on every memory write; lets caches detect that they are stale. */
    memoryVersion: bigint('memory_version', { mode: 'number' }).notNull().default(0),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('end_users_tenant_external_uq').on(t.tenantId, t.externalUserId)],
);

export const sourceEvents = pgTable(
  'source_events',
  {
    id: uuid('id').primaryKey(),
    tenantId: tenantRef(),
    userId: userRef(),
    /** `service_key` of the writer; `default` when the add carried no `source` block. */
    service: text('service').notNull(),
    writerId: uuid('writer_id'),
    /** The tenant's own event id, or an internal `evt_...` id when none was given. */
    eventId: text('event_id').notNull(),
    /** True when the event id was generated by the service. */
    eventIdGenerated: integer('event_id_generated').notNull().default(0),
    agentId: text('agent_id'),
    observedAt: tstz('observed_at').notNull(),
    receivedAt: tstz('received_at').notNull().defaultNow(),
    payloadHash: text('payload_hash').notNull(),
    /** `{ messages, metadata }` after secret redaction; null once the retention window redacts it. */
    payload: jsonb('payload'),
    payloadRedactedAt: tstz('payload_redacted_at'),
    scope: jsonb('scope').notNull().default(sql`'{}'::jsonb`),
    evidence: jsonb('evidence').notNull().default(sql`'[]'::jsonb`),
    jobId: uuid('job_id'),
    /** The add response first given for this event, replayed when the same event is sent again. */
    addResponse: jsonb('add_response'),
    /**
     * Sentiment of the user's messages in [-1, 1], set by the extraction job (core/domains/sentiment.ts) so
     * the Customer Support sentiment trend survives the payload's redaction; null until the job ran.
     */
    sentiment: real('sentiment'),
  },
  (t) => [
    uniqueIndex('source_events_event_uq').on(t.tenantId, t.service, t.eventId),
    index('source_events_user_idx').on(t.tenantId, t.userId, t.receivedAt),
  ],
);

export const extractionJobs = pgTable(
  'extraction_jobs',
  {
    id: uuid('id').primaryKey(),
    tenantId: tenantRef(),
    userId: userRef(),
    sourceEventId: uuid('source_event_id').notNull(),
    kind: text('kind').notNull().default('extraction'),
    /** queued | running | completed | processed | failed | dead (see docs/jobs.md). */
    status: text('status').notNull(),
    queueName: text('queue_name').notNull(),
    ...jobRunColumns(),
    pendingCandidatesBuffered: integer('pending_candidates_buffered').notNull().default(0),
    pendingCandidatesPromoted: integer('pending_candidates_promoted').notNull().default(0),
    /** The extraction provider that produced the memories (`builtin`, `openai-chat:<model>`, …). */
    provider: text('provider'),
    /** Model token usage summed over the job's calls: `{ prompt_tokens, completion_tokens, total_tokens, calls }`. */
    tokenUsage: jsonb('token_usage').notNull().default(sql`'{}'::jsonb`),
    startedAt: tstz('started_at'),
  },
  (t) => [
    index('extraction_jobs_claim_idx').on(t.status, t.runAfter),
    index('extraction_jobs_user_idx').on(t.tenantId, t.userId, t.createdAt),
    /** The backlog monitor counts jobs finished in the recent window (docs/quotas.md, Backlog). */
    index('extraction_jobs_finished_idx').on(t.finishedAt),
  ],
);

export const memories = pgTable(
  'memories',
  {
    id: uuid('id').primaryKey(),
    tenantId: tenantRef(),
    userId: userRef(),
    agentId: text('agent_id'),
    ...claimColumns(),
    sourceEventId: uuid('source_event_id'),
    /** The service writer whose source event produced the memory (null: default provenance). */
    writerId: uuid('writer_id'),
    /** Net retrieval feedback: positive outcomes add, negative ones subtract (docs/lifecycle.md). */
    feedbackScore: real('feedback_score').notNull().default(0),
    /** When the lifecycle pass last applied decay to `importance`. */
    lifecycleAt: tstz('lifecycle_at'),
    /** A vector from the configured embeddings endpoint, and the model that made it (null: none configured). */
    embedding: real('embedding').array(),
    embeddingModel: text('embedding_model'),
    ...analysisColumns(),
    search: tsvector('search').generatedAlwaysAs(sql`to_tsvector('english', content)`),
  },
  (t) => [
    index('memories_user_active_idx').on(t.tenantId, t.userId, t.status, t.createdAt),
    index('memories_search_idx').using('gin', t.search),
    index('memories_fingerprint_idx').on(t.tenantId, t.userId, t.fingerprint),
    index('memories_subject_idx').on(t.tenantId, t.userId, t.subject),
    // A job that runs twice writes each fact once.
    uniqueIndex('memories_job_fingerprint_uq').on(t.jobId, t.fingerprint),
  ],
);

/**
 * The evidence layer (docs/evidence-layer.md): every message of a source event's conversation, cut at sentence
 * ends into passages of at most ~120 words, indexed next to the memories so retrieval never knows less than
 * what was said. Written by the extraction job with its memories; removed when the payload is redacted.
 */
export const passages = pgTable(
  'passages',
  {
    id: uuid('id').primaryKey(),
    tenantId: tenantRef(),
    userId: userRef(),
    sourceEventId: uuid('source_event_id')
      .notNull()
      .references(() => sourceEvents.id, { onDelete: 'cascade' }),
    jobId: uuid('job_id'),
    agentId: text('agent_id'),
    /** The message's index in the source event's `messages`, and the passage's place within the message. */
    messageIndex: integer('message_index').notNull(),
    part: integer('part').notNull().default(0),
    /** `user` or `assistant`; `speaker` is the message's `name` when it had one. */
    role: text('role').notNull(),
    speaker: text('speaker'),
    content: text('content').notNull(),
    /** When it was said: the source event's `observed_at`. */
    observedAt: tstz('observed_at').notNull(),
    createdAt: tstz('created_at').notNull().defaultNow(),
    ...analysisColumns(),
  },
  (t) => [
    index('passages_user_idx').on(t.tenantId, t.userId),
    uniqueIndex('passages_message_part_uq').on(t.sourceEventId, t.messageIndex, t.part),
  ],
);

/** People, places, organisations and things the user's memories mention (the compositional pass). */
export const entities = pgTable(
  'entities',
  {
    id: uuid('id').primaryKey(),
    tenantId: tenantRef(),
    userId: userRef(),
    name: text('name').notNull(),
    /** Lower-cased, whitespace-collapsed name: one row per entity and user. */
    normalized: text('normalized').notNull(),
    /** person | place | organization | pet | thing | event */
    kind: text('kind').notNull(),
    mentionCount: integer('mention_count').notNull().default(1),
    createdAt: tstz('created_at').notNull().defaultNow(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('entities_user_name_uq').on(t.tenantId, t.userId, t.normalized)],
);

export const memoryEntities = pgTable(
  'memory_entities',
  {
    tenantId: tenantRef(),
    memoryId: uuid('memory_id')
      .notNull()
      .references(() => memories.id, { onDelete: 'cascade' }),
    entityId: uuid('entity_id')
      .notNull()
      .references(() => entities.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.memoryId, t.entityId] }), index('memory_entities_entity_idx').on(t.entityId)],
);

export const entityRelationships = pgTable(
  'entity_relationships',
  {
    id: uuid('id').primaryKey(),
    tenantId: tenantRef(),
    userId: userRef(),
    subjectEntityId: uuid('subject_entity_id')
      .notNull()
      .references(() => entities.id, { onDelete: 'cascade' }),
    /** e.g. `sister_of`, `works_at`, `lives_in`, `knows` */
    predicate: text('predicate').notNull(),
    objectEntityId: uuid('object_entity_id')
      .notNull()
      .references(() => entities.id, { onDelete: 'cascade' }),
    /** The memory the relationship was read from. */
    memoryId: uuid('memory_id'),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('entity_relationships_uq').on(t.subjectEntityId, t.predicate, t.objectEntityId)],
);

/** Weak signals (said once, hedged, low confidence) held back from memory until they recur or are confirmed. */
export const pendingCandidates = pgTable(
  'pending_candidates',
  {
    id: uuid('id').primaryKey(),
    tenantId: tenantRef(),
    userId: userRef(),
    fingerprint: text('fingerprint').notNull(),
    content: text('content').notNull(),
    category: text('category').notNull(),
    importance: real('importance').notNull(),
    confidence: real('confidence').notNull(),
    /** Why it was held back: hedged | low_confidence */
    reason: text('reason').notNull(),
    occurrences: integer('occurrences').notNull().default(1),
    /** pending | promoted | expired */
    status: text('status').notNull().default('pending'),
    sourceEventId: uuid('source_event_id'),
    jobId: uuid('job_id'),
    messageIndices: jsonb('message_indices').notNull().default(sql`'[]'::jsonb`),
    observedAt: tstz('observed_at'),
    promotedMemoryId: uuid('promoted_memory_id'),
    createdAt: tstz('created_at').notNull().defaultNow(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('pending_candidates_user_fp_uq').on(t.tenantId, t.userId, t.fingerprint)],
);

/** What an agent reported after using a retrieve response (POST /v1/memories/retrieval-feedback). */
export const retrievalFeedback = pgTable(
  'retrieval_feedback',
  {
    id: uuid('id').primaryKey(),
    tenantId: tenantRef(),
    userId: userRef(),
    retrievalId: uuid('retrieval_id').notNull(),
    outcome: text('outcome').notNull(),
    usedMemoryIds: jsonb('used_memory_ids').notNull().default(sql`'[]'::jsonb`),
    /** The user's correction (tenant data: stored, never logged). */
    correction: text('correction'),
    agentConfidence: real('agent_confidence'),
    metadata: jsonb('metadata').notNull().default(sql`'{}'::jsonb`),
    correctionJobId: uuid('correction_job_id'),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [index('retrieval_feedback_retrieval_idx').on(t.tenantId, t.retrievalId), index('retrieval_feedback_user_idx').on(t.tenantId, t.userId, t.createdAt)],
);

/** The claim revision ledger: every change of a memory's state, with who, when, why and from which event. */
export const claimRevisions = pgTable(
  'claim_revisions',
  {
    id: uuid('id').primaryKey(),
    tenantId: tenantRef(),
    userId: userRef(),
    memoryId: uuid('memory_id').notNull(),
    /** created | reinforced | superseded | archived | deleted | restored */
    action: text('action').notNull(),
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    reason: text('reason').notNull(),
    /** Who made the change: `extractor:builtin`, `api_key:<id>`, `admin:<id>`. */
    actor: text('actor').notNull(),
    sourceEventId: uuid('source_event_id'),
    jobId: uuid('job_id'),
    /** The claim as it was at this revision. */
    content: text('content').notNull(),
    details: jsonb('details').notNull().default(sql`'{}'::jsonb`),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [index('claim_revisions_memory_idx').on(t.tenantId, t.memoryId, t.createdAt)],
);

/** A conflict between equally trusted claims, resolved by a person (docs/conflicts.md). */
export const reviews = pgTable(
  'reviews',
  {
    id: uuid('id').primaryKey(),
    tenantId: tenantRef(),
    userId: userRef(),
    subject: text('subject').notNull(),
    /** The claim that was active before (a) and the new claim that contradicts it (b). */
    claimAId: uuid('claim_a_id').notNull(),
    claimBId: uuid('claim_b_id').notNull(),
    /** A user-facing question, e.g. "Do you currently live in Lisbon or in Porto?" */
    question: text('question').notNull(),
    /** open | resolved */
    status: text('status').notNull().default('open'),
    /** The memory chosen when resolved. */
    resolutionMemoryId: uuid('resolution_memory_id'),
    resolvedBy: text('resolved_by'),
    resolutionNote: text('resolution_note'),
    createdAt: tstz('created_at').notNull().defaultNow(),
    resolvedAt: tstz('resolved_at'),
  },
  (t) => [index('reviews_tenant_status_idx').on(t.tenantId, t.status, t.createdAt), index('reviews_user_idx').on(t.tenantId, t.userId, t.status)],
);

/** People who sign in to a tenant's admin console (created by the operator: CLI or admin API). */
export const adminUsers = pgTable(
  'admin_users',
  {
    id: uuid('id').primaryKey(),
    tenantId: tenantRef(),
    email: text('email').notNull(),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('admin_users_email_uq').on(t.email)],
);

/** One-time sign-in codes: stored hashed, expiring, single use, with an attempt counter. */
export const otpCodes = pgTable(
  'otp_codes',
  {
    id: uuid('id').primaryKey(),
    /** `admin` (console) or `passport` (later). */
    audience: text('audience').notNull(),
    /** SHA-256 of the lower-cased email, so throttling works whether or not an account exists. */
    emailHash: text('email_hash').notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: tstz('expires_at').notNull(),
    consumedAt: tstz('consumed_at'),
    requestIp: text('request_ip'),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [index('otp_codes_email_idx').on(t.audience, t.emailHash, t.createdAt)],
);

/** Browser sessions; the cookie holds the token, the table its SHA-256. */
export const sessions = pgTable(
  'sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    audience: text('audience').notNull(),
    subjectId: uuid('subject_id').notNull(),
    csrfToken: text('csrf_token').notNull(),
    createdAt: tstz('created_at').notNull().defaultNow(),
    lastSeenAt: tstz('last_seen_at').notNull().defaultNow(),
    expiresAt: tstz('expires_at').notNull(),
  },
  (t) => [index('sessions_subject_idx').on(t.audience, t.subjectId)],
);

/** Outgoing email when no SMTP server is configured: the development mailbox page shows it. */
export const devMailbox = pgTable('dev_mailbox', {
  id: uuid('id').primaryKey(),
  toAddress: text('to_address').notNull(),
  subject: text('subject').notNull(),
  body: text('body').notNull(),
  createdAt: tstz('created_at').notNull().defaultNow(),
});

/** Who did what and when, without content: keys, writers, reviews, exports, deletions, sign-ins. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id'),
    actor: text('actor').notNull(),
    action: text('action').notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    details: jsonb('details').notNull().default(sql`'{}'::jsonb`),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [index('audit_log_tenant_idx').on(t.tenantId, t.createdAt)],
);

export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    tenantId: tenantRef(),
    apiKeyId: uuid('api_key_id').notNull(),
    method: text('method').notNull(),
    path: text('path').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    responseStatus: integer('response_status').notNull(),
    responseBody: jsonb('response_body').notNull(),
    createdAt: tstz('created_at').notNull().defaultNow(),
    expiresAt: tstz('expires_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.apiKeyId, t.method, t.path, t.key] }),
    index('idempotency_keys_expiry_idx').on(t.expiresAt),
  ],
);

export const retrievals = pgTable(
  'retrievals',
  {
    id: uuid('id').primaryKey(),
    tenantId: tenantRef(),
    userId: userRef(),
    memoryIds: jsonb('memory_ids').notNull(),
    format: text('format').notNull(),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [index('retrievals_user_idx').on(t.tenantId, t.userId, t.createdAt)],
);

// ---------------------------------------------------------------------------------------------------------
// The universal memory passport (issue 5). Separate from tenant memory: a passport user belongs to no tenant.
// ---------------------------------------------------------------------------------------------------------

/** An AI agent a tenant publishes for passport users (POST /v1/agents/global). */
export const globalAgents = pgTable(
  'global_agents',
  {
    id: uuid('id').primaryKey(),
    tenantId: tenantRef(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    websiteUrl: text('website_url').notNull().default(''),
    logoUrl: text('logo_url').notNull().default(''),
    defaultCategoriesRequested: jsonb('default_categories_requested').notNull().default(sql`'[]'::jsonb`),
    /** Exact redirect after consent; '' means the consent page itself says the connection is done. */
    redirectUri: text('redirect_uri').notNull().default(''),
    /** SHA-256 of the agent API key (shown once at creation). */
    keyHash: text('key_hash').notNull(),
    keyPrefix: text('key_prefix').notNull(),
    /** Set only by an operator (CLI or admin API). */
    isVerified: integer('is_verified').notNull().default(0),
    /** Listed in the public directory (GET /v1/uui/organisations). */
    listed: integer('listed').notNull().default(1),
    createdAt: tstz('created_at').notNull().defaultNow(),
    revokedAt: tstz('revoked_at'),
  },
  (t) => [uniqueIndex('global_agents_key_uq').on(t.keyHash), index('global_agents_tenant_idx').on(t.tenantId)],
);

/** A passport account: one person, across tenants. */
export const passportUsers = pgTable(
  'passport_users',
  {
    id: uuid('id').primaryKey(),
    /** Lower-cased email. */
    email: text('email').notNull(),
    createdAt: tstz('created_at').notNull().defaultNow(),
    /** Bumped on every universal memory write (the universal hot tier's version). */
    memoryVersion: bigint('memory_version', { mode: 'number' }).notNull().default(0),
  },
  (t) => [uniqueIndex('passport_users_email_uq').on(t.email)],
);

/** One-time consent link tokens (like OAuth authorization codes): single use, expiring, bound. */
export const linkTokens = pgTable(
  'link_tokens',
  {
    id: uuid('id').primaryKey(),
    tokenHash: text('token_hash').notNull(),
    tenantId: tenantRef(),
    agentId: agentRef(),
    externalUserId: text('external_user_id').notNull(),
    /** pending | approved | declined | exchanged | expired */
    status: text('status').notNull().default('pending'),
    passportUserId: uuid('passport_user_id').references(() => passportUsers.id, { onDelete: 'cascade' }),
    expiresAt: tstz('expires_at').notNull(),
    consumedAt: tstz('consumed_at'),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('link_tokens_hash_uq').on(t.tokenHash)],
);

/** A tenant's user (external_user_id) linked to a passport user through an agent's consent. */
export const passportConnections = pgTable(
  'passport_connections',
  {
    id: uuid('id').primaryKey(),
    passportUserId: passportUserRef(),
    tenantId: tenantRef(),
    agentId: agentRef(),
    externalUserId: text('external_user_id').notNull(),
    createdAt: tstz('created_at').notNull().defaultNow(),
    disconnectedAt: tstz('disconnected_at'),
  },
  (t) => [
    uniqueIndex('passport_connections_uq').on(t.passportUserId, t.agentId, t.externalUserId),
    index('passport_connections_tenant_idx').on(t.tenantId, t.externalUserId),
  ],
);

/** What one agent may do with one passport user's universal memories. */
export const grants = pgTable(
  'grants',
  {
    id: uuid('id').primaryKey(),
    passportUserId: passportUserRef(),
    agentId: agentRef(),
    categories: jsonb('categories').notNull().default(sql`'[]'::jsonb`),
    /** read_only | read_write */
    accessType: text('access_type').notNull(),
    /** active | revoked */
    status: text('status').notNull().default('active'),
    createdAt: tstz('created_at').notNull().defaultNow(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
    revokedAt: tstz('revoked_at'),
  },
  (t) => [uniqueIndex('grants_user_agent_uq').on(t.passportUserId, t.agentId)],
);

/** `X-Service-UUI` tokens: one agent's credential for one passport user (hash only). */
export const uuiTokens = pgTable(
  'uui_tokens',
  {
    id: uuid('id').primaryKey(),
    tokenHash: text('token_hash').notNull(),
    passportUserId: passportUserRef(),
    agentId: agentRef(),
    connectionId: uuid('connection_id').references(() => passportConnections.id, { onDelete: 'cascade' }),
    createdAt: tstz('created_at').notNull().defaultNow(),
    expiresAt: tstz('expires_at'),
    revokedAt: tstz('revoked_at'),
  },
  (t) => [uniqueIndex('uui_tokens_hash_uq').on(t.tokenHash), index('uui_tokens_user_idx').on(t.passportUserId, t.agentId)],
);

/** The universal store: a passport user's memories, written by agents with a read-write grant. */
export const universalMemories = pgTable(
  'universal_memories',
  {
    id: uuid('id').primaryKey(),
    passportUserId: passportUserRef(),
    /** The agent whose add produced it. */
    agentId: uuid('agent_id'),
    ...claimColumns(),
  },
  (t) => [
    index('universal_memories_user_idx').on(t.passportUserId, t.status, t.category),
    uniqueIndex('universal_memories_job_fp_uq').on(t.jobId, t.fingerprint),
  ],
);

/** Universal extraction jobs (their own queue; never touch tenant tables). */
export const universalJobs = pgTable(
  'universal_jobs',
  {
    id: uuid('id').primaryKey(),
    passportUserId: passportUserRef(),
    agentId: uuid('agent_id').notNull(),
    /** The grant's categories when the add was accepted: the job writes only these. */
    categories: jsonb('categories').notNull().default(sql`'[]'::jsonb`),
    /** `{ messages, metadata }` after secret redaction. */
    payload: jsonb('payload'),
    payloadHash: text('payload_hash').notNull(),
    idempotencyKey: text('idempotency_key'),
    /** queued | running | completed | processed | failed | dead */
    status: text('status').notNull().default('queued'),
    ...jobRunColumns(),
    response: jsonb('response'),
    observedAt: tstz('observed_at').notNull().defaultNow(),
  },
  (t) => [
    index('universal_jobs_claim_idx').on(t.status, t.runAfter),
    uniqueIndex('universal_jobs_idem_uq').on(t.passportUserId, t.agentId, t.idempotencyKey),
  ],
);

/** Conflicts between universal claims, answered by the passport user (Pending Questions). */
export const passportReviews = pgTable(
  'passport_reviews',
  {
    id: uuid('id').primaryKey(),
    passportUserId: passportUserRef(),
    subject: text('subject').notNull(),
    claimAId: uuid('claim_a_id').notNull(),
    claimBId: uuid('claim_b_id').notNull(),
    question: text('question').notNull(),
    /** open | resolved */
    status: text('status').notNull().default('open'),
    resolutionMemoryId: uuid('resolution_memory_id'),
    createdAt: tstz('created_at').notNull().defaultNow(),
    resolvedAt: tstz('resolved_at'),
  },
  (t) => [index('passport_reviews_user_idx').on(t.passportUserId, t.status)],
);

/** What happened to a passport (never its content): kept after the passport is deleted. */
export const passportAudit = pgTable(
  'passport_audit',
  {
    id: uuid('id').primaryKey(),
    /** Not a foreign key: the entry outlives the deleted passport. */
    passportUserId: uuid('passport_user_id').notNull(),
    action: text('action').notNull(),
    details: jsonb('details').notNull().default(sql`'{}'::jsonb`),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [index('passport_audit_user_idx').on(t.passportUserId, t.createdAt)],
);

// ---------------------------------------------------------------------------------------------------------
// Webhooks (issue 7, docs/webhooks.md): tenant endpoints, the event outbox and one delivery per (endpoint, event).
// ---------------------------------------------------------------------------------------------------------

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
    /** enabled | disabled */
    status: text('status').notNull().default('enabled'),
    /** Why it is disabled: `manual`, `gone` (the receiver answered 410) or `failing` (persistent failure). */
    disabledReason: text('disabled_reason'),
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
  (t) => [index('webhook_endpoints_tenant_idx').on(t.tenantId, t.status)],
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
    /** pending (waiting for its next attempt) | sending | succeeded | failed (attempts used up, endpoint disabled or refused) */
    status: text('status').notNull().default('pending'),
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
  ],
);

export type Tenant = typeof tenants.$inferSelect;
export type ApiKey = typeof apiKeys.$inferSelect;
export type EndUser = typeof endUsers.$inferSelect;
export type ServiceWriter = typeof serviceWriters.$inferSelect;
export type Review = typeof reviews.$inferSelect;
export type AdminUser = typeof adminUsers.$inferSelect;
export type SourceEvent = typeof sourceEvents.$inferSelect;
export type ExtractionJob = typeof extractionJobs.$inferSelect;
export type Memory = typeof memories.$inferSelect;
export type Entity = typeof entities.$inferSelect;
export type PendingCandidate = typeof pendingCandidates.$inferSelect;
export type RetrievalFeedback = typeof retrievalFeedback.$inferSelect;
export type GlobalAgent = typeof globalAgents.$inferSelect;
export type PassportUser = typeof passportUsers.$inferSelect;
export type Grant = typeof grants.$inferSelect;
export type UniversalMemory = typeof universalMemories.$inferSelect;
export type UniversalJob = typeof universalJobs.$inferSelect;
export type ClaimRevision = typeof claimRevisions.$inferSelect;
export type WebhookEndpoint = typeof webhookEndpoints.$inferSelect;
export type WebhookDelivery = typeof webhookDeliveries.$inferSelect;
