/**
 * The transport under every operation: the base URL and `Authorization: ApiKey …`, one `Idempotency-Key` per call
 * reused by all its retries, retries with exponential backoff on 429 and 503 (and on network errors when the call
 * is safe to repeat) honouring `Retry-After`, problem+json answers turned into MemoryApiError, and the response
 * envelope's `data` returned. Only `fetch` and `crypto.randomUUID` from the platform.
 */
import { MemoryApiError } from './errors.js';

export interface ClientOptions {
  /** The service's origin, e.g. `http://localhost:3000` (a trailing `/v1` is accepted). */
  baseUrl: string;
  /** A tenant API key (`mem_sk_…`), or an agent key (`mem_ak_…`) for the universal endpoints and the link-token exchange. */
  apiKey?: string;
  /** Defaults to `globalThis.fetch`. */
  fetch?: typeof fetch;
  /** Retries after the first attempt on 429/503 and network errors (default 3). */
  maxRetries?: number;
  /** First backoff delay in milliseconds, doubled on each retry, with jitter (default 500). */
  retryDelayMs?: number;
  /** Longest wait between two attempts, `Retry-After` included (default 30 000). */
  maxRetryDelayMs?: number;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** Makes an idempotency key (default `crypto.randomUUID()`). */
  idempotencyKey?: () => string;
  /** Waits between attempts (tests replace it). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface RequestOptions {
  signal?: AbortSignal;
  /** The key of this call for the operations that honour `Idempotency-Key`; generated when absent. */
  idempotencyKey?: string;
  headers?: Record<string, string>;
}

type QueryValue = string | number | boolean | null | undefined;

export interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The path with its parameters, e.g. `/v1/memories/jobs/{job_id}`. */
  path: string;
  params?: Record<string, string>;
  query?: object;
  body?: unknown;
  /** The operation honours `Idempotency-Key`. */
  idempotent?: boolean;
  headers?: Record<string, string>;
}

const RETRY_STATUSES = new Set([429, 503]);

export const defaultSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** `Retry-After` as seconds (a number of seconds or an HTTP date), or undefined. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, (at - now) / 1000);
}

export class Transport {
  private readonly base: string;
  private readonly fetchImpl: typeof fetch;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;

  constructor(readonly options: ClientOptions) {
    this.base = options.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
    const f = options.fetch ?? globalThis.fetch;
    if (typeof f !== 'function') throw new TypeError('no fetch: pass options.fetch');
    this.fetchImpl = f.bind(globalThis) as typeof fetch;
    this.sleep = options.sleep ?? defaultSleep;
  }

  url(call: Pick<Call, 'path' | 'params' | 'query'>): string {
    const path = call.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
      const v = call.params?.[name];
      if (v === undefined) throw new TypeError(`missing path parameter ${name}`);
      return encodeURIComponent(v);
    });
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries((call.query ?? {}) as Record<string, QueryValue>)) {
      if (v !== undefined && v !== null) search.set(k, String(v));
    }
    const qs = search.toString();
    return `${this.base}${path}${qs ? `?${qs}` : ''}`;
  }

  /** Sends one call (with its retries) and returns the envelope's `data`, or the body when it has none. */
  async send<T>(call: Call, opts: RequestOptions = {}): Promise<T> {
    const body = await this.sendRaw(call, opts);
    return unwrap(body) as T;
  }

  /** Sends one call (with its retries) and returns the parsed JSON body as the server sent it. */
  async sendRaw(call: Call, opts: RequestOptions = {}): Promise<unknown> {
    const headers: Record<string, string> = { accept: 'application/json, application/problem+json', ...this.options.headers };
    if (this.options.apiKey) headers.authorization = `ApiKey ${this.options.apiKey}`;
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    if (call.idempotent) headers['idempotency-key'] = opts.idempotencyKey ?? (this.options.idempotencyKey ?? (() => crypto.randomUUID()))();
    Object.assign(headers, call.headers, opts.headers);
    const repeatable = call.method === 'GET' || call.method === 'PUT' || call.method === 'DELETE' || 'idempotency-key' in headers;
    const maxRetries = this.options.maxRetries ?? 3;
    const url = this.url(call);
    const init: RequestInit = { method: call.method, headers, signal: opts.signal, body: call.body === undefined ? undefined : JSON.stringify(call.body) };
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await this.fetchImpl(url, init);
      } catch (e) {
        if (opts.signal?.aborted || !repeatable || attempt >= maxRetries) throw e;
        await this.sleep(this.backoff(attempt), opts.signal);
        continue;
      }
      if (res.ok) return readJson(res);
      const retryAfter = parseRetryAfter(res.headers.get('retry-after'));
      if (RETRY_STATUSES.has(res.status) && attempt < maxRetries) {
        await res.body?.cancel().catch(() => undefined);
        await this.sleep(this.backoff(attempt, retryAfter), opts.signal);
        continue;
      }
      const problem = await readJson(res).catch(() => ({}));
      throw new MemoryApiError(res.status, (problem && typeof problem === 'object' ? problem : {}) as Record<string, unknown>, retryAfter);
    }
  }

  /** Milliseconds before retry `attempt + 1`: `Retry-After` when given, else exponential with jitter; capped. */
  backoff(attempt: number, retryAfterSeconds?: number): number {
    const cap = this.options.maxRetryDelayMs ?? 30_000;
    if (retryAfterSeconds !== undefined) return Math.min(cap, retryAfterSeconds * 1000);
    const base = (this.options.retryDelayMs ?? 500) * 2 ** attempt;
    return Math.min(cap, base / 2 + Math.random() * (base / 2));
  }
}

async function readJson(res: Response): Promise<unknown> {
  const text = await res.text();
  return text ? JSON.parse(text) : undefined;
}

const ENVELOPE_KEYS = new Set(['data', 'request_id', 'timestamp']);

/** The envelope `{ data, request_id, timestamp }` gives its `data`; any other body (retrieve's has a `data` field too) stays whole. */
function unwrap(body: unknown): unknown {
  if (body && typeof body === 'object' && !Array.isArray(body) && 'data' in body && Object.keys(body).every((k) => ENVELOPE_KEYS.has(k))) {
    return (body as { data: unknown }).data;
  }
  return body;
}
