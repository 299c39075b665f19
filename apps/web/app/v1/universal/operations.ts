/**
 * The universal (passport) store: an agent key plus the user's X-Service-UUI token (docs/passport-universal.md;
 * routes below this folder). lib/openapi.ts assembles them into the document.
 */
import {
  envelope,
  universalAddRequest,
  universalAddResponse,
  universalJob,
  universalRetrieveRequest,
  universalRetrieveResponse,
} from '@memory/core';
import { type Security, defineOperation, ok, problem, tenantErrors } from '@/lib/operation';

const security: Security = [{ ApiKey: [], ServiceUui: [] }];
const authErrors = {
  '401': problem('`unauthorized`: missing, unknown or revoked agent key; missing, unknown, expired or revoked `X-Service-UUI` token.'),
  '403': problem('`forbidden`: the `X-Service-UUI` token was issued to another agent.'),
};

export const addUniversalMemories = defineOperation({
  method: 'post',
  path: '/v1/universal/memories/add',
  operationId: 'addUniversalMemories',
  summary: 'Queue universal extraction of a passport user’s conversation (read-write grant)',
  description:
    'Needs an active `read_write` grant of the passport user for this agent. The quality gate and secret redaction of ' +
    '`POST /v1/memories/add` apply and `status` means the same; a queued job writes only the universal store and only ' +
    'the categories in `categories`. `idempotency_key` in the body: the same key with the same messages and metadata ' +
    'replays the first response (same `job_id`, header `Idempotent-Replayed: true`); with other content it is 422 ' +
    '`idempotency_key_reused`. Poll the job at GET /v1/universal/memories/jobs/{job_id}.',
  security,
  body: universalAddRequest,
  responses: {
    '200': ok(universalAddResponse, 'Accepted, passed through or blocked; `status` says which.'),
    '401': authErrors['401'],
    '403': problem(
      '`UAT_001` (`error: "no_grant_for_user"`): no active grant; `UAT_002` (`error: "write_not_permitted"`): the grant is read-only; ' +
        '`forbidden`: the token was issued to another agent.',
    ),
    '413': problem('Body larger than the limit.'),
    '422': problem('`validation_failed`, or `idempotency_key_reused`.'),
  },
});

export const getUniversalJob = defineOperation({
  method: 'get',
  path: '/v1/universal/memories/jobs/{job_id}',
  operationId: 'getUniversalJob',
  summary: 'Poll a universal extraction job (only the agent that queued it, for the same passport user)',
  security,
  responses: { '200': ok(envelope(universalJob)), ...authErrors, '404': problem('No such job for this agent and passport user.') },
});

export const retrieveUniversalMemories = defineOperation({
  method: 'post',
  path: '/v1/universal/memories/retrieve',
  operationId: 'retrieveUniversalMemories',
  summary: 'Rank the passport user’s universal memories in the categories granted to this agent',
  description:
    'The fields of `POST /v1/memories/retrieve` plus `permission_error` and `categories_available`. Without an active grant ' +
    'the answer is 200 with empty `data` and `system_prompt_addition`, `permission_error: "no_grant_for_user"` and ' +
    '`categories_available: []`. `retrieval_id` is null (there is no universal retrieval feedback).',
  security,
  body: universalRetrieveRequest,
  responses: { '200': ok(universalRetrieveResponse), ...authErrors, '422': tenantErrors['422'] },
});
