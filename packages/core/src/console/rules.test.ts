import { describe, expect, it } from 'vitest';
import {
  OTP_RULES,
  SESSION_COOKIE,
  SESSION_RULES,
  clearedSessionCookie,
  codeVerdict,
  emailHash,
  generateCode,
  hashCode,
  isSameOrigin,
  isWellFormedCode,
  newSessionToken,
  readSessionCookie,
  sessionCookie,
  sessionVerdict,
  shouldTouch,
  throttleRetryAfter,
} from './rules';
import { sha256Hex } from '../crypto';

const t0 = new Date('2026-01-01T12:00:00Z');
const at = (ms: number) => new Date(t0.getTime() + ms);

describe('one-time codes', () => {
  it('are six digits, leading zeros kept, and vary', () => {
    const codes = new Set(Array.from({ length: 200 }, generateCode));
    for (const c of codes) expect(c).toMatch(/^\d{6}$/);
    expect(codes.size).toBeGreaterThan(190);
    expect(OTP_RULES.digits).toBe(6);
  });

  it('are stored as SHA-256 bound to the row, never as the code', () => {
    const h = hashCode('row-1', '012345');
    expect(h).toMatch(/^[0-9a-f]{64}$/);
    expect(h).not.toContain('012345');
    expect(hashCode('row-2', '012345')).not.toBe(h);
    expect(hashCode('row-1', ' 012345 ')).toBe(h);
  });

  it('accepts only well-formed codes', () => {
    expect(isWellFormedCode('123456')).toBe(true);
    for (const bad of ['12345', '1234567', '12a456', '', '12 456']) expect(isWellFormedCode(bad)).toBe(false);
  });

  it('can be tried for 10 minutes, once, with at most 5 wrong attempts', () => {
    const fresh = { expiresAt: at(OTP_RULES.ttlMs), consumedAt: null, attempts: 0 };
    expect(OTP_RULES.ttlMs).toBe(600_000);
    expect(codeVerdict(fresh, at(OTP_RULES.ttlMs - 1))).toBe('usable');
    expect(codeVerdict(fresh, at(OTP_RULES.ttlMs))).toBe('expired');
    expect(codeVerdict({ ...fresh, consumedAt: at(1) }, at(2))).toBe('consumed');
    expect(codeVerdict({ ...fresh, attempts: 4 }, at(1))).toBe('usable');
    expect(codeVerdict({ ...fresh, attempts: 5 }, at(1))).toBe('locked');
  });

  it('hashes addresses case- and space-insensitively', () => {
    expect(emailHash(' Ada@Example.COM ')).toBe(sha256Hex('ada@example.com'));
  });
});

describe('send throttles', () => {
  const none = { count: 0, oldest: null };
  it('allow 3 sends per address and 20 per IP in 10 minutes', () => {
    expect(throttleRetryAfter({ email: { count: 2, oldest: t0 }, ip: { count: 19, oldest: t0 } }, at(1000))).toBeNull();
    expect(throttleRetryAfter({ email: { count: 3, oldest: t0 }, ip: none }, at(60_000))).toBe(540);
    expect(throttleRetryAfter({ email: none, ip: { count: 20, oldest: t0 } }, at(599_500))).toBe(1);
  });
  it('report the longer wait when both apply', () => {
    expect(throttleRetryAfter({ email: { count: 3, oldest: at(-300_000) }, ip: { count: 20, oldest: t0 } }, t0)).toBe(600);
  });
});

describe('sessions', () => {
  const s = { createdAt: t0, lastSeenAt: t0, expiresAt: at(SESSION_RULES.absoluteMs) };
  it('expire after 30 idle minutes', () => {
    expect(sessionVerdict(s, at(29 * 60_000))).toBe('valid');
    expect(sessionVerdict(s, at(30 * 60_000))).toBe('idle');
  });
  it('expire 12 hours after sign-in however active', () => {
    const active = { ...s, lastSeenAt: at(SESSION_RULES.absoluteMs - 1000) };
    expect(sessionVerdict(active, at(SESSION_RULES.absoluteMs - 1))).toBe('valid');
    expect(sessionVerdict(active, at(SESSION_RULES.absoluteMs))).toBe('expired');
    expect(SESSION_RULES.absoluteMs).toBe(12 * 3600_000);
  });
  it('record activity at most every 30 seconds', () => {
    expect(shouldTouch(s, at(10_000))).toBe(false);
    expect(shouldTouch(s, at(30_000))).toBe(true);
  });
  it('use 32 random bytes and store only the SHA-256', () => {
    const a = newSessionToken();
    expect(Buffer.from(a.token, 'base64url').length).toBe(32);
    expect(a.hash).toBe(sha256Hex(a.token));
    expect(newSessionToken().token).not.toBe(a.token);
  });
});

describe('cookies', () => {
  it('are HttpOnly and SameSite=Strict, Secure on https', () => {
    const c = sessionCookie('tok', { secure: false, maxAgeSeconds: 60 });
    expect(c).toBe(`${SESSION_COOKIE}=tok; Path=/; HttpOnly; SameSite=Strict; Max-Age=60`);
    expect(sessionCookie('tok', { secure: true, maxAgeSeconds: 60 })).toMatch(/; Secure$/);
    expect(clearedSessionCookie({ secure: false })).toContain('Max-Age=0');
  });
  it('are read back from a Cookie header, ignoring other cookies and malformed values', () => {
    const token = newSessionToken().token;
    expect(readSessionCookie(`a=b; ${SESSION_COOKIE}=${token}; c=d`)).toBe(token);
    expect(readSessionCookie(`${SESSION_COOKIE}=short`)).toBeNull();
    expect(readSessionCookie(`${SESSION_COOKIE}=${token};x`.replace(token, `${token.slice(0, 30)}%00`))).toBeNull();
    expect(readSessionCookie(null)).toBeNull();
  });
});

describe('same-origin check', () => {
  it('passes same-origin and header-less requests, refuses other origins', () => {
    expect(isSameOrigin({ origin: 'http://localhost:3000', host: 'localhost:3000', secFetchSite: 'same-origin' })).toBe(true);
    expect(isSameOrigin({ origin: null, host: 'localhost:3000', secFetchSite: null })).toBe(true);
    expect(isSameOrigin({ origin: 'https://evil.example', host: 'localhost:3000', secFetchSite: null })).toBe(false);
    expect(isSameOrigin({ origin: 'null', host: 'localhost:3000', secFetchSite: null })).toBe(false);
    expect(isSameOrigin({ origin: null, host: 'localhost:3000', secFetchSite: 'cross-site' })).toBe(false);
    expect(isSameOrigin({ origin: 'http://localhost:3001', host: 'localhost:3000', secFetchSite: null })).toBe(false);
  });
});
