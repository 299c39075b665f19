/** The admin console: admins, one-time codes, sessions, the development mailbox, the audit log. */
import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { oneOf, tstz } from './columns';
import { AUDIENCES, type Audience } from './enums';
import { tenantRef } from './tenants';

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
    audience: text('audience').$type<Audience>().notNull(),
    /** SHA-256 of the lower-cased email, so throttling works whether or not an account exists. */
    emailHash: text('email_hash').notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: tstz('expires_at').notNull(),
    consumedAt: tstz('consumed_at'),
    requestIp: text('request_ip'),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [index('otp_codes_email_idx').on(t.audience, t.emailHash, t.createdAt), check('otp_codes_audience_check', oneOf(t.audience, AUDIENCES))],
);

/** Browser sessions; the cookie holds the token, the table its SHA-256. */
export const sessions = pgTable(
  'sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    audience: text('audience').$type<Audience>().notNull(),
    subjectId: uuid('subject_id').notNull(),
    csrfToken: text('csrf_token').notNull(),
    createdAt: tstz('created_at').notNull().defaultNow(),
    lastSeenAt: tstz('last_seen_at').notNull().defaultNow(),
    expiresAt: tstz('expires_at').notNull(),
  },
  (t) => [index('sessions_subject_idx').on(t.audience, t.subjectId), check('sessions_audience_check', oneOf(t.audience, AUDIENCES))],
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
