/**
 * Passport accounts (docs/passport.md): sign-in with an e-mailed one-time code (the console's rules, audience
 * `passport`), sessions (`mem_ps_…`, hashed, idle 24 h, absolute 30 days) and erasure of the whole passport.
 */
import { randomUUID } from 'node:crypto';
import {
  type Db,
  type PassportUser,
  and,
  eq,
  otpCodes,
  passportUsers,
  rows,
  sessions,
  sql,
} from '@memory/db';
import { generateKey } from '../crypto';
import { ApiError, Errors } from '../errors';
import type { Mailer } from '../console/mailer';
import { type CodeIssuer, consumeCode, issueCode } from '../console/otp';
import { OTP_RULES, emailHash, normalizeEmail } from '../console/rules';
import { createSession, deleteSession, findSession, pruneSessions } from '../console/sessions';
import { recordPassportAudit } from './audit';
import { PASSPORT_AUDIENCE, PASSPORT_SESSION_RULES } from './rules';

const passportIssuer: CodeIssuer = {
  audience: PASSPORT_AUDIENCE,
  // Every address gets its code: a first successful verification creates the passport, so there is nothing
  // to hide about which addresses have one, and the answer is the same for all.
  receives: async () => true,
  mail: (code) => ({
    subject: 'Your Memory Passport sign-in code',
    text: [
      `Your passport sign-in code is ${code}`,
      '',
      `It is valid for ${OTP_RULES.ttlMs / 60_000} minutes and can be used once.`,
      'If you did not ask for it, ignore this message: nothing happens without the code.',
    ].join('\n'),
  }),
};

export const CODE_SENT = { sent: true as const, expires_in_seconds: OTP_RULES.ttlMs / 1000 };

async function findOrCreatePassport(db: Db, address: string): Promise<{ user: PassportUser; created: boolean }> {
  const [inserted] = await db
    .insert(passportUsers)
    .values({ id: randomUUID(), email: address })
    .onConflictDoNothing({ target: passportUsers.email })
    .returning();
  if (inserted) {
    await recordPassportAudit(db, inserted.id, 'passport.created');
    return { user: inserted, created: true };
  }
  const [existing] = await db.select().from(passportUsers).where(eq(passportUsers.email, address)).limit(1);
  if (!existing) throw Errors.conflict('The passport was deleted while it was being created; try again.');
  return { user: existing, created: false };
}

/** POST /v1/uui/register: creates the passport if the address has none, and sends a code. Same answer either way. */
export async function registerPassport(db: Db, mailer: Mailer, input: { email: string; ip: string }) {
  // The throttle and the mail configuration are checked first, so a refused request creates nothing.
  await issueCode(db, mailer, passportIssuer, input);
  await findOrCreatePassport(db, normalizeEmail(input.email));
  return CODE_SENT;
}

/** POST /v1/uui/otp/send (and the consent app's sendCode): a new code for any address. */
export async function sendPassportCode(db: Db, mailer: Mailer, input: { email: string; ip: string }) {
  await issueCode(db, mailer, passportIssuer, input);
  return CODE_SENT;
}

export interface PassportSession {
  token: string;
  csrfToken: string;
  expiresAt: Date;
  user: PassportUser;
}

/**
 * A right code starts a new session; the first successful verification of an address without a passport
 * creates it (register is not required). Every failure is the same 401.
 */
export async function verifyPassportCode(db: Db, input: { email: string; code: string }): Promise<PassportSession> {
  const address = await consumeCode(db, PASSPORT_AUDIENCE, input);
  const { user } = await findOrCreatePassport(db, address);
  await pruneSessions(db, PASSPORT_AUDIENCE, PASSPORT_SESSION_RULES);
  const key = generateKey('passportSession');
  const session = await createSession(db, {
    audience: PASSPORT_AUDIENCE,
    subjectId: user.id,
    rules: PASSPORT_SESSION_RULES,
    token: { token: key.key, hash: key.hash },
  });
  await recordPassportAudit(db, user.id, 'passport.signed_in');
  return { ...session, user };
}

export const passportUnauthorized = () =>
  new ApiError(401, 'unauthorized', 'Send `Authorization: Bearer <session_token>` from POST /v1/uui/otp/verify; this session is unknown or expired.', {
    headers: { 'WWW-Authenticate': 'Bearer' },
  });

export interface PassportAuth {
  passportUserId: string;
  email: string;
  createdAt: Date;
  csrfToken: string;
  expiresAt: Date;
}

/** The live passport session of a `mem_ps_…` token, or null (expired and idle ones are deleted when seen). */
export async function resolvePassportSession(db: Db, token: string): Promise<PassportAuth | null> {
  if (!token.startsWith('mem_ps_') || token.length > 200) return null;
  const session = await findSession(db, PASSPORT_AUDIENCE, token, PASSPORT_SESSION_RULES);
  if (!session) return null;
  const [user] = await db.select().from(passportUsers).where(eq(passportUsers.id, session.subjectId)).limit(1);
  if (!user) return null;
  return { passportUserId: user.id, email: user.email, createdAt: user.createdAt, csrfToken: session.csrfToken, expiresAt: session.expiresAt };
}

export const endPassportSession = (db: Db, token: string) => deleteSession(db, PASSPORT_AUDIENCE, token);

export const passportMeView = (auth: PassportAuth) => ({
  id: auth.passportUserId,
  email: auth.email,
  created_at: auth.createdAt.toISOString(),
  session_expires_at: auth.expiresAt.toISOString(),
});

/**
 * Erases the passport (GDPR Art. 17): deleting the passport_users row cascades to universal memories, jobs and
 * reviews, grants, connections, link tokens and X-Service-UUI tokens; its sessions and codes go too. One
 * passport_audit entry with counts, never content, outlives it.
 */
export async function deletePassport(db: Db, passportUserId: string): Promise<{ id: string; deleted: true }> {
  await db.transaction(async (tx) => {
    const [user] = await tx.select().from(passportUsers).where(eq(passportUsers.id, passportUserId)).limit(1);
    if (!user) throw Errors.notFound('The passport');
    const [counts] = await rows<{ grants: number | string; connections: number | string; memories: number | string }>(
      tx,
      sql`SELECT (SELECT count(*) FROM grants WHERE passport_user_id = ${user.id}) AS grants,
                 (SELECT count(*) FROM passport_connections WHERE passport_user_id = ${user.id}) AS connections,
                 (SELECT count(*) FROM universal_memories WHERE passport_user_id = ${user.id}) AS memories`,
    );
    await tx.delete(sessions).where(and(eq(sessions.audience, PASSPORT_AUDIENCE), eq(sessions.subjectId, user.id)));
    await tx.delete(otpCodes).where(and(eq(otpCodes.audience, PASSPORT_AUDIENCE), eq(otpCodes.emailHash, emailHash(user.email))));
    await tx.delete(passportUsers).where(eq(passportUsers.id, user.id));
    await recordPassportAudit(tx, user.id, 'passport.deleted', {
      grants: Number(counts?.grants ?? 0),
      connections: Number(counts?.connections ?? 0),
      universal_memories: Number(counts?.memories ?? 0),
    });
  });
  return { id: passportUserId, deleted: true };
}
