/**
 * The ids the request examples use (app/v1/<area>/examples.ts), shared so the examples tell one story: the agent a
 * tenant registers is the one its link token names, the user grants and the operator verifies.
 */
export const EXAMPLE_IDS = {
  tenant: 'd3b7f2a9-6c1e-4b58-9f4d-8a2e5c7b1f60',
  apiKey: 'a7c3e1f9-4b2d-4a68-9e05-8d1f6c3b2a74',
  job: '8c0f3a52-6b1e-4d27-9a43-2f5e7c1d9b08',
  memory: '3f6a1c9e-2b7d-4e58-8a01-6c4d9f2e7b13',
  otherMemory: '7d2e9b41-5c8a-4f36-b0e7-1a3c5d8f2e64',
  retrieval: 'e41b7c2d-9a35-4f80-8d6c-3b2a1f0e9c57',
  review: '5b9d2f7a-1e4c-4c83-a6f0-9e2b7d4c1a38',
  webhookEndpoint: 'c2e8a4f6-7d1b-4e39-b5a2-0f6d3c9e8b17',
  webhookDelivery: '91f4d6b3-2a8e-4c57-8e1d-7b3a5f0c2d96',
  agent: '6e1a9c4f-8b3d-4f72-a5e9-2d7c0b8f4a31',
  grant: '4a8c2e6f-9d1b-4e37-b0a5-3f7d1c9e6b82',
  connection: 'f7b3d9e1-5a2c-4c86-9b4f-0e8a6d2c7f15',
  universalJob: '2d6f8b1a-3e9c-4a75-8f2d-6c0b4e9a1d73',
} as const;

/** The end users of the examples: a general one, a student (EdTech), a customer (Customer Support). */
export const EXAMPLE_USERS = { general: 'user_42', student: 'student_1207', customer: 'customer_8841' } as const;
