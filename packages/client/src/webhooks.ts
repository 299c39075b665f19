/**
 * Webhook verification on WebCrypto (browsers, edge runtimes, Node ≥ 20): the Standard Webhooks v1 check of
 * packages/sdk (the server's signer), asynchronous because `crypto.subtle` is.
 *
 *   webhook-signature: v1,<base64 HMAC-SHA256(key, `${webhook-id}.${webhook-timestamp}.${body}`)> [space …]
 *
 * The key is the base64 part of the `whsec_…` secret. Also: JobWaiter, which lets `addAndWait` resolve from a
 * verified `job.completed`/`job.failed` delivery instead of polling.
 */
import { MemoryTimeoutError } from './errors.js';

export const WEBHOOK_SECRET_PREFIX = 'whsec_';
export const DEFAULT_TOLERANCE_SECONDS = 5 * 60;

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** Largest accepted distance between the delivery's timestamp and now, in seconds (default 300). */
  toleranceSeconds?: number;
  now?: Date;
}

/** A delivery's body: `{ type, timestamp, data }`. */
export interface WebhookEvent<D = Record<string, unknown>> {
  type: string;
  timestamp: string;
  data: D;
}

export interface VerifiedWebhook<T = WebhookEvent> {
  id: string;
  timestamp: Date;
  payload: T;
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const rec = headers as Record<string, string | string[] | undefined>;
  const found = Object.keys(rec).find((k) => k.toLowerCase() === name);
  const v = found === undefined ? undefined : rec[found];
  return Array.isArray(v) ? v[0] : v;
}

function fromBase64(s: string): Uint8Array<ArrayBuffer> {
  try {
    return Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
  } catch {
    return new Uint8Array(0);
  }
}

async function hmacKey(secret: string): Promise<CryptoKey> {
  const raw = fromBase64(secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret);
  if (raw.length < 24 || raw.length > 64) throw new WebhookVerificationError('the webhook secret is not a whsec_ secret of 24–64 bytes');
  return crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

/**
 * Checks a delivery and returns its parsed body, or rejects with WebhookVerificationError. Pass the raw body exactly
 * as received (text or bytes). `secretOrSecrets` may list several secrets; any one matching is enough.
 */
export async function verifyWebhook<T = WebhookEvent>(
  secretOrSecrets: string | readonly string[],
  headers: WebhookHeaders,
  rawBody: string | Uint8Array,
  opts: VerifyOptions = {},
): Promise<VerifiedWebhook<T>> {
  const id = header(headers, 'webhook-id');
  const ts = header(headers, 'webhook-timestamp');
  const sigHeader = header(headers, 'webhook-signature');
  if (!id || !ts || !sigHeader) throw new WebhookVerificationError('missing webhook-id, webhook-timestamp or webhook-signature');
  if (!/^\d{1,12}$/.test(ts)) throw new WebhookVerificationError('webhook-timestamp is not a number of seconds');
  const nowSeconds = Math.floor((opts.now ?? new Date()).getTime() / 1000);
  if (Math.abs(nowSeconds - Number(ts)) > (opts.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS)) {
    throw new WebhookVerificationError('webhook-timestamp is outside the tolerance');
  }
  const body = typeof rawBody === 'string' ? new TextEncoder().encode(rawBody) : rawBody;
  const prefix = new TextEncoder().encode(`${id}.${ts}.`);
  const signed = new Uint8Array(prefix.length + body.length);
  signed.set(prefix);
  signed.set(body, prefix.length);
  const secrets = typeof secretOrSecrets === 'string' ? [secretOrSecrets] : secretOrSecrets;
  const expected = await Promise.all(secrets.map(async (s) => new Uint8Array(await crypto.subtle.sign('HMAC', await hmacKey(s), signed))));
  const offered = sigHeader
    .split(' ')
    .map((part) => part.split(','))
    .filter(([version, sig]) => version === 'v1' && sig)
    .map(([, sig]) => fromBase64(sig));
  if (!offered.some((got) => expected.some((want) => sameBytes(got, want)))) throw new WebhookVerificationError('no signature matches');
  let payload: T;
  try {
    payload = JSON.parse(new TextDecoder().decode(body)) as T;
  } catch {
    throw new WebhookVerificationError('the body is not JSON');
  }
  return { id, timestamp: new Date(Number(ts) * 1000), payload };
}

/** The `data` of `job.completed` and `job.failed` (docs/webhooks.md). */
export interface JobEventData {
  job_id: string;
  kind: string;
  status: string;
  external_user_id: string;
  [key: string]: unknown;
}

/**
 * Resolves waits for jobs from webhook deliveries: hand every verified payload to `deliver` (in your webhook
 * handler), pass the waiter to `addAndWait({ waiter })`. Events that arrive before the wait starts are kept.
 */
export class JobWaiter {
  private readonly waiting = new Map<string, (data: JobEventData) => void>();
  private readonly arrived = new Map<string, JobEventData>();

  /** Takes a verified delivery's payload; true when it was a job event. */
  deliver(payload: unknown): boolean {
    const event = payload as Partial<WebhookEvent<JobEventData>> | null;
    if (!event || (event.type !== 'job.completed' && event.type !== 'job.failed') || typeof event.data?.job_id !== 'string') return false;
    const resolve = this.waiting.get(event.data.job_id);
    if (resolve) resolve(event.data);
    else this.arrived.set(event.data.job_id, event.data);
    return true;
  }

  /** The job's `job.completed`/`job.failed` data, or MemoryTimeoutError after `timeoutMs`. */
  wait(jobId: string, timeoutMs: number, signal?: AbortSignal): Promise<JobEventData> {
    const early = this.arrived.get(jobId);
    if (early) {
      this.arrived.delete(jobId);
      return Promise.resolve(early);
    }
    return new Promise((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        this.waiting.delete(jobId);
        signal?.removeEventListener('abort', onAbort);
      };
      const onAbort = () => {
        done();
        reject(signal?.reason);
      };
      const timer = setTimeout(() => {
        done();
        reject(new MemoryTimeoutError(`no webhook for job ${jobId} within ${timeoutMs} ms`));
      }, timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(jobId, (data) => {
        done();
        resolve(data);
      });
    });
  }
}
