/**
 * Sign-in with an e-mailed one-time code, for the console (audience `admin`, docs/console.md) and the passport
 * (audience `passport`, docs/passport.md). Every request for a code writes a row,
 * for account holders and for unknown addresses alike (the latter with the hash of a code nobody is told), so the
 * answer, the throttles and the attempt counter behave the same whether or not the address has an account.
 */
import { randomUUID } from 'node:crypto';
import { type Audience, type Db, adminUsers, and, desc, eq, gt, isNull, otpCodes, rows, sql } from '@memory/db';
import { ApiError } from '../errors';
import { recordAudit } from '../audit/audit';
import type { Mailer } from './mailer';
import {
  ADMIN_AUDIENCE,
  OTP_RULES,
  codeVerdict,
  emailHash,
  generateCode,
  hashCode,
  isWellFormedCode,
  normalizeEmail,
  throttleRetryAfter,
} from './rules';

export const rateLimited = (retryAfterSeconds: number) =>
  new ApiError(429, 'rate_limited', `Too many codes were requested. Try again in ${retryAfterSeconds} seconds.`, {
    headers: { 'Retry-After': String(retryAfterSeconds) },
    fields: { retry_after_seconds: retryAfterSeconds },
  });

/** One message for every failed verification: wrong, expired, used, locked or unknown address. */
const invalidCode = () =>
  new ApiError(401, 'unauthorized', 'The code is not valid. Check it, or request a new code (codes last 10 minutes and allow 5 tries).');

interface CountRow {
  n: number | string;
  oldest: Date | string | null;
}

async function sendCounts(db: Db, audience: Audience, hash: string, ip: string, since: Date) {
  const [byEmail] = await rows<CountRow>(
    db,
    sql`SELECT count(*) AS n, min(created_at) AS oldest FROM otp_codes
        WHERE audience = ${audience} AND email_hash = ${hash} AND created_at > ${since.toISOString()}::timestamptz`,
  );
  const [byIp] = await rows<CountRow>(
    db,
    sql`SELECT count(*) AS n, min(created_at) AS oldest FROM otp_codes
        WHERE audience = ${audience} AND request_ip = ${ip} AND created_at > ${since.toISOString()}::timestamptz`,
  );
  const toCount = (r: CountRow | undefined) => ({ count: Number(r?.n ?? 0), oldest: r?.oldest ? new Date(r.oldest) : null });
  return { email: toCount(byEmail), ip: toCount(byIp) };
}

/** Who may receive a code of one audience, and the mail that carries it. */
export interface CodeIssuer {
  /** `admin` (console) or `passport`: codes, throttles and sessions of one audience never mix with another's. */
  audience: Audience;
  /** Whether the (normalised) address gets mail. The others get a row hashed from a code nobody receives. */
  receives(db: Db, address: string): Promise<boolean>;
  mail(code: string): { subject: string; text: string };
}

/**
 * Issues a new code for the address, replacing any earlier one of the audience. Throttled per address and per
 * IP (429 with Retry-After). Mails only addresses the issuer accepts; the caller answers the same either way.
 */
export async function issueCode(db: Db, mailer: Mailer, issuer: CodeIssuer, input: { email: string; ip: string; now?: Date }): Promise<void> {
  // Checked first and for every address alike, so an unconfigured server reveals nothing about accounts.
  if (mailer.kind === 'none') await mailer.send({ to: '', subject: '', text: '' });
  const now = input.now ?? new Date();
  const address = normalizeEmail(input.email);
  const hash = emailHash(address);
  const since = new Date(now.getTime() - OTP_RULES.throttleWindowMs);
  const wait = throttleRetryAfter(await sendCounts(db, issuer.audience, hash, input.ip, since), now);
  if (wait !== null) throw rateLimited(wait);

  const receives = await issuer.receives(db, address);
  const id = randomUUID();
  const code = generateCode();
  // Unknown addresses get a row too, hashed from a code nobody receives.
  const stored = receives ? code : generateCode() + randomUUID();
  await db.transaction(async (tx) => {
    await tx
      .update(otpCodes)
      .set({ consumedAt: now })
      .where(and(eq(otpCodes.audience, issuer.audience), eq(otpCodes.emailHash, hash), isNull(otpCodes.consumedAt)));
    await tx.insert(otpCodes).values({
      id,
      audience: issuer.audience,
      emailHash: hash,
      codeHash: hashCode(id, stored),
      expiresAt: new Date(now.getTime() + OTP_RULES.ttlMs),
      requestIp: input.ip,
      createdAt: now,
    });
  });
  if (receives) await mailer.send({ to: address, ...issuer.mail(code) });
}

/**
 * Checks a code for the address. Right: consumes it (atomically, so a code works once) and returns the
 * normalised address. Wrong: counts the attempt; after OTP_RULES.maxWrongAttempts the code is dead.
 * Every failure is `invalidCode()`.
 */
export async function consumeCode(db: Db, audience: Audience, input: { email: string; code: string; now?: Date }): Promise<string> {
  const now = input.now ?? new Date();
  const address = normalizeEmail(input.email);
  const hash = emailHash(address);
  const [latest] = await db
    .select()
    .from(otpCodes)
    .where(and(eq(otpCodes.audience, audience), eq(otpCodes.emailHash, hash)))
    .orderBy(desc(otpCodes.createdAt), desc(otpCodes.id))
    .limit(1);
  if (!latest || codeVerdict(latest, now) !== 'usable') throw invalidCode();
  const code = input.code.trim();
  if (isWellFormedCode(code)) {
    const [used] = await db
      .update(otpCodes)
      .set({ consumedAt: now })
      .where(
        and(
          eq(otpCodes.id, latest.id),
          eq(otpCodes.codeHash, hashCode(latest.id, code)),
          isNull(otpCodes.consumedAt),
          sql`${otpCodes.attempts} < ${OTP_RULES.maxWrongAttempts}`,
          gt(otpCodes.expiresAt, now),
        ),
      )
      .returning({ id: otpCodes.id });
    if (used) return address;
  }
  await db
    .update(otpCodes)
    .set({ attempts: sql`${otpCodes.attempts} + 1` })
    .where(and(eq(otpCodes.id, latest.id), isNull(otpCodes.consumedAt)));
  throw invalidCode();
}

const adminIssuer: CodeIssuer = {
  audience: ADMIN_AUDIENCE,
  async receives(db, address) {
    const [admin] = await db.select({ id: adminUsers.id }).from(adminUsers).where(eq(adminUsers.email, address)).limit(1);
    return Boolean(admin);
  },
  mail: (code) => ({
    subject: 'Your Memory Service console sign-in code',
    text: [
      `Your sign-in code is ${code}`,
      '',
      `It is valid for ${OTP_RULES.ttlMs / 60_000} minutes and can be used once.`,
      'If you did not ask to sign in, ignore this message.',
    ].join('\n'),
  }),
};

/** A console sign-in code: mailed only to admins; the caller answers the same either way. */
export async function requestSignInCode(db: Db, mailer: Mailer, input: { email: string; ip: string; now?: Date }): Promise<void> {
  await issueCode(db, mailer, adminIssuer, input);
}

/** Checks a console code and returns the admin (every failure is `invalidCode()`). */
export async function verifySignInCode(
  db: Db,
  input: { email: string; code: string; now?: Date },
): Promise<{ adminId: string; tenantId: string; email: string }> {
  const address = await consumeCode(db, ADMIN_AUDIENCE, input);
  const [admin] = await db.select().from(adminUsers).where(eq(adminUsers.email, address)).limit(1);
  if (!admin) throw invalidCode();
  await recordAudit(db, { tenantId: admin.tenantId, actor: `admin:${admin.id}`, action: 'console.sign_in', targetType: 'admin_user', targetId: admin.id });
  return { adminId: admin.id, tenantId: admin.tenantId, email: admin.email };
}
