/** Request examples of the tenant's own operations (lib/operation-example.ts), one per operation of operations.ts. */
import { EXAMPLE_IDS, EXAMPLE_USERS } from '@/lib/example-ids';
import type { AreaExamples } from '@/lib/operation-example';
import type * as operations from './operations';

export const tenantExamples: AreaExamples<typeof operations> = {
  createServiceWriter: {
    body: {
      service_key: 'crm',
      display_name: 'CRM sync',
      authority_rules: { default_priority: 500, categories: { fact: 800, preference: 300 } },
      api_key_id: EXAMPLE_IDS.apiKey,
    },
  },
  listServiceWriters: {},
  createApiKey: { body: { name: 'billing-service' } },
  listApiKeys: {},
  revokeApiKey: { params: { key_id: EXAMPLE_IDS.apiKey } },
  listSourceEvents: { query: { external_user_id: EXAMPLE_USERS.general, source_service: 'crm', limit: 20 } },
  getTenantUsage: {},
  getTenantSettings: {},
  updateTenantSettings: { body: { payload_retention_days: 90 } },
  getDomainSchema: {},
  setDomainSchema: { body: { domain_schema: 'customer_support' } },
  listCustomers: { query: { has_open_issues: 'true', sentiment_trend: 'declining', sort: 'open_issues', limit: 20 } },
  getCustomerProfile: { params: { external_user_id: EXAMPLE_USERS.customer } },
  getSupportStats: { query: { window: '30d' } },
  listReviews: { query: { status: 'open', limit: 20 } },
  getReview: { params: { review_id: EXAMPLE_IDS.review } },
  resolveReview: {
    params: { review_id: EXAMPLE_IDS.review },
    body: { chosen_memory_id: EXAMPLE_IDS.otherMemory, note: 'Confirmed with the customer on the phone.' },
  },
  createLinkToken: { body: { agent_id: EXAMPLE_IDS.agent, external_user_id: EXAMPLE_USERS.general } },
};
