/**
 * The areas of the API: each is one OpenAPI tag (its name and description below), the operations its
 * app/v1/<area>/operations.ts declares and their request examples (app/v1/<area>/examples.ts). The order here is the
 * order of the document's `tags` and of the reference page's sidebar.
 */
import * as admin from '@/app/v1/admin/operations';
import { adminExamples } from '@/app/v1/admin/examples';
import * as agents from '@/app/v1/agents/operations';
import { agentsExamples } from '@/app/v1/agents/examples';
import * as health from '@/app/v1/health/operations';
import { healthExamples } from '@/app/v1/health/examples';
import * as memories from '@/app/v1/memories/operations';
import { memoriesExamples } from '@/app/v1/memories/examples';
import * as tenant from '@/app/v1/tenant/operations';
import { tenantExamples } from '@/app/v1/tenant/examples';
import * as webhooks from '@/app/v1/tenant/webhooks/operations';
import { webhooksExamples } from '@/app/v1/tenant/webhooks/examples';
import * as universal from '@/app/v1/universal/operations';
import { universalExamples } from '@/app/v1/universal/examples';
import * as users from '@/app/v1/users/operations';
import { usersExamples } from '@/app/v1/users/examples';
import * as uui from '@/app/v1/uui/operations';
import { uuiExamples } from '@/app/v1/uui/examples';
import type { OperationSpec } from './operation';
import type { AnyRequestExample } from './operation-example';

export interface ApiArea {
  /** The OpenAPI tag of every operation of the area. */
  readonly tag: string;
  readonly description: string;
  readonly operations: readonly OperationSpec[];
  readonly examples: Readonly<Record<string, AnyRequestExample>>;
}

const area = (tag: string, description: string, operations: object, examples: object): ApiArea => ({
  tag,
  description,
  operations: Object.values(operations) as OperationSpec[],
  examples: examples as Record<string, AnyRequestExample>,
});

export const API_AREAS: readonly ApiArea[] = [
  area(
    'Memories',
    'Send conversations, poll their extraction jobs, retrieve ranked memories with a prompt-ready block, report how a ' +
      'retrieval was used, list and delete memories. With a tenant API key (`Authorization: ApiKey <key>`).',
    memories,
    memoriesExamples,
  ),
  area('Users', 'Everything stored about one end user, as one bundle (docs/export.md).', users, usersExamples),
  area(
    'Tenant',
    'The tenant’s own setup and oversight: service writers, API keys, source events, usage and settings, the domain ' +
      'schema and its Customer Support reads, conflict reviews, and the link tokens of the memory passport.',
    tenant,
    tenantExamples,
  ),
  area(
    'Webhooks',
    'Signed webhook endpoints (Standard Webhooks): event types, the delivery log, resends and secret rotation (docs/webhooks.md).',
    webhooks,
    webhooksExamples,
  ),
  area(
    'Agents',
    'Global agents of the memory passport: registration by a tenant, the public profile, and the exchange of an approved ' +
      'link token for the user’s `X-Service-UUI` token (docs/passport.md).',
    agents,
    agentsExamples,
  ),
  area(
    'Universal memories',
    'A passport user’s universal store, used by a global agent: the agent key plus the user’s `X-Service-UUI` token, ' +
      'limited to the categories the user granted (docs/passport-universal.md).',
    universal,
    universalExamples,
  ),
  area(
    'Passport',
    'The end user’s memory passport: sign-in by e-mailed code, then a passport session (`Authorization: Bearer <session_token>`) ' +
      'for grants, connections and pending questions.',
    uui,
    uuiExamples,
  ),
  area(
    'Admin',
    'Operator only (`Authorization: Bearer <MEMORY_ADMIN_TOKEN>`): tenants, plans, console admins, agent verification.',
    admin,
    adminExamples,
  ),
  area('Health', 'Liveness and readiness; not authenticated, no tenant data.', health, healthExamples),
];
