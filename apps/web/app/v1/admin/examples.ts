/** Request examples of the operator's operations (lib/operation-example.ts), one per operation of operations.ts. */
import { EXAMPLE_IDS } from '@/lib/example-ids';
import type { AreaExamples } from '@/lib/operation-example';
import type * as operations from './operations';

export const adminExamples: AreaExamples<typeof operations> = {
  createTenant: { body: { name: 'acme', plan: 'pro' } },
  getTenantPlan: { params: { tenant_id: EXAMPLE_IDS.tenant } },
  setTenantPlan: {
    params: { tenant_id: EXAMPLE_IDS.tenant },
    body: { plan: 'enterprise', overrides: { budgets: { add_calls: 2_000_000 }, rate_limits: { user_writes_per_minute: 120 } } },
  },
  createConsoleAdmin: { params: { tenant_id: EXAMPLE_IDS.tenant }, body: { email: 'ops@acme.example' } },
  verifyGlobalAgent: { params: { agent_id: EXAMPLE_IDS.agent } },
};
