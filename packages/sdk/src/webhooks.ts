/**
 * Standard Webhooks v1 (https://www.standardwebhooks.com): the signature every memory-service webhook carries,
 * and the check a receiver runs before trusting a delivery. Only node:crypto; the server signs with `signWebhook`
 * from this module, so the signer and the verifier cannot drift apart.
 *
 *   webhook-id:        msg_…                 (the same on every retry of one event)
 *   webhook-timestamp: seconds since the epoch
 *   webhook-signature: v1,<base64 HMAC-SHA256(key, `${id}.${timestamp}.${body}`)> [space v1,<…> …]
 *
 * The HMAC key is the base64 part of the `whsec_…` secret, decoded. After a secret rotation the header holds
 * one signature per live secret; a receiver that knows either secret accepts the delivery.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const WEBHOOK_SECRET_PREFIX = 'whsec_';
/** Receivers refuse deliveries whose timestamp is further than this from their clock (replay protection). */
export const DEFAULT_TOLERANCE_SECONDS = 5 * 60;

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

/** A new signing secret: `whsec_` + base64 of 32 random bytes (the spec allows 24–64). */
export function generateWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(32).toString('base64');
}

function secretKey(secret: string): Buffer {
  const raw = secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret;
  const key = Buffer.from(raw, 'base64');
  if (key.length < 24 || key.length > 64) throw new WebhookVerificationError('the webhook secret is not a whsec_ secret of 24–64 bytes');
  return key;
}

const signatureOf = (secret: string, id: string, timestamp: number | string, body: string | Buffer) =>
  createHmac('sha256', secretKey(secret))
    .update(`${id}.${timestamp}.`)
    .update(body)
    .digest('base64');

/** The `webhook-signature` header value: one `v1,<sig>` per secret, space-separated. */
export function signWebhook(secrets: string | readonly string[], id: string, timestamp: number, body: string | Buffer): string {
  const list = typeof secrets === 'string' ? [secrets] : secrets;
  return list.map((s) => `v1,${signatureOf(s, id, timestamp, body)}`).join(' ');
}

/** The three headers of a delivery, for a body signed at `timestamp` (seconds). */
export function webhookHeaders(secrets: string | readonly string[], id: string, timestamp: number, body: string): Record<string, string> {
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signWebhook(secrets, id, timestamp, body) };
}

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const rec = headers as Record<string, string | string[] | undefined>;
  const found = Object.keys(rec).find((k) => k.toLowerCase() === name);
  const v = found === undefined ? undefined : rec[found];
  return Array.isArray(v) ? v[0] : v;
}

export interface VerifyOptions {
  /** Largest accepted distance between the delivery's timestamp and now, in seconds (default 300). */
  toleranceSeconds?: number;
  /** The receiver's clock, for tests. */
  now?: Date;
}

export interface VerifiedWebhook<T = unknown> {
  id: string;
  timestamp: Date;
  /** The parsed body: `{ type, timestamp, data }`. */
  payload: T;
}

/**
 * Checks a delivery and returns its parsed body, or throws `WebhookVerificationError`. Pass the raw body
 * exactly as received (a string or the bytes): re-serialised JSON would not match the signature.
 * `secretOrSecrets` may list several secrets (e.g. during your own rotation); any one matching is enough.
 */
export function verifyWebhook<T = unknown>(
  secretOrSecrets: string | readonly string[],
  headers: HeaderSource,
  rawBody: string | Buffer,
  opts: VerifyOptions = {},
): VerifiedWebhook<T> {
  const id = header(headers, 'webhook-id');
  const ts = header(headers, 'webhook-timestamp');
  const sigHeader = header(headers, 'webhook-signature');
  if (!id || !ts || !sigHeader) throw new WebhookVerificationError('missing webhook-id, webhook-timestamp or webhook-signature');
  if (!/^\d{1,12}$/.test(ts)) throw new WebhookVerificationError('webhook-timestamp is not a number of seconds');
  const tolerance = opts.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const nowSeconds = Math.floor((opts.now ?? new Date()).getTime() / 1000);
  const timestamp = Number(ts);
  if (Math.abs(nowSeconds - timestamp) > tolerance) throw new WebhookVerificationError('webhook-timestamp is outside the tolerance');
  const secrets = typeof secretOrSecrets === 'string' ? [secretOrSecrets] : secretOrSecrets;
  const expected = secrets.map((s) => Buffer.from(signatureOf(s, id, ts, rawBody), 'base64'));
  const offered = sigHeader
    .split(' ')
    .map((part) => part.split(','))
    .filter(([version, sig]) => version === 'v1' && sig)
    .map(([, sig]) => Buffer.from(sig, 'base64'));
  const match = offered.some((got) => expected.some((want) => got.length === want.length && timingSafeEqual(got, want)));
  if (!match) throw new WebhookVerificationError('no signature matches');
  const text = typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8');
  let payload: T;
  try {
    payload = JSON.parse(text) as T;
  } catch {
    throw new WebhookVerificationError('the body is not JSON');
  }
  return { id, timestamp: new Date(timestamp * 1000), payload };
}
