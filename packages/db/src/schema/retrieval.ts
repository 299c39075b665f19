/** Retrievals served and the feedback agents report on them. */
import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, real, text, uuid } from 'drizzle-orm/pg-core';
import { tstz } from './columns';
import { tenantRef, userRef } from './tenants';

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
