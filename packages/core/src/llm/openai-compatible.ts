/**
 * The HTTP plumbing shared by the OpenAI-compatible clients (chat-completions extraction, embeddings):
 * endpoint URLs and auth headers for the two API styles, one POST with a timeout, bounded retries with
 * backoff, and token usage summed over calls.
 *
 * - `openai` style (OpenAI, Ollama, vLLM, llama.cpp server, LM Studio): `{baseUrl}/{operation}`,
 *   `Authorization: Bearer <key>` only when a key is configured (local servers need none).
 * - `azure` style: `{baseUrl}/openai/deployments/{model}/{operation}?api-version=…` and an `api-key` header;
 *   `model` is the deployment name. A base URL that already names a deployment is used as it is.
 *
 * Errors carry a short, content-free `reason` (`timeout`, `http_503`, `malformed_output`, …): it ends up in
 * job rows and logs, so it never quotes a prompt, a model answer or a response body.
 */

export type ApiStyle = 'openai' | 'azure';

export interface OpenAICompatibleEndpoint {
  /** e.g. https://api.openai.com/v1, http://127.0.0.1:11434/v1, https://acme.openai.azure.com */
  baseUrl: string;
  /** The model (Azure: the deployment name). */
  model: string;
  /** Absent for servers without auth (Ollama, llama.cpp server). */
  apiKey: string | null;
  apiStyle: ApiStyle;
  /** Azure's `api-version` query parameter. */
  azureApiVersion: string;
  /** Per HTTP request. */
  timeoutMs: number;
  /** Further tries after the first, within one call. */
  maxRetries: number;
}

export interface TokenUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  /** HTTP requests made, including failed ones. */
  calls: number;
}

export function endpointUrl(ep: Pick<OpenAICompatibleEndpoint, 'baseUrl' | 'model' | 'apiStyle' | 'azureApiVersion'>, operation: string): string {
  const base = ep.baseUrl.replace(/\/+$/, '');
  if (ep.apiStyle === 'openai') return `${base}/${operation}`;
  const deployment = /\/openai\/deployments\/[^/]+$/.test(base) ? base : `${base}/openai/deployments/${encodeURIComponent(ep.model)}`;
  return `${deployment}/${operation}?api-version=${encodeURIComponent(ep.azureApiVersion)}`;
}

export function endpointHeaders(ep: Pick<OpenAICompatibleEndpoint, 'apiKey' | 'apiStyle'>): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (ep.apiKey) {
    if (ep.apiStyle === 'azure') headers['api-key'] = ep.apiKey;
    else headers.authorization = `Bearer ${ep.apiKey}`;
  }
  return headers;
}

/**
 * A failed call to a model server. `permanent` failures (bad key, unknown model or deployment, a request
 * the server refuses) are not retried: the same request would fail again.
 */
export class ProviderCallError extends Error {
  override name = 'ProviderCallError';
  constructor(
    readonly reason: string,
    message: string,
    readonly opts: { permanent?: boolean; retryAfterMs?: number | null; status?: number } = {},
  ) {
    super(`${reason}: ${message}`);
  }
  get permanent(): boolean {
    return this.opts.permanent ?? false;
  }
  /** Token usage spent before the call failed (set by the client that gives up). */
  usage: TokenUsage | null = null;
}

/** Statuses a retry cannot fix. 400: the request itself is refused (context too long, bad parameter). */
const PERMANENT_STATUS = new Set([400, 401, 403, 404, 405, 413, 422]);

function retryAfterMs(res: Response): number | null {
  const v = res.headers.get('retry-after');
  if (!v) return null;
  const secs = Number(v);
  if (Number.isFinite(secs)) return Math.max(0, secs * 1000);
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

/** One POST with a JSON body and a timeout; returns the parsed JSON body of a 2xx answer. */
export async function postJson(ep: OpenAICompatibleEndpoint, operation: string, body: unknown): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(endpointUrl(ep, operation), {
      method: 'POST',
      headers: endpointHeaders(ep),
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(ep.timeoutMs),
    });
  } catch (err) {
    throw toNetworkError(err, ep.timeoutMs);
  }
  if (!res.ok) {
    // The body is read and dropped: it may quote the request, so it is never put into the error.
    await res.body?.cancel().catch(() => {});
    throw new ProviderCallError(`http_${res.status}`, `the model server answered HTTP ${res.status}`, {
      permanent: PERMANENT_STATUS.has(res.status),
      retryAfterMs: retryAfterMs(res),
      status: res.status,
    });
  }
  let text: string;
  try {
    text = await res.text();
  } catch (err) {
    throw toNetworkError(err, ep.timeoutMs);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new ProviderCallError('malformed_response', 'the model server answered with a body that is not JSON');
  }
}

function toNetworkError(err: unknown, timeoutMs: number): ProviderCallError {
  const name = (err as { name?: string } | null)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') {
    return new ProviderCallError('timeout', `no answer within ${timeoutMs} ms`);
  }
  return new ProviderCallError('network_error', 'the model server could not be reached');
}

export interface RetryOptions {
  maxRetries: number;
  /** First backoff; doubles per retry, with jitter. */
  baseDelayMs: number;
  /** No single wait is longer, whatever Retry-After says. */
  maxDelayMs?: number;
  sleep?: (ms: number) => Promise<void>;
  onRetry?: (info: { attempt: number; reason: string; delayMs: number }) => void;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `attempt` until it succeeds, fails permanently, or the retries are used up. Only ProviderCallErrors
 * are retried; anything else is a bug and surfaces at once.
 */
export async function withRetries<T>(opts: RetryOptions, attempt: (n: number) => Promise<T>): Promise<T> {
  const sleep = opts.sleep ?? defaultSleep;
  for (let n = 1; ; n++) {
    try {
      return await attempt(n);
    } catch (err) {
      if (!(err instanceof ProviderCallError) || err.permanent || n > opts.maxRetries) throw err;
      const ceiling = opts.baseDelayMs * 2 ** (n - 1);
      const jittered = ceiling / 2 + (Math.random() * ceiling) / 2;
      const delayMs = Math.round(Math.min(Math.max(jittered, err.opts.retryAfterMs ?? 0), opts.maxDelayMs ?? 30_000));
      opts.onRetry?.({ attempt: n, reason: err.reason, delayMs });
      await sleep(delayMs);
    }
  }
}

/** Sums the `usage` objects of OpenAI-style responses over the calls of one operation. */
export class UsageMeter {
  private readonly total: TokenUsage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, calls: 0 };

  /** Counts one request; `usage` is the response's `usage` field when there was one. */
  record(usage: unknown): void {
    this.total.calls++;
    if (!usage || typeof usage !== 'object') return;
    const u = usage as Record<string, unknown>;
    const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.round(v) : 0);
    const prompt = n(u.prompt_tokens);
    const completion = n(u.completion_tokens);
    this.total.prompt_tokens += prompt;
    this.total.completion_tokens += completion;
    this.total.total_tokens += n(u.total_tokens) || prompt + completion;
  }

  snapshot(): TokenUsage {
    return { ...this.total };
  }

  /** One POST, counted (with its usage when it answered) whether it succeeds or not. */
  async post(ep: OpenAICompatibleEndpoint, operation: string, body: unknown): Promise<unknown> {
    let response: unknown;
    try {
      response = await postJson(ep, operation, body);
      return response;
    } finally {
      this.record((response as { usage?: unknown } | undefined)?.usage);
    }
  }

  /** Runs a whole operation; a ProviderCallError leaving it carries the tokens spent so far. */
  async track<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (err) {
      if (err instanceof ProviderCallError) err.usage = this.snapshot();
      throw err;
    }
  }
}

/** Adds two usage records (either may be missing or `{}`, the job row's default). */
export function addTokenUsage(a: Partial<TokenUsage> | null | undefined, b: Partial<TokenUsage> | null | undefined): TokenUsage {
  const keys = ['prompt_tokens', 'completion_tokens', 'total_tokens', 'calls'] as const;
  return Object.fromEntries(keys.map((k) => [k, (a?.[k] ?? 0) + (b?.[k] ?? 0)])) as unknown as TokenUsage;
}
