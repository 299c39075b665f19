/**
 * The passport user's operations (docs/passport.md; routes below this folder): sign-in by e-mailed code, then a
 * `PassportSession` bearer token for the passport, its grants, connections and questions. lib/openapi.ts
 * assembles them into the document.
 */
import {
  PASSPORT_ACCESS_LOG_RETENTION,
  PASSPORT_SESSION_RULES,
  accessLogPage,
  accessLogQuery,
  connectionDisconnected,
  connectionView,
  directoryPage,
  directoryQuery,
  envelope,
  grantRequest,
  grantRevoked,
  grantView,
  passportCodeSent,
  passportEmailRequest,
  passportExportBundle,
  passportMe,
  passportMemoriesQuery,
  passportMemoryDeleted,
  passportMemoryPage,
  passportQuestion,
  passportSessionIssued,
  passportVerifyRequest,
  resolvePassportQuestionRequest,
  resolvedPassportQuestion,
  resourceDeleted,
} from '@memory/core';
import { z } from 'zod';
import { type Security, defineOperation, ok, problem, tenantErrors } from '@/lib/operation';

const passport: Security = [{ PassportSession: [] }];
const sessionErrors = { '401': problem('Missing, unknown or expired passport session (code `unauthorized`, `WWW-Authenticate: Bearer`).') };
const codeSent = {
  '200': ok(envelope(passportCodeSent), 'The same answer whether or not the address has a passport.'),
  '422': tenantErrors['422'],
  '429': problem('`rate_limited`: 3 codes per address or 20 per client IP in 10 minutes; `Retry-After` says when.'),
  '503': problem('`service_unavailable`: no way to send mail is configured.'),
};

export const registerPassport = defineOperation({
  method: 'post',
  path: '/v1/uui/register',
  operationId: 'registerPassport',
  summary: 'Create a passport for the address (if it has none) and e-mail a sign-in code',
  security: [],
  body: passportEmailRequest,
  responses: codeSent,
});

export const sendPassportCode = defineOperation({
  method: 'post',
  path: '/v1/uui/otp/send',
  operationId: 'sendPassportCode',
  summary: 'E-mail a sign-in code (6 digits, 10 minutes, single use, 5 tries)',
  security: [],
  body: passportEmailRequest,
  responses: codeSent,
});

export const verifyPassportCode = defineOperation({
  method: 'post',
  path: '/v1/uui/otp/verify',
  operationId: 'verifyPassportCode',
  summary: 'Check the code and return a passport session token (creates the passport at the first sign-in)',
  description: `The session ends after ${PASSPORT_SESSION_RULES.idleMs / 3_600_000} hours without use and ${PASSPORT_SESSION_RULES.absoluteMs / 86_400_000} days after sign-in.`,
  security: [],
  body: passportVerifyRequest,
  responses: {
    '200': ok(envelope(passportSessionIssued)),
    '401': problem('Wrong, expired, used or locked code, or no code for the address (one message for all).'),
    '422': tenantErrors['422'],
  },
});

export const getPassport = defineOperation({
  method: 'get',
  path: '/v1/uui/me',
  operationId: 'getPassport',
  summary: 'The passport of the session',
  security: passport,
  responses: { '200': ok(envelope(passportMe)), ...sessionErrors },
});

export const deletePassport = defineOperation({
  method: 'delete',
  path: '/v1/uui/me',
  operationId: 'deletePassport',
  summary: 'Erase the passport: universal memories, grants, connections, tokens, sessions and codes (audited without content)',
  security: passport,
  responses: { '200': ok(envelope(resourceDeleted)), ...sessionErrors },
});

export const listGrants = defineOperation({
  method: 'get',
  path: '/v1/uui/me/grants',
  operationId: 'listGrants',
  summary: 'Active grants',
  security: passport,
  responses: { '200': ok(envelope(z.array(grantView))), ...sessionErrors },
});

export const saveGrant = defineOperation({
  method: 'post',
  path: '/v1/uui/me/grants',
  operationId: 'saveGrant',
  summary: 'Create (201) or replace (200) the grant for an agent',
  security: passport,
  body: grantRequest,
  responses: {
    '200': ok(envelope(grantView), 'Updated'),
    '201': ok(envelope(grantView), 'Created'),
    ...sessionErrors,
    '404': problem('No such agent.'),
    '422': tenantErrors['422'],
  },
});

export const revokeGrant = defineOperation({
  method: 'delete',
  path: '/v1/uui/me/grants/{grant_id}',
  operationId: 'revokeGrant',
  summary: 'Revoke a grant at once',
  security: passport,
  responses: { '200': ok(envelope(grantRevoked)), ...sessionErrors, '404': problem('No such grant of this passport.') },
});

export const listOrganisations = defineOperation({
  method: 'get',
  path: '/v1/uui/organisations',
  operationId: 'listOrganisations',
  summary: 'The public directory of listed agents, verified first',
  security: [],
  query: directoryQuery,
  responses: { '200': ok(envelope(directoryPage)), '422': tenantErrors['422'] },
});

export const listConnections = defineOperation({
  method: 'get',
  path: '/v1/uui/me/connections',
  operationId: 'listConnections',
  summary: 'Services linked to this passport',
  security: passport,
  responses: { '200': ok(envelope(z.array(connectionView))), ...sessionErrors },
});

export const disconnectService = defineOperation({
  method: 'delete',
  path: '/v1/uui/me/connections/{connection_id}',
  operationId: 'disconnectService',
  summary: 'Disconnect a service: its X-Service-UUI tokens stop working at once (the grant stays until revoked)',
  security: passport,
  responses: { '200': ok(envelope(connectionDisconnected)), ...sessionErrors, '404': problem('No such connection of this passport.') },
});

export const listPassportQuestions = defineOperation({
  method: 'get',
  path: '/v1/uui/me/questions',
  operationId: 'listPassportQuestions',
  summary: 'Pending questions: conflicting universal memories only the user can settle, oldest first',
  description: 'Each question has two `options` (the conflicting claims); while it is open, neither claim is retrieved by any agent.',
  security: passport,
  responses: { '200': ok(envelope(z.array(passportQuestion))), ...sessionErrors },
});

export const resolvePassportQuestion = defineOperation({
  method: 'post',
  path: '/v1/uui/me/questions/{review_id}/resolve',
  operationId: 'resolvePassportQuestion',
  summary: 'Answer a pending question: keep one option, archive the other',
  security: passport,
  body: resolvePassportQuestionRequest,
  responses: {
    '200': ok(envelope(resolvedPassportQuestion)),
    ...sessionErrors,
    '404': problem('No such question of this passport.'),
    '409': problem('`conflict`: the question has already been answered.'),
    '422': problem('`validation_failed`: `keep_memory_id` is missing or is not one of the options.'),
  },
});

export const listPassportMemories = defineOperation({
  method: 'get',
  path: '/v1/uui/me/memories',
  operationId: 'listPassportMemories',
  summary: 'Your universal memories, newest first, each with the agent that wrote it and when',
  description:
    'Every status by default: `active` (agents with a grant for its category may read it), `inactive` (waiting for your answer to a ' +
    'pending question), `archived` (superseded, or deleted by an agent). Paged: pass `next_cursor` back as `cursor`.',
  security: passport,
  query: passportMemoriesQuery,
  responses: { '200': ok(envelope(passportMemoryPage)), ...sessionErrors, '422': tenantErrors['422'] },
});

export const deletePassportMemory = defineOperation({
  method: 'delete',
  path: '/v1/uui/me/memories/{memory_id}',
  operationId: 'deletePassportMemory',
  summary: 'Erase one of your memories: no agent gets it again (audited without content)',
  description: 'An open pending question about it is settled for the other memory. Erasing again is 404.',
  security: passport,
  responses: { '200': ok(envelope(passportMemoryDeleted)), ...sessionErrors, '404': problem('No such memory of this passport.') },
});

export const exportPassport = defineOperation({
  method: 'get',
  path: '/v1/uui/me/export',
  operationId: 'exportPassport',
  summary: 'Download everything your passport holds: memories with their writers, grants, connections, questions, access log',
  description: 'JSON, sent as an attachment (`Content-Disposition: attachment; filename="memory-passport-export.json"`), not in the envelope.',
  security: passport,
  responses: { '200': ok(passportExportBundle), ...sessionErrors },
});

export const listAccessLog = defineOperation({
  method: 'get',
  path: '/v1/uui/me/access-log',
  operationId: 'listAccessLog',
  summary: 'Which agent read your memories, when, and how many (newest first)',
  description: `One entry per agent read (retrieve or list, over REST or MCP), never the content or the query. Kept ${PASSPORT_ACCESS_LOG_RETENTION.days} days, at most ${PASSPORT_ACCESS_LOG_RETENTION.maxEntries} entries per passport.`,
  security: passport,
  query: accessLogQuery,
  responses: { '200': ok(envelope(accessLogPage)), ...sessionErrors, '422': tenantErrors['422'] },
});
