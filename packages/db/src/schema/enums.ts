/**
 * The closed value sets of the schema's text columns. Each column is typed with its tuple (`.$type<>()`), so a
 * write with any other value fails the type-check, and the sets marked "CHECK" below are also constraints in the
 * database (migration 0011), so raw SQL cannot write them either. The domain reuses these tuples and types
 * instead of declaring its own unions.
 *
 * Adding a value: append it here; for a CHECKed set, `npm run db:generate` then writes the migration that
 * replaces the constraint.
 */
/** A job's life (docs/jobs.md), for extraction_jobs and universal_jobs. CHECK. */
export const JOB_STATUSES = ['queued', 'running', 'completed', 'processed', 'failed', 'dead'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/**
 * What an extraction_jobs row runs: an add's extraction or a feedback correction; `direct` is a memory written
 * through POST /v1/memories, whose job is completed in the transaction that creates it (never queued). Typed only, no CHECK: the runner
 * fails a job of a kind it has no function for instead of retrying it (packages/jobs/src/feedback.test.ts), so
 * a row of another kind is a state the system handles, e.g. one written by a newer version during a rolling deploy.
 */
export const TENANT_JOB_KINDS = ['extraction', 'correction', 'direct'] as const;
export type TenantJobKind = (typeof TENANT_JOB_KINDS)[number];

/**
 * A stored claim (memories, universal_memories): retrieval sees only active ones. `pending`: held for an admin's
 * review before it is written (docs/review-before-write.md; tenant memories only). CHECK.
 */
export const MEMORY_STATUSES = ['active', 'inactive', 'archived', 'pending'] as const;
export type MemoryStatus = (typeof MEMORY_STATUSES)[number];

/** A conflict review (reviews, passport_reviews). CHECK. */
export const REVIEW_STATUSES = ['open', 'resolved'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

/** What a review decides: a conflict between claims, or a new memory held before it is written. CHECK. */
export const REVIEW_KINDS = ['conflict', 'pending_write'] as const;
export type ReviewKind = (typeof REVIEW_KINDS)[number];

/** How a review was decided: a conflict's claim chosen; a held memory approved, edited then approved, or rejected. CHECK. */
export const REVIEW_DECISIONS = ['chosen', 'approved', 'edited', 'rejected'] as const;
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];

/** A weak signal held back from memory. CHECK. */
export const PENDING_CANDIDATE_STATUSES = ['pending', 'promoted', 'expired'] as const;
export type PendingCandidateStatus = (typeof PENDING_CANDIDATE_STATUSES)[number];

/** Why a candidate was held back. CHECK. */
export const PENDING_CANDIDATE_REASONS = ['hedged', 'low_confidence'] as const;
export type PendingCandidateReason = (typeof PENDING_CANDIDATE_REASONS)[number];

/**
 * What the compositional pass calls an entity. Typed only, no CHECK: the pass is young and may learn new kinds
 * (an older comment listed `pet` and `event`), which should not need a migration.
 */
export const ENTITY_KINDS = ['person', 'place', 'organization', 'thing'] as const;
export type EntityKind = (typeof ENTITY_KINDS)[number];

/** Who spoke a passage (system messages are never indexed). CHECK. */
export const PASSAGE_ROLES = ['user', 'assistant'] as const;
export type PassageRole = (typeof PASSAGE_ROLES)[number];

/** Who a one-time code or a session is for: the console or the passport. CHECK. */
export const AUDIENCES = ['admin', 'passport'] as const;
export type Audience = (typeof AUDIENCES)[number];

/** A consent link token's state (the consent app shows more verdicts, computed from this and the expiry). CHECK. */
export const LINK_TOKEN_STATUSES = ['pending', 'approved', 'declined', 'exchanged', 'expired'] as const;
export type LinkTokenStatus = (typeof LINK_TOKEN_STATUSES)[number];

/** What a grant lets an agent do. CHECK. */
export const GRANT_ACCESS_TYPES = ['read_only', 'read_write'] as const;
export type GrantAccessType = (typeof GRANT_ACCESS_TYPES)[number];

/** CHECK. */
export const GRANT_STATUSES = ['active', 'revoked'] as const;
export type GrantStatus = (typeof GRANT_STATUSES)[number];

/** How an agent read a passport user's universal memories (passport_access_log.kind). CHECK. */
export const AGENT_READ_KINDS = ['retrieve', 'list'] as const;
export type AgentReadKind = (typeof AGENT_READ_KINDS)[number];

/** Through which surface the agent read (passport_access_log.channel). CHECK. */
export const AGENT_READ_CHANNELS = ['rest', 'mcp'] as const;
export type AgentReadChannel = (typeof AGENT_READ_CHANNELS)[number];

/** CHECK. */
export const WEBHOOK_ENDPOINT_STATUSES = ['enabled', 'disabled'] as const;
export type WebhookEndpointStatus = (typeof WEBHOOK_ENDPOINT_STATUSES)[number];

/** Why an endpoint is disabled: by hand, the receiver answered 410, or persistent failure. CHECK (or null). */
export const WEBHOOK_DISABLED_REASONS = ['manual', 'gone', 'failing'] as const;
export type WebhookDisabledReason = (typeof WEBHOOK_DISABLED_REASONS)[number];

/** pending (waiting for its next attempt) | sending | succeeded | failed (attempts used up, endpoint disabled or refused). CHECK. */
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'sending', 'succeeded', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];
