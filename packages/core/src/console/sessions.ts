/**
 * Browser and API sessions in the audience-generic `sessions` table: the token is given to the client once,
 * the table keeps its SHA-256 and the session's CSRF token. Console sessions (audience `admin`) are a random
 * token in an HttpOnly, SameSite=Strict cookie, idle expiry 30 minutes, absolute 12 hours (rules.ts); passport
 * sessions (audience `passport`) use the same functions with their own rules (passport/sessions.ts).
 */
import { type Audience, type Db, adminUsers, and, eq, sessions, sql } from '@memory/db';
import { sha256Hex } from '../crypto';
import { ADMIN_AUDIENCE, SESSION_RULES, type SessionRules, newCsrfToken, newSessionToken, sessionVerdict, shouldTouch } from './rules';

export interface AdminSession {
  tokenHash: string;
  adminId: string;
  tenantId: string;
  email: string;
  csrfToken: string;
  expiresAt: Date;
}

export interface StoredSession {
  tokenHash: string;
  subjectId: string;
  csrfToken: string;
  expiresAt: Date;
}

/** A new session for a subject of the audience. `token` (for the cookie or header) is returned once. */
export async function createSession(
  db: Db,
  input: { audience: Audience; subjectId: string; rules: SessionRules; token?: { token: string; hash: string }; now?: Date },
) {
  const now = input.now ?? new Date();
  const { token, hash } = input.token ?? newSessionToken();
  const csrfToken = newCsrfToken();
  const expiresAt = new Date(now.getTime() + input.rules.absoluteMs);
  await db.insert(sessions).values({ tokenHash: hash, audience: input.audience, subjectId: input.subjectId, csrfToken, createdAt: now, lastSeenAt: now, expiresAt });
  return { token, csrfToken, expiresAt };
}

/** The live session for a token, or null. Expired and idle sessions are deleted when seen. */
export async function findSession(db: Db, audience: Audience, token: string, rules: SessionRules, now = new Date()): Promise<StoredSession | null> {
  const hash = sha256Hex(token);
  const [row] = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.tokenHash, hash), eq(sessions.audience, audience)))
    .limit(1);
  if (!row) return null;
  if (sessionVerdict(row, now, rules) !== 'valid') {
    await db.delete(sessions).where(eq(sessions.tokenHash, hash));
    return null;
  }
  if (shouldTouch(row, now, rules)) {
    await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.tokenHash, hash));
  }
  return { tokenHash: hash, subjectId: row.subjectId, csrfToken: row.csrfToken, expiresAt: row.expiresAt };
}

/** Sign-out: the session stops working at once, whatever the client keeps. */
export async function deleteSession(db: Db, audience: Audience, token: string): Promise<void> {
  await db.delete(sessions).where(and(eq(sessions.tokenHash, sha256Hex(token)), eq(sessions.audience, audience)));
}

/** Drops every expired session of the audience (called at sign-in, so the table does not grow without bound). */
export async function pruneSessions(db: Db, audience: Audience, rules: SessionRules, now = new Date()): Promise<void> {
  const idleCutoff = new Date(now.getTime() - rules.idleMs).toISOString();
  await db.execute(
    sql`DELETE FROM sessions WHERE audience = ${audience}
        AND (expires_at <= ${now.toISOString()}::timestamptz OR last_seen_at <= ${idleCutoff}::timestamptz)`,
  );
}

/** A new console session (a new token at every sign-in). The token is returned once, for the cookie. */
export async function createAdminSession(db: Db, adminId: string, now = new Date()) {
  return createSession(db, { audience: ADMIN_AUDIENCE, subjectId: adminId, rules: SESSION_RULES, now });
}

/** The live console session for a cookie token, with the admin's tenant and address, or null. */
export async function resolveAdminSession(db: Db, token: string, now = new Date()): Promise<AdminSession | null> {
  const session = await findSession(db, ADMIN_AUDIENCE, token, SESSION_RULES, now);
  if (!session) return null;
  const [admin] = await db
    .select({ tenantId: adminUsers.tenantId, email: adminUsers.email })
    .from(adminUsers)
    .where(eq(adminUsers.id, session.subjectId))
    .limit(1);
  if (!admin) return null;
  return { tokenHash: session.tokenHash, adminId: session.subjectId, tenantId: admin.tenantId, email: admin.email, csrfToken: session.csrfToken, expiresAt: session.expiresAt };
}

export const deleteAdminSession = (db: Db, token: string) => deleteSession(db, ADMIN_AUDIENCE, token);

export const pruneAdminSessions = (db: Db, now = new Date()) => pruneSessions(db, ADMIN_AUDIENCE, SESSION_RULES, now);
