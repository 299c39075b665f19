/** Tenant memories and what hangs off them: passages, entities, held-back candidates, the claim ledger, reviews. */
import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, primaryKey, real, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { analysisColumns, claimColumns, oneOf, tstz, tsvector } from './columns';
import {
  MEMORY_STATUSES,
  PASSAGE_ROLES,
  PENDING_CANDIDATE_REASONS,
  PENDING_CANDIDATE_STATUSES,
  REVIEW_DECISIONS,
  REVIEW_KINDS,
  REVIEW_STATUSES,
  type EntityKind,
  type PassageRole,
  type PendingCandidateReason,
  type PendingCandidateStatus,
  type ReviewDecision,
  type ReviewKind,
  type ReviewStatus,
} from './enums';
import { tenantRef, userRef } from './tenants';
import { sourceEvents } from './ingestion';

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
    check('memories_status_check', oneOf(t.status, MEMORY_STATUSES)),
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
    role: text('role').$type<PassageRole>().notNull(),
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
    check('passages_role_check', oneOf(t.role, PASSAGE_ROLES)),
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
    kind: text('kind').$type<EntityKind>().notNull(),
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
    /** Why it was held back. */
    reason: text('reason').$type<PendingCandidateReason>().notNull(),
    occurrences: integer('occurrences').notNull().default(1),
    status: text('status').$type<PendingCandidateStatus>().notNull().default('pending'),
    sourceEventId: uuid('source_event_id'),
    jobId: uuid('job_id'),
    messageIndices: jsonb('message_indices').notNull().default(sql`'[]'::jsonb`),
    observedAt: tstz('observed_at'),
    promotedMemoryId: uuid('promoted_memory_id'),
    createdAt: tstz('created_at').notNull().defaultNow(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('pending_candidates_user_fp_uq').on(t.tenantId, t.userId, t.fingerprint),
    check('pending_candidates_status_check', oneOf(t.status, PENDING_CANDIDATE_STATUSES)),
    check('pending_candidates_reason_check', oneOf(t.reason, PENDING_CANDIDATE_REASONS)),
  ],
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

/**
 * A decision a person makes (docs/conflicts.md): a conflict between equally trusted claims, or a new memory held
 * for review before it is written (docs/review-before-write.md).
 */
export const reviews = pgTable(
  'reviews',
  {
    id: uuid('id').primaryKey(),
    tenantId: tenantRef(),
    userId: userRef(),
    kind: text('kind').$type<ReviewKind>().notNull().default('conflict'),
    subject: text('subject').notNull(),
    /**
     * A conflict: the claim that was active before (a) and the new claim that contradicts it (b).
     * A pending write: the held memory (b) and no (a).
     */
    claimAId: uuid('claim_a_id'),
    claimBId: uuid('claim_b_id').notNull(),
    /** A user-facing question, e.g. "Do you currently live in Lisbon or in Porto?" */
    question: text('question').notNull(),
    status: text('status').$type<ReviewStatus>().notNull().default('open'),
    /** The memory chosen when resolved. */
    resolutionMemoryId: uuid('resolution_memory_id'),
    resolvedBy: text('resolved_by'),
    decision: text('decision').$type<ReviewDecision>(),
    resolutionNote: text('resolution_note'),
    createdAt: tstz('created_at').notNull().defaultNow(),
    resolvedAt: tstz('resolved_at'),
  },
  (t) => [
    index('reviews_tenant_status_idx').on(t.tenantId, t.status, t.createdAt),
    index('reviews_user_idx').on(t.tenantId, t.userId, t.status),
    check('reviews_status_check', oneOf(t.status, REVIEW_STATUSES)),
    check('reviews_kind_check', oneOf(t.kind, REVIEW_KINDS)),
    check('reviews_decision_check', oneOf(t.decision, REVIEW_DECISIONS)),
  ],
);
