/** The tenant's memory operations (routes beside this file); lib/openapi.ts assembles them into the document. */
import {
  ADD_STATUSES,
  FEEDBACK_EFFECTS,
  FEEDBACK_OUTCOMES,
  LIMITS,
  addRequest,
  addResponse,
  createMemoryRequest,
  createdMemory,
  memoryDetail,
  updateMemoryRequest,
  edtechProfileQuery,
  envelope,
  extractionJob,
  listMemoriesQuery,
  memoryDeleted,
  memoryPage,
  retrievalFeedbackRequest,
  retrievalFeedbackResponse,
  retrieveRequest,
  retrieveResponse,
  studentProfileView,
} from '@memory/core';
import { defineOperation, ok, problem, tenantErrors, writeRateLimited } from '@/lib/operation';

export const addMemories = defineOperation({
  method: 'post',
  path: '/v1/memories/add',
  operationId: 'addMemories',
  summary: 'Queue extraction of memories from a conversation',
  description:
    `The quality gate decides the \`status\` (${ADD_STATUSES.join(', ')}); \`job_id\` is non-null exactly when status is \`queued\`. ` +
    `Send \`Idempotency-Key\` to retry safely: the same key and body replay the saved response (header \`Idempotent-Replayed: true\`), ` +
    `the same key with another body is 422 \`idempotency_key_reused\`. Keys are kept ${'48'} hours by default. ` +
    `Limits: ${LIMITS.messagesPerAdd} messages, ${LIMITS.messageChars} characters per message, body ${LIMITS.bodyBytes} bytes.`,
  idempotencyKey: true,
  body: addRequest,
  responses: {
    '200': ok(
      addResponse,
      'Accepted, passed through or blocked; `status` says which. Usage controls (docs/quotas.md) answer here too, never as ' +
        'errors: `L1` (`blocked_reason: rate_limited`, `retry_after_seconds`) over the per-user or per-tenant write rate; ' +
        '`passthrough` with `nothing_to_extract: false` in the PASSTHROUGH quota mode (the source event is kept, no extraction); ' +
        '`blocked` (`quota_exhausted`, nothing stored) in BLOCKED. `processing_status: delayed` with `processing_eta_seconds` ' +
        'when the extraction backlog is behind.',
    ),
    '401': tenantErrors['401'],
    '403': problem('`PROV_403`: the writer named in `source.service` is bound to another API key.'),
    '404': problem('`PROV_404`: no service writer has the `source.service` key.'),
    '409': problem('`PROV_409`: the source event id exists with a different payload.'),
    '413': problem('Body larger than the limit.'),
    '422': problem('`validation_failed`, or `PROV_422` when the `source` block is invalid (e.g. evidence that looks like a secret).'),
  },
});

export const getExtractionJob = defineOperation({
  method: 'get',
  path: '/v1/memories/jobs/{job_id}',
  operationId: 'getExtractionJob',
  summary: 'Poll an extraction job',
  description: 'Statuses: queued, running, completed (memories written), processed (nothing durable found), failed, dead.',
  responses: { '200': ok(envelope(extractionJob)), '401': tenantErrors['401'], '404': problem('No such job for this tenant.') },
});

export const retrieveMemories = defineOperation({
  method: 'post',
  path: '/v1/memories/retrieve',
  operationId: 'retrieveMemories',
  summary: 'Ranked memories and a prompt-ready block for a query',
  description:
    'The tenant’s quota mode shapes the answer (docs/quotas.md): DEGRADED_RETRIEVE ranks without calling the embeddings endpoint ' +
    'and returns at most 5 memories (`is_degraded: true`); PASSTHROUGH and BLOCKED return no memories and an empty block ' +
    '(`is_passthrough: true`): answer without memory context.',
  body: retrieveRequest,
  responses: { '200': ok(retrieveResponse), ...tenantErrors },
});

export const sendRetrievalFeedback = defineOperation({
  method: 'post',
  path: '/v1/memories/retrieval-feedback',
  operationId: 'sendRetrievalFeedback',
  summary: 'Report how a retrieve response was used; a user correction queues a retrospective extraction',
  description:
    `\`outcome\` is one of ${FEEDBACK_OUTCOMES.map((o) => `\`${o}\``).join(', ')}. Each moves the importance (which ranking weighs) ` +
    `of the memories concerned — \`used_memory_ids\`, else every memory the retrieval returned — by a fixed step ` +
    `(${FEEDBACK_OUTCOMES.map((o) => `${o} ${FEEDBACK_EFFECTS[o].importance >= 0 ? '+' : ''}${FEEDBACK_EFFECTS[o].importance}`).join(', ')}), ` +
    'scaled by `agent_confidence`. `user_corrected` requires `correction` and answers at once with `correction_job_id`: ' +
    'the job extracts memories from the correction and supersedes the memories it contradicts (poll GET /v1/memories/jobs/{id}). ' +
    'One feedback per retrieval and outcome (again: 409 `conflict` with the first `feedback_id`). ' +
    'Send `Idempotency-Key` to retry safely, as for add. See docs/lifecycle.md.',
  idempotencyKey: true,
  body: retrievalFeedbackRequest,
  responses: {
    '200': ok(retrievalFeedbackResponse, 'Recorded; the effect on the memories is applied.'),
    '401': tenantErrors['401'],
    '404': problem('No retrieval with this `retrieval_id` for this tenant (code `not_found`).'),
    '409': problem('`conflict`: feedback with this outcome was already recorded for this retrieval; `feedback_id` names it.'),
    '429': writeRateLimited,
    '422': problem(
      '`validation_failed`: unknown outcome, a `used_memory_ids` entry the retrieval did not return, `agent_confidence` outside 0–1, ' +
        '`user_corrected` without `correction` (or `correction` with another outcome); or `idempotency_key_reused`.',
    ),
  },
});

export const listMemories = defineOperation({
  method: 'get',
  path: '/v1/memories',
  operationId: 'listMemories',
  summary: 'List a user’s memories, newest first, paged by cursor',
  query: listMemoriesQuery,
  responses: { '200': ok(envelope(memoryPage)), ...tenantErrors },
});

export const deleteMemory = defineOperation({
  method: 'delete',
  path: '/v1/memories/{memory_id}',
  operationId: 'deleteMemory',
  summary: 'Delete a memory (archived: out of retrieval, kept in the revision ledger)',
  responses: {
    '200': ok(envelope(memoryDeleted)),
    '401': tenantErrors['401'],
    '404': problem('No such memory for this tenant.'),
    '429': writeRateLimited,
  },
});

export const getEdtechProfile = defineOperation({
  method: 'get',
  path: '/v1/memories/edtech-profile',
  operationId: 'getEdtechProfile',
  summary: 'The structured student profile of a user (EdTech schema), with the memories behind each entry',
  description:
    'Built at read time from the user’s active memories (docs/domain-schemas.md, EdTech). ' +
    'Every entry lists the `memory_ids` it was read from and their `source_event_ids`.',
  query: edtechProfileQuery,
  responses: {
    '200': ok(envelope(studentProfileView)),
    '401': tenantErrors['401'],
    '404': problem('The tenant never sent this `external_user_id`.'),
    '409': problem('`conflict`: the tenant’s domain schema is not `edtech`; enable it with PATCH /v1/tenant/domain-schema.'),
    '422': tenantErrors['422'],
  },
});

export const createMemory = defineOperation({
  method: 'post',
  path: '/v1/memories',
  operationId: 'createMemory',
  summary: 'Write a memory directly, without extraction',
  description:
    'Stored on the path of an extracted memory (docs/direct-operations.md): a source event records its provenance (the `source` ' +
    'block’s writer, else default provenance), the conflict rules apply (writer authority, recency, reviews), the ledger records ' +
    'the creation, and retrieve finds it at once. `metadata` is what `metadata_filter` matches. Not counted in the add budget; ' +
    'counted against the write rate. Send `Idempotency-Key` to retry safely, as for add; the same `source.event_id` with the same ' +
    'body replays the first answer.',
  idempotencyKey: true,
  body: createMemoryRequest,
  responses: {
    '201': ok(envelope(createdMemory), 'Created (`outcome: created`); `status` is `inactive` when it lost a conflict or waits for a conflict review, `pending` when review before write holds it.'),
    '200': ok(envelope(createdMemory), 'The user already had this memory (`outcome: reinforced`): it is returned, reinforced; or a replay.'),
    '401': tenantErrors['401'],
    '403': problem('`PROV_403`: the writer named in `source.service` is bound to another API key.'),
    '404': problem('`PROV_404`: no service writer has the `source.service` key.'),
    '409': problem('`PROV_409`: the source event id exists with a different payload.'),
    '422': problem('`validation_failed` (unknown category, importance outside 0–1, empty content, …), `PROV_422` for an invalid `source` block, or `idempotency_key_reused`.'),
    '429': writeRateLimited,
  },
});

export const getMemory = defineOperation({
  method: 'get',
  path: '/v1/memories/{memory_id}',
  operationId: 'getMemory',
  summary: 'A memory with its provenance, metadata and revision history',
  description: 'Any status (active, inactive, archived). `revisions` lists the claim ledger’s entries for it, oldest first.',
  responses: { '200': ok(envelope(memoryDetail)), '401': tenantErrors['401'], '404': problem('No such memory for this tenant.') },
});

export const updateMemory = defineOperation({
  method: 'patch',
  path: '/v1/memories/{memory_id}',
  operationId: 'updateMemory',
  summary: 'Edit a memory’s content, category or importance (a new revision in the ledger)',
  description:
    'The ledger records an `edited` revision naming the API key and each changed field before and after; new content is re-indexed ' +
    '(claim slot, search terms, vectors, entities). An edit that changes nothing records nothing. The conflict rules are not run ' +
    'against the user’s other memories: to state a new fact, POST /v1/memories. See docs/direct-operations.md.',
  body: updateMemoryRequest,
  responses: {
    '200': ok(envelope(memoryDetail), 'The memory after the edit, with its revisions.'),
    '401': tenantErrors['401'],
    '404': problem('No such memory for this tenant.'),
    '409': problem('`conflict`: the memory is not active (inactive after a conflict or pending a review, or archived).'),
    '422': problem('`validation_failed`: no field given, unknown field or category, importance outside 0–1, empty content.'),
    '429': writeRateLimited,
  },
});
