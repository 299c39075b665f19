/**
 * Console sessions: a 32-byte random token in an HttpOnly, SameSite=Strict cookie, stored as its SHA-256 in
 * `sessions` with the CSRF token of the session. Idle expiry 30 minutes, absolute 12 hours (rules.ts).
 */
import { type Db, adminUsers, and, eq, sessions, sql } from '@memory/db';
import { sha256Hex } from '../crypto';
import { ADMIN_AUDIENCE, SESSION_RULES, newCsrfToken, newSessionToken, sessionVerdict, shouldTouch } from './rules';

export interface AdminSession {
  tokenHash: string;
  adminId: string;
  tenantId: string;
  email: string;
  csrfToken: string;
  expiresAt: Date;
}

/** A new session (a new token at every sign-in). The token is returned once, for the cookie. */
export async function createAdminSession(db: Db, adminId: string, now = new Date()) {
  const { token, hash } = newSessionToken();
  const csrfToken = newCsrfToken();
  const expiresAt = new Date(now.getTime() + SESSION_RULES.absoluteMs);
  await db.insert(sessions).values({ tokenHash: hash, audience: ADMIN_AUDIENCE, subjectId: adminId, csrfToken, createdAt: now, lastSeenAt: now, expiresAt });
  return { token, csrfToken, expiresAt };
}

/** The live session for a cookie token, or null. Expired and idle sessions are deleted when seen. */
export async function resolveAdminSession(db: Db, token: string, now = new Date()): Promise<AdminSession | null> {
  const hash = sha256Hex(token);
  const [row] = await db
    .select({ s: sessions, tenantId: adminUsers.tenantId, email: adminUsers.email })
    .from(sessions)
    .innerJoin(adminUsers, eq(adminUsers.id, sessions.subjectId))
    .where(and(eq(sessions.tokenHash, hash), eq(sessions.audience, ADMIN_AUDIENCE)))
    .limit(1);
  if (!row) return null;
  if (sessionVerdict(row.s, now) !== 'valid') {
    await db.delete(sessions).where(eq(sessions.tokenHash, hash));
    return null;
  }
  if (shouldTouch(row.s, now)) {
    await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.tokenHash, hash));
  }
  return { tokenHash: hash, adminId: row.s.subjectId, tenantId: row.tenantId, email: row.email, csrfToken: row.s.csrfToken, expiresAt: row.s.expiresAt };
}

/** Sign-out: the session stops working at once, whatever the browser keeps. */
export async function deleteAdminSession(db: Db, token: string): Promise<void> {
  await db.delete(sessions).where(and(eq(sessions.tokenHash, sha256Hex(token)), eq(sessions.audience, ADMIN_AUDIENCE)));
}

/** Drops every expired console session (called at sign-in, so the table does not grow without bound). */
export async function pruneAdminSessions(db: Db, now = new Date()): Promise<void> {
  const idleCutoff = new Date(now.getTime() - SESSION_RULES.idleMs).toISOString();
  await db.execute(
    sql`DELETE FROM sessions WHERE audience = ${ADMIN_AUDIENCE}
        AND (expires_at <= ${now.toISOString()}::timestamptz OR last_seen_at <= ${idleCutoff}::timestamptz)`,
  );
}
