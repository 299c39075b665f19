/** Request examples of the passport user's operations (lib/operation-example.ts), one per operation of operations.ts. */
import { EXAMPLE_IDS } from '@/lib/example-ids';
import type { AreaExamples } from '@/lib/operation-example';
import type * as operations from './operations';

const email = 'alex@example.com';

export const uuiExamples: AreaExamples<typeof operations> = {
  registerPassport: { body: { email } },
  sendPassportCode: { body: { email } },
  verifyPassportCode: { body: { email, code: '482913' } },
  getPassport: {},
  deletePassport: {},
  listGrants: {},
  saveGrant: { body: { agent_id: EXAMPLE_IDS.agent, categories: ['preference', 'goal'], access_type: 'read_write' } },
  revokeGrant: { params: { grant_id: EXAMPLE_IDS.grant } },
  listOrganisations: { query: { limit: 20 } },
  listConnections: {},
  disconnectService: { params: { connection_id: EXAMPLE_IDS.connection } },
  listPassportQuestions: {},
  listPassportMemories: { query: { status: 'active', category: 'preference', limit: 20 } },
  deletePassportMemory: { params: { memory_id: EXAMPLE_IDS.memory } },
  exportPassport: {},
  listAccessLog: { query: { limit: 20 } },
  resolvePassportQuestion: { params: { review_id: EXAMPLE_IDS.review }, body: { keep_memory_id: EXAMPLE_IDS.otherMemory } },
};
