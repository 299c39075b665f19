/** The end user's export and erasure (routes beside this file); lib/openapi.ts assembles them into the document. */
import { envelope, erasureReceiptView, exportQuery } from '@memory/core';
import { described, defineOperation, ok, tenantErrors, problem, writeRateLimited } from '@/lib/operation';

export const exportUser = defineOperation({
  method: 'get',
  path: '/v1/users/me/export',
  operationId: 'exportUser',
  summary: 'Complete export bundle of one end user (memories with provenance, ledger, source events, jobs)',
  query: exportQuery,
  responses: { '200': described('The bundle, see docs/export.md.'), ...tenantErrors, '404': problem('Unknown user.') },
});

export const eraseUser = defineOperation({
  method: 'delete',
  path: '/v1/users/{external_user_id}',
  operationId: 'eraseUser',
  summary: 'Erase everything held about one end user (GDPR Art. 17) and return a receipt',
  description:
    'One transaction removes the user’s memories, claim ledger, source events and payloads, jobs, passages, entities, ' +
    'pending candidates, reviews, retrievals, feedback, saved Idempotency-Key answers, webhook events that mention them, ' +
    'passport connections and link tokens made from this `external_user_id`, and the user row; a tombstone keeps the ' +
    'counts and hashes only, and `user.erased` is sent. `sha256` is the SHA-256 of the listing in `erased` ' +
    '(docs/erasure.md says how to verify it). Calling again answers the earlier receipt with `already_erased` true and ' +
    '`erased` null; data sent for the id after an erasure is erased by the next call. URL-encode the `external_user_id`.',
  pathTypes: { external_user_id: 'text' },
  responses: {
    '200': ok(envelope(erasureReceiptView), 'The receipt.'),
    '401': tenantErrors['401'],
    '404': problem('Nothing is held about this `external_user_id` and it was never erased.'),
    '422': tenantErrors['422'],
    '429': writeRateLimited,
  },
});
