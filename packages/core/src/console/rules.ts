/**
 * The console's sign-in rules as numbers and pure decisions (docs/console.md): one-time codes, send
 * throttles, session expiry, cookies and the same-origin check. The database code in otp.ts and sessions.ts
 * applies them; the unit tests beside this file pin them.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { sha256Hex } from '../crypto';
import { CLIENT_ADDRESS_HEADER } from '../http/client-address';
import { normalizeEmail } from '../schemas/email';

export const OTP_RULES = {
  digits: 6,
  ttlMs: 10 * 60_000,
  maxWrongAttempts: 5,
  /** Sends per e-mail address in the window (counted whether or not the address belongs to an admin). */
  perEmailSends: 3,
  /** Sends per client IP in the window. */
  perIpSends: 20,
  throttleWindowMs: 10 * 60_000,
} as const;

export interface SessionRules {
  idleMs: number;
  absoluteMs: number;
  /** last_seen_at is written at most this often, so reading pages does not write on every request. */
  touchEveryMs: number;
  tokenBytes: number;
}

export const SESSION_RULES = {
  idleMs: 30 * 60_000,
  absoluteMs: 12 * 60 * 60_000,
  /** last_seen_at is written at most this often, so reading pages does not write on every request. */
  touchEveryMs: 30_000,
  tokenBytes: 32,
} as const;

export const SESSION_COOKIE = 'memory_console_session';

/** Audience of console codes and sessions in the shared otp_codes / sessions tables. */
export const ADMIN_AUDIENCE = 'admin';

export { normalizeEmail };

/** SHA-256 of the normalised address: throttles and code lookups work without storing the address. */
export const emailHash = (email: string): string => sha256Hex(normalizeEmail(email));

/** A uniformly random code of OTP_RULES.digits digits, leading zeros kept. */
export function generateCode(): string {
  return String(randomInt(0, 10 ** OTP_RULES.digits)).padStart(OTP_RULES.digits, '0');
}

/** Codes are stored as SHA-256 over the row id and the code, so equal codes of two rows never share a hash. */
export const hashCode = (otpId: string, code: string): string => sha256Hex(`${otpId}:${code.trim()}`);

export const isWellFormedCode = (code: string): boolean => new RegExp(`^\\d{${OTP_RULES.digits}}$`).test(code.trim());

export interface CodeState {
  expiresAt: Date;
  consumedAt: Date | null;
  attempts: number;
}

export type CodeVerdict = 'usable' | 'expired' | 'consumed' | 'locked';

/** Whether a stored code may still be tried (before comparing the hash). */
export function codeVerdict(c: CodeState, now: Date): CodeVerdict {
  if (c.consumedAt) return 'consumed';
  if (c.attempts >= OTP_RULES.maxWrongAttempts) return 'locked';
  if (c.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'usable';
}

export interface SendCounts {
  /** Codes requested for this e-mail hash inside the window, and when the oldest of them was. */
  email: { count: number; oldest: Date | null };
  ip: { count: number; oldest: Date | null };
}

/** null when a send is allowed, otherwise the seconds until it will be (for Retry-After). */
export function throttleRetryAfter(c: SendCounts, now: Date): number | null {
  const waits: number[] = [];
  if (c.email.count >= OTP_RULES.perEmailSends) waits.push(secondsUntilFree(c.email.oldest, now));
  if (c.ip.count >= OTP_RULES.perIpSends) waits.push(secondsUntilFree(c.ip.oldest, now));
  return waits.length ? Math.max(...waits) : null;
}

function secondsUntilFree(oldest: Date | null, now: Date): number {
  if (!oldest) return Math.ceil(OTP_RULES.throttleWindowMs / 1000);
  return Math.max(1, Math.ceil((oldest.getTime() + OTP_RULES.throttleWindowMs - now.getTime()) / 1000));
}

export interface SessionTimes {
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
}

export type SessionVerdict = 'valid' | 'idle' | 'expired';

export function sessionVerdict(s: SessionTimes, now: Date, rules: SessionRules = SESSION_RULES): SessionVerdict {
  if (s.expiresAt.getTime() <= now.getTime() || now.getTime() - s.createdAt.getTime() >= rules.absoluteMs) return 'expired';
  if (now.getTime() - s.lastSeenAt.getTime() >= rules.idleMs) return 'idle';
  return 'valid';
}

export const shouldTouch = (s: SessionTimes, now: Date, rules: SessionRules = SESSION_RULES): boolean =>
  now.getTime() - s.lastSeenAt.getTime() >= rules.touchEveryMs;

/** A new opaque token (the cookie value) and its SHA-256 (the stored key). */
export function newSessionToken(): { token: string; hash: string } {
  const token = randomBytes(SESSION_RULES.tokenBytes).toString('base64url');
  return { token, hash: sha256Hex(token) };
}

export const newCsrfToken = (): string => randomBytes(32).toString('base64url');

export interface CookieOptions {
  secure: boolean;
  maxAgeSeconds: number;
  /** The console uses Strict; the passport uses Lax so the top-level navigation from a tenant's site keeps it. */
  sameSite?: 'Strict' | 'Lax';
  name?: string;
}

export function sessionCookie(token: string, opts: CookieOptions): string {
  const parts = [`${opts.name ?? SESSION_COOKIE}=${token}`, 'Path=/', 'HttpOnly', `SameSite=${opts.sameSite ?? 'Strict'}`, `Max-Age=${opts.maxAgeSeconds}`];
  if (opts.secure) parts.push('Secure');
  return parts.join('; ');
}

export function clearedSessionCookie(opts: Omit<CookieOptions, 'maxAgeSeconds'>): string {
  return sessionCookie('', { ...opts, maxAgeSeconds: 0 });
}

/** The session token from a Cookie header (cookie `name`, the console's by default), or null. */
export function readSessionCookie(cookieHeader: string | null, name: string = SESSION_COOKIE): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      return /^[A-Za-z0-9_-]{20,100}$/.test(value) ? value : null;
    }
  }
  return null;
}

/**
 * Same-origin check for browser requests: an Origin header, when present, must name the host the request
 * was sent to; a `Sec-Fetch-Site: cross-site` request is refused too. Requests without either header
 * (non-browser clients) pass; mutations still need the session's CSRF token.
 */
export function isSameOrigin(headers: { origin: string | null; host: string | null; secFetchSite: string | null }): boolean {
  if (headers.secFetchSite === 'cross-site') return false;
  if (!headers.origin) return true;
  if (headers.origin === 'null' || !headers.host) return false;
  try {
    return new URL(headers.origin).host.toLowerCase() === headers.host.toLowerCase();
  } catch {
    return false;
  }
}

/**
 * The client address used by the send throttles: what the HTTP server (apps/web/server.ts) worked out from the
 * TCP peer and, through trusted proxies only, X-Forwarded-For (docs/operations.md, "Client addresses and proxies").
 */
export function clientIp(headers: Headers): string {
  return headers.get(CLIENT_ADDRESS_HEADER)?.trim().slice(0, 64) || 'unknown';
}
