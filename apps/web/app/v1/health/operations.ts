/** Liveness and readiness (routes below this folder, not authenticated); lib/openapi.ts assembles them. */
import { liveness, readiness } from '@memory/core';
import { defineOperation, ok, problem } from '@/lib/operation';

export const health = defineOperation({
  method: 'get',
  path: '/v1/health',
  operationId: 'health',
  summary: 'Liveness',
  security: [],
  responses: { '200': ok(liveness, 'Alive (no dependency is checked)') },
});

export const healthReady = defineOperation({
  method: 'get',
  path: '/v1/health/ready',
  operationId: 'healthReady',
  summary: 'Readiness: the database, the job runner and the extraction backlog',
  description: 'See docs/operations.md. Not authenticated; reveals no tenant data.',
  security: [],
  responses: {
    '200': ok(readiness, 'Ready'),
    '503': problem('`database_unavailable`: the database did not answer within 2 s; `database` and `jobs` as above (`backlog: null`).'),
  },
});
