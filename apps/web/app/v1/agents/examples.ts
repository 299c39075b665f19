/** Request examples of the global agents' operations (lib/operation-example.ts), one per operation of operations.ts. */
import { EXAMPLE_IDS } from '@/lib/example-ids';
import type { AreaExamples } from '@/lib/operation-example';
import type * as operations from './operations';

export const agentsExamples: AreaExamples<typeof operations> = {
  createGlobalAgent: {
    body: {
      name: 'Trip Planner',
      description: 'Plans trips around the places, food and pace you like.',
      website_url: 'https://tripplanner.example',
      logo_url: 'https://tripplanner.example/logo.png',
      default_categories_requested: ['preference', 'goal'],
      redirect_uri: 'https://tripplanner.example/memory/connected',
    },
  },
  getGlobalAgent: { params: { agent_id: EXAMPLE_IDS.agent } },
  exchangeLinkToken: { body: { link_token: 'mem_lt_Kq3v9XbA7sT2mW4pL8nZ1cYdR6fH0jE5' } },
};
