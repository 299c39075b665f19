/** The end user's export (route beside this file); lib/openapi.ts assembles it into the document. */
import { exportQuery } from '@memory/core';
import { described, defineOperation, tenantErrors, problem } from '@/lib/operation';

export const exportUser = defineOperation({
  method: 'get',
  path: '/v1/users/me/export',
  operationId: 'exportUser',
  summary: 'Complete export bundle of one end user (memories with provenance, ledger, source events, jobs)',
  query: exportQuery,
  responses: { '200': described('The bundle, see docs/export.md.'), ...tenantErrors, '404': problem('Unknown user.') },
});
