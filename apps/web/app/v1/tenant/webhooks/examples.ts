/** Request examples of the webhook operations (lib/operation-example.ts), one per operation of operations.ts. */
import { EXAMPLE_IDS } from '@/lib/example-ids';
import type { AreaExamples } from '@/lib/operation-example';
import type * as operations from './operations';

const endpoint = { endpoint_id: EXAMPLE_IDS.webhookEndpoint };

export const webhooksExamples: AreaExamples<typeof operations> = {
  createWebhookEndpoint: {
    body: {
      url: 'https://api.acme.example/hooks/memory',
      description: 'Production receiver',
      event_types: ['job.completed', 'job.failed', 'review.created'],
    },
  },
  listWebhookEndpoints: {},
  getWebhookEndpoint: { params: endpoint },
  updateWebhookEndpoint: { params: endpoint, body: { event_types: ['job.completed', 'job.failed', 'review.created', 'review.resolved'] } },
  deleteWebhookEndpoint: { params: endpoint },
  rotateWebhookSecret: { params: endpoint },
  listWebhookDeliveries: { params: endpoint, query: { status: 'failed', limit: 20 } },
  resendWebhookDelivery: { params: { ...endpoint, delivery_id: EXAMPLE_IDS.webhookDelivery } },
};
