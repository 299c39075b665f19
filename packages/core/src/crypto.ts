import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const sha256Hex = (value: string | Buffer): string => createHash('sha256').update(value).digest('hex');

/** Key prefixes make leaked keys recognisable in logs and secret scanners. */
export const KEY_PREFIXES = {
  tenant: 'mem_sk_',
  agent: 'mem_ak_',
  /** X-Service-UUI: one agent's token for one passport user. */
  uui: 'mem_uui_',
  /** Passport session tokens (returned by POST /v1/uui/otp/verify). */
  passportSession: 'mem_ps_',
  /** Consent link tokens (POST /v1/tenant/memory-passport/link-token). */
  link: 'mem_lt_',
} as const;

export interface GeneratedKey {
  key: string;
  hash: string;
  displayPrefix: string;
  last4: string;
}

/** 32 random bytes, base64url, behind a recognisable prefix. Only the SHA-256 is stored. */
export function generateKey(kind: keyof typeof KEY_PREFIXES): GeneratedKey {
  const key = KEY_PREFIXES[kind] + randomBytes(32).toString('base64url');
  return { key, hash: sha256Hex(key), displayPrefix: key.slice(0, KEY_PREFIXES[kind].length + 4), last4: key.slice(-4) };
}

export function constantTimeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

/**
 * Canonical JSON: object keys sorted, no insignificant whitespace, `undefined` members dropped.
 * Used for payload hashes and idempotency fingerprints (documented in docs/provenance.md).
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}
