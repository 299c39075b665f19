/**
 * The @memory/client method of each operation (packages/client/src/client.ts) and its arguments in order: a path
 * parameter, the query, the body, or the passport user's X-Service-UUI token. An operation not listed has no client
 * method (the operator's and the passport user's: the client is for a tenant's backend and its agents), and the page
 * shows `fetch` for it. client-calls.test.ts calls each method against a recording fetch and checks that it sends
 * the operation's method, path, query and body, and that every operation the client calls is listed.
 */
export type ClientArg = { readonly path: string } | 'query' | 'body' | 'uui';

export interface ClientCall {
  /** `group.method` on a MemoryClient, e.g. `memories.add`. */
  readonly method: string;
  readonly args: readonly ClientArg[];
}

const call = (method: string, ...args: ClientArg[]): ClientCall => ({ method, args });
const p = (name: string): ClientArg => ({ path: name });

export const CLIENT_CALLS: Readonly<Record<string, ClientCall>> = {
  addMemories: call('memories.add', 'body'),
  retrieveMemories: call('memories.retrieve', 'body'),
  listMemories: call('memories.list', 'query'),
  createMemory: call('memories.create', 'body'),
  getMemory: call('memories.get', p('memory_id')),
  updateMemory: call('memories.update', p('memory_id'), 'body'),
  deleteMemory: call('memories.delete', p('memory_id')),
  getEdtechProfile: call('memories.edtechProfile', 'query'),
  exportUser: call('memories.export', 'query'),
  eraseUser: call('memories.eraseUser', p('external_user_id')),
  getExtractionJob: call('jobs.get', p('job_id')),
  sendRetrievalFeedback: call('feedback.send', 'body'),
  listServiceWriters: call('writers.list'),
  createServiceWriter: call('writers.create', 'body'),
  listApiKeys: call('keys.list'),
  createApiKey: call('keys.create', 'body'),
  revokeApiKey: call('keys.revoke', p('key_id')),
  listReviews: call('reviews.list', 'query'),
  getReview: call('reviews.get', p('review_id')),
  resolveReview: call('reviews.resolve', p('review_id'), 'body'),
  listSourceEvents: call('sourceEvents.list', 'query'),
  listWebhookEndpoints: call('webhooks.list'),
  createWebhookEndpoint: call('webhooks.create', 'body'),
  getWebhookEndpoint: call('webhooks.get', p('endpoint_id')),
  updateWebhookEndpoint: call('webhooks.update', p('endpoint_id'), 'body'),
  deleteWebhookEndpoint: call('webhooks.delete', p('endpoint_id')),
  rotateWebhookSecret: call('webhooks.rotateSecret', p('endpoint_id')),
  listWebhookDeliveries: call('webhooks.deliveries', p('endpoint_id'), 'query'),
  resendWebhookDelivery: call('webhooks.resend', p('endpoint_id'), p('delivery_id')),
  getDomainSchema: call('domainSchema.get'),
  setDomainSchema: call('domainSchema.set', 'body'),
  listCustomers: call('support.customers', 'query'),
  getCustomerProfile: call('support.customer', p('external_user_id')),
  getSupportStats: call('support.stats', 'query'),
  getTenantUsage: call('usage.get'),
  getTenantSettings: call('settings.get'),
  updateTenantSettings: call('settings.update', 'body'),
  createGlobalAgent: call('agents.create', 'body'),
  getGlobalAgent: call('agents.get', p('agent_id')),
  exchangeLinkToken: call('agents.exchangeLinkToken', 'body'),
  createLinkToken: call('linkTokens.create', 'body'),
  addUniversalMemories: call('universal.add', 'uui', 'body'),
  getUniversalJob: call('universal.getJob', 'uui', p('job_id')),
  retrieveUniversalMemories: call('universal.retrieve', 'uui', 'body'),
  health: call('health.live'),
  healthReady: call('health.ready'),
};
