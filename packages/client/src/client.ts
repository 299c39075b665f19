/**
 * MemoryClient: one method per operation of the memory service API, grouped as the API is (memories, jobs,
 * feedback, writers, keys, reviews, source events, webhooks, domain schema and support, usage and settings, agents,
 * link tokens, universal memories, health). Types are the generated ones (types.ts); the transport (http.ts)
 * authenticates, retries and unwraps the envelope.
 */
import { type Call, type ClientOptions, type RequestOptions, Transport } from './http.js';
import { eachItem } from './paging.js';
import type { OperationId, Query, RequestBody, Result } from './types.js';
import { type WaitOptions, waitForJob } from './wait.js';

type Q<K extends OperationId> = Query<K>;
type B<K extends OperationId> = RequestBody<K>;
type R<K extends OperationId> = Promise<Result<K>>;
type Opts = RequestOptions;

export interface AddAndWaitResult {
  add: Result<'addMemories'>;
  /** The finished job, or null when the add queued nothing (`job_id: null`: passthrough, L1–L4, blocked). */
  job: Result<'getExtractionJob'> | null;
}

export interface UniversalAddAndWaitResult {
  add: Result<'addUniversalMemories'>;
  job: Result<'getUniversalJob'> | null;
}

export class MemoryClient {
  readonly http: Transport;

  constructor(options: ClientOptions) {
    this.http = new Transport(options);
  }

  private call<K extends OperationId>(_op: K, call: Call, opts?: Opts): R<K> {
    return this.http.send<Result<K>>(call, opts);
  }

  readonly memories = {
    /** Queues extraction from a conversation; an `Idempotency-Key` is generated (or `opts.idempotencyKey`) and reused by retries. */
    add: (body: B<'addMemories'>, opts?: Opts) => this.call('addMemories', { method: 'POST', path: '/v1/memories/add', body, idempotent: true }, opts),
    /** Adds, then waits for the job to end: polling, or from a webhook with `wait.waiter`. */
    addAndWait: async (body: B<'addMemories'>, wait: WaitOptions & Opts = {}): Promise<AddAndWaitResult> => {
      const add = await this.memories.add(body, wait);
      const job = add.job_id === null ? null : await this.jobs.wait(add.job_id, wait);
      return { add, job };
    },
    retrieve: (body: B<'retrieveMemories'>, opts?: Opts) => this.call('retrieveMemories', { method: 'POST', path: '/v1/memories/retrieve', body }, opts),
    /** One page of a user's memories, newest first. */
    list: (query: Q<'listMemories'>, opts?: Opts) => this.call('listMemories', { method: 'GET', path: '/v1/memories', query }, opts),
    /** Every memory of the user, page after page. */
    iterate: (query: Q<'listMemories'>, opts?: Opts) => eachItem((cursor) => this.memories.list({ ...query, cursor }, opts), (p) => p.items, query.cursor),
    /** Writes a memory directly, without extraction (201 created, 200 reinforced); an `Idempotency-Key` is generated and reused by retries. */
    create: (body: B<'createMemory'>, opts?: Opts) => this.call('createMemory', { method: 'POST', path: '/v1/memories', body, idempotent: true }, opts),
    /** One memory with its provenance, metadata and revision history. */
    get: (memoryId: string, opts?: Opts) =>
      this.call('getMemory', { method: 'GET', path: '/v1/memories/{memory_id}', params: { memory_id: memoryId } }, opts),
    /** Edits content, category or importance: a new revision in the ledger. */
    update: (memoryId: string, body: B<'updateMemory'>, opts?: Opts) =>
      this.call('updateMemory', { method: 'PATCH', path: '/v1/memories/{memory_id}', params: { memory_id: memoryId }, body }, opts),
    delete: (memoryId: string, opts?: Opts) =>
      this.call('deleteMemory', { method: 'DELETE', path: '/v1/memories/{memory_id}', params: { memory_id: memoryId } }, opts),
    edtechProfile: (query: Q<'getEdtechProfile'>, opts?: Opts) =>
      this.call('getEdtechProfile', { method: 'GET', path: '/v1/memories/edtech-profile', query }, opts),
    /** Everything stored about one end user (GET /v1/users/me/export). */
    export: (query: Q<'exportUser'>, opts?: Opts) => this.call('exportUser', { method: 'GET', path: '/v1/users/me/export', query }, opts),
    /** Erases everything held about one end user and returns the receipt (DELETE /v1/users/{external_user_id}, docs/erasure.md). */
    eraseUser: (externalUserId: string, opts?: Opts) =>
      this.call('eraseUser', { method: 'DELETE', path: '/v1/users/{external_user_id}', params: { external_user_id: externalUserId } }, opts),
  };

  readonly jobs = {
    get: (jobId: string, opts?: Opts) =>
      this.call('getExtractionJob', { method: 'GET', path: '/v1/memories/jobs/{job_id}', params: { job_id: jobId } }, opts),
    /** Resolves when the job is completed, processed, failed or dead. */
    wait: (jobId: string, wait: WaitOptions & Opts = {}) => waitForJob(jobId, () => this.jobs.get(jobId, wait), wait),
  };

  readonly feedback = {
    send: (body: B<'sendRetrievalFeedback'>, opts?: Opts) =>
      this.call('sendRetrievalFeedback', { method: 'POST', path: '/v1/memories/retrieval-feedback', body, idempotent: true }, opts),
  };

  readonly writers = {
    list: (opts?: Opts) => this.call('listServiceWriters', { method: 'GET', path: '/v1/tenant/service-writers' }, opts),
    create: (body: B<'createServiceWriter'>, opts?: Opts) =>
      this.call('createServiceWriter', { method: 'POST', path: '/v1/tenant/service-writers', body }, opts),
  };

  readonly keys = {
    list: (opts?: Opts) => this.call('listApiKeys', { method: 'GET', path: '/v1/tenant/api-keys' }, opts),
    create: (body: B<'createApiKey'>, opts?: Opts) => this.call('createApiKey', { method: 'POST', path: '/v1/tenant/api-keys', body }, opts),
    revoke: (keyId: string, opts?: Opts) =>
      this.call('revokeApiKey', { method: 'DELETE', path: '/v1/tenant/api-keys/{key_id}', params: { key_id: keyId } }, opts),
  };

  readonly reviews = {
    list: (query: Q<'listReviews'> = {}, opts?: Opts) => this.call('listReviews', { method: 'GET', path: '/v1/tenant/reviews', query }, opts),
    iterate: (query: Q<'listReviews'> = {}, opts?: Opts) =>
      eachItem((cursor) => this.reviews.list({ ...query, cursor }, opts), (p) => p.items, query.cursor),
    get: (reviewId: string, opts?: Opts) =>
      this.call('getReview', { method: 'GET', path: '/v1/tenant/reviews/{review_id}', params: { review_id: reviewId } }, opts),
    resolve: (reviewId: string, body: B<'resolveReview'>, opts?: Opts) =>
      this.call('resolveReview', { method: 'POST', path: '/v1/tenant/reviews/{review_id}/resolve', params: { review_id: reviewId }, body }, opts),
  };

  readonly sourceEvents = {
    list: (query: Q<'listSourceEvents'> = {}, opts?: Opts) =>
      this.call('listSourceEvents', { method: 'GET', path: '/v1/tenant/source-events', query }, opts),
    iterate: (query: Q<'listSourceEvents'> = {}, opts?: Opts) =>
      eachItem((cursor) => this.sourceEvents.list({ ...query, cursor }, opts), (p) => p.items, query.cursor),
  };

  readonly webhooks = {
    list: (opts?: Opts) => this.call('listWebhookEndpoints', { method: 'GET', path: '/v1/tenant/webhooks' }, opts),
    /** The answer carries the signing `secret`, once. */
    create: (body: B<'createWebhookEndpoint'>, opts?: Opts) =>
      this.call('createWebhookEndpoint', { method: 'POST', path: '/v1/tenant/webhooks', body }, opts),
    get: (endpointId: string, opts?: Opts) =>
      this.call('getWebhookEndpoint', { method: 'GET', path: '/v1/tenant/webhooks/{endpoint_id}', params: { endpoint_id: endpointId } }, opts),
    update: (endpointId: string, body: B<'updateWebhookEndpoint'>, opts?: Opts) =>
      this.call('updateWebhookEndpoint', { method: 'PATCH', path: '/v1/tenant/webhooks/{endpoint_id}', params: { endpoint_id: endpointId }, body }, opts),
    delete: (endpointId: string, opts?: Opts) =>
      this.call('deleteWebhookEndpoint', { method: 'DELETE', path: '/v1/tenant/webhooks/{endpoint_id}', params: { endpoint_id: endpointId } }, opts),
    rotateSecret: (endpointId: string, opts?: Opts) =>
      this.call('rotateWebhookSecret', { method: 'POST', path: '/v1/tenant/webhooks/{endpoint_id}/rotate-secret', params: { endpoint_id: endpointId } }, opts),
    deliveries: (endpointId: string, query: Q<'listWebhookDeliveries'> = {}, opts?: Opts) =>
      this.call(
        'listWebhookDeliveries',
        { method: 'GET', path: '/v1/tenant/webhooks/{endpoint_id}/deliveries', params: { endpoint_id: endpointId }, query },
        opts,
      ),
    iterateDeliveries: (endpointId: string, query: Q<'listWebhookDeliveries'> = {}, opts?: Opts) =>
      eachItem((cursor) => this.webhooks.deliveries(endpointId, { ...query, cursor }, opts), (p) => p.items, query.cursor),
    resend: (endpointId: string, deliveryId: string, opts?: Opts) =>
      this.call(
        'resendWebhookDelivery',
        {
          method: 'POST',
          path: '/v1/tenant/webhooks/{endpoint_id}/deliveries/{delivery_id}/resend',
          params: { endpoint_id: endpointId, delivery_id: deliveryId },
        },
        opts,
      ),
  };

  readonly domainSchema = {
    get: (opts?: Opts) => this.call('getDomainSchema', { method: 'GET', path: '/v1/tenant/domain-schema' }, opts),
    set: (body: B<'setDomainSchema'>, opts?: Opts) => this.call('setDomainSchema', { method: 'PATCH', path: '/v1/tenant/domain-schema', body }, opts),
  };

  /** The Customer Support domain schema's reads (docs/domain-schemas.md). */
  readonly support = {
    customers: (query: Q<'listCustomers'> = {}, opts?: Opts) => this.call('listCustomers', { method: 'GET', path: '/v1/tenant/customers', query }, opts),
    iterateCustomers: (query: Q<'listCustomers'> = {}, opts?: Opts) =>
      eachItem((cursor) => this.support.customers({ ...query, cursor }, opts), (p) => p.customers, query.cursor),
    customer: (externalUserId: string, opts?: Opts) =>
      this.call(
        'getCustomerProfile',
        { method: 'GET', path: '/v1/tenant/customers/{external_user_id}', params: { external_user_id: externalUserId } },
        opts,
      ),
    stats: (query: Q<'getSupportStats'> = {}, opts?: Opts) => this.call('getSupportStats', { method: 'GET', path: '/v1/tenant/support-stats', query }, opts),
  };

  readonly usage = {
    get: (opts?: Opts) => this.call('getTenantUsage', { method: 'GET', path: '/v1/tenant/usage' }, opts),
  };

  readonly settings = {
    get: (opts?: Opts) => this.call('getTenantSettings', { method: 'GET', path: '/v1/tenant/settings' }, opts),
    update: (body: B<'updateTenantSettings'>, opts?: Opts) =>
      this.call('updateTenantSettings', { method: 'PATCH', path: '/v1/tenant/settings', body }, opts),
  };

  readonly agents = {
    /** Registers a global agent (tenant key); the answer carries its `mem_ak_…` key, once. */
    create: (body: B<'createGlobalAgent'>, opts?: Opts) => this.call('createGlobalAgent', { method: 'POST', path: '/v1/agents/global', body }, opts),
    get: (agentId: string, opts?: Opts) =>
      this.call('getGlobalAgent', { method: 'GET', path: '/v1/agents/global/{agent_id}', params: { agent_id: agentId } }, opts),
    /** With an agent key: trades an approved link token for the user's `X-Service-UUI` token. */
    exchangeLinkToken: (body: B<'exchangeLinkToken'>, opts?: Opts) =>
      this.call('exchangeLinkToken', { method: 'POST', path: '/v1/agents/passport-token', body }, opts),
  };

  readonly linkTokens = {
    create: (body: B<'createLinkToken'>, opts?: Opts) =>
      this.call('createLinkToken', { method: 'POST', path: '/v1/tenant/memory-passport/link-token', body }, opts),
  };

  /** The universal store, with an agent key as `apiKey` and the user's `X-Service-UUI` token per call. */
  readonly universal = {
    /** `idempotency_key` is filled in when absent, so retries replay the first answer. */
    add: (uui: string, body: B<'addUniversalMemories'>, opts?: Opts) =>
      this.call(
        'addUniversalMemories',
        {
          method: 'POST',
          path: '/v1/universal/memories/add',
          body: { ...body, idempotency_key: body.idempotency_key ?? opts?.idempotencyKey ?? crypto.randomUUID() },
          headers: { 'x-service-uui': uui },
        },
        opts,
      ),
    addAndWait: async (uui: string, body: B<'addUniversalMemories'>, wait: WaitOptions & Opts = {}): Promise<UniversalAddAndWaitResult> => {
      const add = await this.universal.add(uui, body, wait);
      const job = add.job_id === null ? null : await waitForJob(add.job_id, () => this.universal.getJob(uui, add.job_id as string, wait), wait);
      return { add, job };
    },
    getJob: (uui: string, jobId: string, opts?: Opts) =>
      this.call(
        'getUniversalJob',
        { method: 'GET', path: '/v1/universal/memories/jobs/{job_id}', params: { job_id: jobId }, headers: { 'x-service-uui': uui } },
        opts,
      ),
    retrieve: (uui: string, body: B<'retrieveUniversalMemories'>, opts?: Opts) =>
      this.call('retrieveUniversalMemories', { method: 'POST', path: '/v1/universal/memories/retrieve', body, headers: { 'x-service-uui': uui } }, opts),
  };

  readonly health = {
    live: (opts?: Opts) => this.call('health', { method: 'GET', path: '/v1/health' }, opts),
    ready: (opts?: Opts) => this.call('healthReady', { method: 'GET', path: '/v1/health/ready' }, opts),
  };
}
