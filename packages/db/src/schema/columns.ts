/** Column helpers shared by several areas: timestamps, the job run state, the ranking inputs, a stored claim. */
import { type SQL, sql } from 'drizzle-orm';
import { boolean, customType, integer, jsonb, real, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { MemoryStatus } from './enums';

export const tsvector = customType<{ data: string }>({
  dataType() {
    return 'tsvector';
  },
});

export const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** The run-state columns every job queue table has (lease, attempts, backoff, memoised steps, outcome). */
export const jobRunColumns = () => ({
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
 * Ranking inputs computed once when a memory or passage is written (packages/core/src/text/analysis.ts),
 * so loading a user's set for retrieval parses them instead of analysing every text again: `terms` are the
 * text's stems in order, space-separated; `vector` is the offline semantic vector, int8-quantised and base64
 * encoded, made by `vector_model`. Null on rows written before they existed: analysed at load, which then
 * stores them (core retrieval/heal-analysis.ts).
 */
export const analysisColumns = () => ({
  terms: text('terms'),
  vector: text('vector'),
  vectorModel: text('vector_model'),
});

/** The columns of a stored claim, shared by tenant memories and the universal store. */
export const claimColumns = () => ({
  content: text('content').notNull(),
  category: text('category').notNull(),
  /** Retrieval sees only active rows. */
  status: text('status').$type<MemoryStatus>().notNull().default('active'),
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

/**
 * The CHECK expression `column IN ('a', 'b', …)` for a tuple. The values are inlined (DDL takes no parameters);
 * they are the constants above, never input.
 */
export function oneOf(column: AnyPgColumn, values: readonly string[]): SQL {
  return sql`${column} IN (${sql.raw(values.map((v) => `'${v}'`).join(', '))})`;
}
