/** Global agents of the memory passport (docs/passport.md; routes below this folder); lib/openapi.ts assembles them. */
import {
  createGlobalAgentRequest,
  envelope,
  globalAgentCreated,
  globalAgentPublic,
  passportTokenIssued,
  passportTokenRequest,
} from '@memory/core';
import { defineOperation, ok, problem, tenantErrors } from '@/lib/operation';

export const createGlobalAgent = defineOperation({
  method: 'post',
  path: '/v1/agents/global',
  operationId: 'createGlobalAgent',
  summary: 'Create a global agent of the tenant; its key is shown once',
  description:
    '`name` is required; every other field is optional. `redirect_uri` defaults to `""` (the consent page says the connection is done); ' +
    'otherwise it must be an absolute https URL (http only for localhost) without a fragment, and the browser is sent to it exactly.',
  body: createGlobalAgentRequest,
  responses: { '201': ok(envelope(globalAgentCreated), 'Created'), ...tenantErrors },
});

export const getGlobalAgent = defineOperation({
  method: 'get',
  path: '/v1/agents/global/{agent_id}',
  operationId: 'getGlobalAgent',
  summary: 'The public profile of a global agent (no tenant, no keys)',
  security: [],
  responses: { '200': ok(envelope(globalAgentPublic)), '404': problem('No such agent.') },
});

export const exchangeLinkToken = defineOperation({
  method: 'post',
  path: '/v1/agents/passport-token',
  operationId: 'exchangeLinkToken',
  summary: 'Exchange an approved link token for the user’s X-Service-UUI token (agent backend, once)',
  description:
    'After the user approved on the consent page, the agent’s backend sends the link token it already holds, with the agent key. ' +
    'The X-Service-UUI token is in this response once and never in a URL. Pending tokens answer 409 `link_token_pending` with `Retry-After`.',
  security: [{ AgentKey: [] }],
  body: passportTokenRequest,
  responses: {
    '200': ok(envelope(passportTokenIssued)),
    '401': problem('Missing or unknown agent key (`unauthorized`).'),
    '403': problem('`link_token_declined`: the user declined (or disconnected before the exchange).'),
    '404': problem('`link_token_invalid`: unknown link token, or issued for another agent.'),
    '409': problem('`link_token_used`: already exchanged; `link_token_pending`: the user has not approved yet.'),
    '410': problem('`link_token_expired`.'),
    '422': tenantErrors['422'],
  },
});
