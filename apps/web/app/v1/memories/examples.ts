/** Request examples of the memory operations (lib/operation-example.ts), one per operation of operations.ts. */
import { EXAMPLE_IDS, EXAMPLE_USERS } from '@/lib/example-ids';
import type { AreaExamples } from '@/lib/operation-example';
import type * as operations from './operations';

export const memoriesExamples: AreaExamples<typeof operations> = {
  addMemories: {
    body: {
      external_user_id: EXAMPLE_USERS.general,
      agent_id: 'cooking-assistant',
      messages: [
        { role: 'user', content: 'I moved to Lisbon last month, and I have been vegetarian since January.' },
        { role: 'assistant', content: 'Welcome to Lisbon! I will keep your recipes vegetarian.' },
      ],
      metadata: { conversation_id: 'conv_20250601_0931', channel: 'chat' },
    },
  },
  getExtractionJob: { params: { job_id: EXAMPLE_IDS.job } },
  retrieveMemories: {
    body: { external_user_id: EXAMPLE_USERS.general, query: 'What should I cook for dinner tonight?', limit: 5, context_max_tokens: 300 },
  },
  sendRetrievalFeedback: {
    body: {
      retrieval_id: EXAMPLE_IDS.retrieval,
      outcome: 'user_corrected',
      used_memory_ids: [EXAMPLE_IDS.memory],
      correction: 'I eat fish again since May.',
      agent_confidence: 0.9,
    },
  },
  listMemories: { query: { external_user_id: EXAMPLE_USERS.general, category: 'preference', limit: 20 } },
  deleteMemory: { params: { memory_id: EXAMPLE_IDS.memory } },
  createMemory: {
    body: {
      external_user_id: EXAMPLE_USERS.general,
      content: 'The user is allergic to peanuts.',
      category: 'fact',
      importance: 0.9,
      metadata: { channel: 'onboarding_form' },
      source: { service: 'crm-sync', event_id: 'crm_profile_7731', observed_at: '2025-06-01T09:31:00Z' },
    },
  },
  getMemory: { params: { memory_id: EXAMPLE_IDS.memory } },
  updateMemory: { params: { memory_id: EXAMPLE_IDS.memory }, body: { content: 'The user lives in Porto.', importance: 0.8 } },
  getEdtechProfile: { query: { external_user_id: EXAMPLE_USERS.student } },
};
