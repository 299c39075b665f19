/** The universal memory passport (issue 5). Separate from tenant memory: a passport user belongs to no tenant. */
import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { analysisColumns, claimColumns, jobRunColumns, oneOf, tstz } from './columns';
import {
  AGENT_READ_CHANNELS,
  AGENT_READ_KINDS,
  GRANT_ACCESS_TYPES,
  GRANT_STATUSES,
  JOB_STATUSES,
  LINK_TOKEN_STATUSES,
  MEMORY_STATUSES,
  REVIEW_STATUSES,
  type AgentReadChannel,
  type AgentReadKind,
  type GrantAccessType,
  type GrantStatus,
  type JobStatus,
  type LinkTokenStatus,
  type ReviewStatus,
} from './enums';
import { tenantRef } from './tenants';

/** A passport user's row (issue 5): deleting the passport removes it. */
export const passportUserRef = () =>
  uuid('passport_user_id')
    .notNull()
    .references(() => passportUsers.id, { onDelete: 'cascade' });

/** A global agent's row: deleting the agent removes it. */
export const agentRef = () =>
  uuid('agent_id')
    .notNull()
    .references(() => globalAgents.id, { onDelete: 'cascade' });

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
    status: text('status').$type<LinkTokenStatus>().notNull().default('pending'),
    passportUserId: uuid('passport_user_id').references(() => passportUsers.id, { onDelete: 'cascade' }),
    expiresAt: tstz('expires_at').notNull(),
    consumedAt: tstz('consumed_at'),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('link_tokens_hash_uq').on(t.tokenHash), check('link_tokens_status_check', oneOf(t.status, LINK_TOKEN_STATUSES))],
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
    accessType: text('access_type').$type<GrantAccessType>().notNull(),
    status: text('status').$type<GrantStatus>().notNull().default('active'),
    createdAt: tstz('created_at').notNull().defaultNow(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
    revokedAt: tstz('revoked_at'),
  },
  (t) => [
    uniqueIndex('grants_user_agent_uq').on(t.passportUserId, t.agentId),
    check('grants_access_type_check', oneOf(t.accessType, GRANT_ACCESS_TYPES)),
    check('grants_status_check', oneOf(t.status, GRANT_STATUSES)),
  ],
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
    ...analysisColumns(),
  },
  (t) => [
    index('universal_memories_user_idx').on(t.passportUserId, t.status, t.category),
    uniqueIndex('universal_memories_job_fp_uq').on(t.jobId, t.fingerprint),
    check('universal_memories_status_check', oneOf(t.status, MEMORY_STATUSES)),
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
    status: text('status').$type<JobStatus>().notNull().default('queued'),
    ...jobRunColumns(),
    response: jsonb('response'),
    observedAt: tstz('observed_at').notNull().defaultNow(),
  },
  (t) => [
    index('universal_jobs_claim_idx').on(t.status, t.runAfter, t.createdAt),
    index('universal_jobs_running_user_idx').on(t.passportUserId).where(sql`status = 'running'`),
    uniqueIndex('universal_jobs_idem_uq').on(t.passportUserId, t.agentId, t.idempotencyKey),
    check('universal_jobs_status_check', oneOf(t.status, JOB_STATUSES)),
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
    status: text('status').$type<ReviewStatus>().notNull().default('open'),
    resolutionMemoryId: uuid('resolution_memory_id'),
    createdAt: tstz('created_at').notNull().defaultNow(),
    resolvedAt: tstz('resolved_at'),
  },
  (t) => [index('passport_reviews_user_idx').on(t.passportUserId, t.status), check('passport_reviews_status_check', oneOf(t.status, REVIEW_STATUSES))],
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

/**
 * Every read of a passport user's universal memories by an agent (retrieve, list; over REST or MCP), for the user
 * to see: who, when, how many memories and in which categories. Never content or the query. Bounded per user
 * (PASSPORT_ACCESS_LOG_RETENTION in packages/core/src/universal/access-log.ts).
 */
export const passportAccessLog = pgTable(
  'passport_access_log',
  {
    id: uuid('id').primaryKey(),
    passportUserId: passportUserRef(),
    /** Not a foreign key: the entry stays readable (with the agent's last known name) if the agent is removed. */
    agentId: uuid('agent_id').notNull(),
    agentName: text('agent_name').notNull(),
    kind: text('kind').$type<AgentReadKind>().notNull(),
    channel: text('channel').$type<AgentReadChannel>().notNull(),
    memoriesReturned: integer('memories_returned').notNull(),
    /** The categories of the memories returned (canonical order), not the grant's. */
    categories: jsonb('categories').notNull().default(sql`'[]'::jsonb`),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('passport_access_log_user_idx').on(t.passportUserId, t.createdAt, t.id),
    check('passport_access_log_kind_check', oneOf(t.kind, AGENT_READ_KINDS)),
    check('passport_access_log_channel_check', oneOf(t.channel, AGENT_READ_CHANNELS)),
  ],
);
