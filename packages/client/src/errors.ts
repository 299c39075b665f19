/** The errors the client throws: the API's problem details (RFC 9457) with their stable `code`, and timeouts. */
import type { Schemas } from './types.js';

export type Problem = Schemas['Problem'];

/** A non-2xx answer from the API. `code` is the problem's stable code (`validation_failed`, `PROV_409`, …). */
export class MemoryApiError extends Error {
  override readonly name = 'MemoryApiError';
  readonly status: number;
  readonly code: string;
  readonly title: string;
  readonly detail: string;
  readonly requestId: string | undefined;
  /** The problem document as the server sent it (extra members such as `errors` or `feedback_id` included). */
  readonly problem: Problem & Record<string, unknown>;
  /** Seconds from the `Retry-After` header, when the server sent one. */
  readonly retryAfterSeconds: number | undefined;

  constructor(status: number, problem: Partial<Problem> & Record<string, unknown>, retryAfterSeconds?: number) {
    const code = typeof problem.code === 'string' ? problem.code : `http_${status}`;
    const detail = typeof problem.detail === 'string' ? problem.detail : '';
    super(`${status} ${code}${detail ? `: ${detail}` : ''}`);
    this.status = status;
    this.code = code;
    this.title = typeof problem.title === 'string' ? problem.title : '';
    this.detail = detail;
    this.requestId = typeof problem.request_id === 'string' ? problem.request_id : undefined;
    this.problem = { type: 'about:blank', title: this.title, status, detail, code, request_id: this.requestId ?? '', ...problem };
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** A wait (`addAndWait`, `jobs.wait`) that did not end in time. */
export class MemoryTimeoutError extends Error {
  override readonly name = 'MemoryTimeoutError';
}

/** Whether `e` is an API error, optionally with one of the given codes. */
export function isMemoryApiError(e: unknown, ...codes: string[]): e is MemoryApiError {
  return e instanceof MemoryApiError && (codes.length === 0 || codes.includes(e.code));
}
