/** Erasure of an end user (docs/erasure.md): the tombstone each erasure leaves, with counts and hashes only. */
import { index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { tstz } from './columns';
import { tenantRef } from './tenants';

/**
 * One row per erasure: what kinds of records were removed and how many, the SHA-256 of the canonical listing of
 * their ids (the receipt's `sha256`), and the SHA-256 of the erased `external_user_id` so a repeated DELETE finds
 * the receipt again. Never the external id itself, never content.
 */
export const userErasures = pgTable(
  'user_erasures',
  {
    /** The receipt's `receipt_id`. */
    id: uuid('id').primaryKey(),
    tenantId: tenantRef(),
    /** SHA-256 (hex) of the erased `external_user_id`, UTF-8. */
    externalUserIdSha256: text('external_user_id_sha256').notNull(),
    /** `{ [kind]: number }`, every kind of the erasure plan. */
    counts: jsonb('counts').notNull(),
    /** SHA-256 (hex) of the canonical listing of the erased records (docs/erasure.md). */
    sha256: text('sha256').notNull(),
    /** Who asked: `api_key:<id>` or `admin:<id>`. */
    actor: text('actor').notNull(),
    erasedAt: tstz('erased_at').notNull().defaultNow(),
  },
  (t) => [index('user_erasures_user_idx').on(t.tenantId, t.externalUserIdSha256, t.erasedAt)],
);
