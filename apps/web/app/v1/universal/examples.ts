/** Request examples of the universal store (lib/operation-example.ts), one per operation of operations.ts. */
import { EXAMPLE_IDS } from '@/lib/example-ids';
import type { AreaExamples } from '@/lib/operation-example';
import type * as operations from './operations';

export const universalExamples: AreaExamples<typeof operations> = {
  addUniversalMemories: {
    body: {
      messages: [
        { role: 'user', content: 'Plan me a long weekend in Porto. I prefer trains to planes and I love small wine bars.' },
        { role: 'assistant', content: 'A train from Lisbon takes about three hours; I will look for wine bars near Ribeira.' },
      ],
      metadata: { conversation_id: 'trip_20250601_porto' },
      idempotency_key: 'trip_20250601_porto-1',
    },
  },
  getUniversalJob: { params: { job_id: EXAMPLE_IDS.universalJob } },
  retrieveUniversalMemories: { body: { query: 'How does the user like to travel?', limit: 5, format: 'bullets' } },
};
