/**
 * The operator's operations (MEMORY_ADMIN_TOKEN; routes below this folder): tenants, plans, console admins, agent
 * verification. lib/openapi.ts assembles them into the document.
 */
import {
  adminView,
  createAdminRequest,
  createTenantRequest,
  createTenantResponse,
  envelope,
  globalAgentPublic,
  planChangeRequest,
  usageReport,
} from '@memory/core';
import { adminSecurity, adminUnauthorized, defineOperation, ok, problem, tenantErrors } from '@/lib/operation';

const noSuchTenant = problem('No admin token configured, or no such tenant.');

export const createTenant = defineOperation({
  method: 'post',
  path: '/v1/admin/tenants',
  operationId: 'createTenant',
  summary: 'Create a tenant and its first API key (operator only)',
  description: 'Exists only when MEMORY_ADMIN_TOKEN is configured; answers 404 otherwise. The key is shown once.',
  security: adminSecurity,
  body: createTenantRequest,
  responses: {
    '201': ok(createTenantResponse, 'Created'),
    '401': adminUnauthorized,
    '404': problem('No admin token configured.'),
    '422': tenantErrors['422'],
  },
});

export const getTenantPlan = defineOperation({
  method: 'get',
  path: '/v1/admin/tenants/{tenant_id}/plan',
  operationId: 'getTenantPlan',
  summary: 'A tenant’s plan and usage (operator only)',
  security: adminSecurity,
  responses: { '200': ok(envelope(usageReport)), '401': adminUnauthorized, '404': noSuchTenant },
});

export const setTenantPlan = defineOperation({
  method: 'put',
  path: '/v1/admin/tenants/{tenant_id}/plan',
  operationId: 'setTenantPlan',
  summary: 'Set a tenant’s plan and overrides (operator only); a new period starts and the quota mode is recomputed at once',
  security: adminSecurity,
  body: planChangeRequest,
  responses: { '200': ok(envelope(usageReport)), '401': adminUnauthorized, '404': noSuchTenant, '422': tenantErrors['422'] },
});

export const createConsoleAdmin = defineOperation({
  method: 'post',
  path: '/v1/admin/tenants/{tenant_id}/admins',
  operationId: 'createConsoleAdmin',
  summary: 'Create a console admin for a tenant (operator only); the admin signs in with an emailed code',
  security: adminSecurity,
  body: createAdminRequest,
  responses: {
    '201': ok(envelope(adminView), 'Created'),
    '401': adminUnauthorized,
    '404': noSuchTenant,
    '409': problem('An admin with this email exists.'),
    '422': tenantErrors['422'],
  },
});

export const verifyGlobalAgent = defineOperation({
  method: 'post',
  path: '/v1/admin/agents/{agent_id}/verify',
  operationId: 'verifyGlobalAgent',
  summary: 'Mark a global agent verified (operator only)',
  security: adminSecurity,
  responses: {
    '200': ok(envelope(globalAgentPublic)),
    '401': adminUnauthorized,
    '404': problem('No admin token configured, or no such agent.'),
  },
});
