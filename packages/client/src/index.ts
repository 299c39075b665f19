/** @memory/client: the TypeScript client of the memory service API (README, "TypeScript client"). */
export { MemoryClient, type AddAndWaitResult, type UniversalAddAndWaitResult } from './client.js';
export { MemoryApiError, MemoryTimeoutError, isMemoryApiError, type Problem } from './errors.js';
export { type ClientOptions, type RequestOptions, parseRetryAfter } from './http.js';
export { eachItem, eachPage } from './paging.js';
export type { OperationId, Query, RequestBody, ResponseBody, Result, Schemas, components, operations, paths } from './types.js';
export { FINAL_JOB_STATUSES, type WaitOptions } from './wait.js';
export {
  DEFAULT_TOLERANCE_SECONDS,
  JobWaiter,
  type JobEventData,
  type VerifiedWebhook,
  type VerifyOptions,
  WEBHOOK_SECRET_PREFIX,
  type WebhookEvent,
  type WebhookHeaders,
  WebhookVerificationError,
  verifyWebhook,
} from './webhooks.js';
