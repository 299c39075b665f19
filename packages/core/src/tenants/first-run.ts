/**
 * The first start of a local install (README, quick start): when the database has no tenant at all and
 * MEMORY_DEV_TENANT allows it (by default only on the embedded database), the start creates the development
 * tenant and a console admin, and the operator is shown the tenant's API key once. A later start finds a tenant
 * and does nothing, so the key is never shown again; like every key, only its SHA-256 is stored.
 */
import { type Db, sql, tenants } from '@memory/db';
import { createAdminUser } from '../console/admins';
import type { PlanId } from '../schemas/memories';
import { createTenant } from './tenants';

export const DEV_TENANT_NAME = 'development';
/** The development tenant's console admin: sign-in codes for it land in the development mailbox. */
export const DEV_ADMIN_EMAIL = 'dev@memory.localhost';
/** Serialises the check-and-create of concurrent starts on one PostgreSQL (web and worker processes). */
const FIRST_RUN_LOCK = 7_160_416;

export interface DevTenant {
  tenant_id: string;
  api_key: string;
  admin_email: string;
}

/** Creates the development tenant if the database has no tenant; null when it has one (not a first start). */
export async function createDevTenantIfFirstRun(db: Db, opts: { plan?: PlanId } = {}): Promise<DevTenant | null> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${FIRST_RUN_LOCK})`);
    const [existing] = await tx.select({ id: tenants.id }).from(tenants).limit(1);
    if (existing) return null;
    const created = await createTenant(tx, DEV_TENANT_NAME, opts);
    const admin = await createAdminUser(tx, created.tenant_id, DEV_ADMIN_EMAIL);
    return { tenant_id: created.tenant_id, api_key: created.api_key, admin_email: admin.email };
  });
}

export interface FirstRunPlaces {
  /** Where a browser on this machine reaches the server, e.g. http://localhost:3000. */
  baseUrl: string;
  /** Where console sign-in codes go: the development mailbox page, an SMTP server, or nowhere. */
  signInCodes: 'mailbox' | 'smtp' | 'nowhere';
}

/**
 * What the first start prints to the terminal: the key with the line to paste into the shell that runs curl,
 * the console, and where its sign-in codes land. Written to stdout directly, never through the JSON logger.
 */
export function firstRunBanner(tenant: DevTenant, places: FirstRunPlaces): string {
  const codes = {
    mailbox: `${places.baseUrl}/dev/mailbox`,
    smtp: 'e-mailed through SMTP_URL',
    nowhere: 'nowhere yet: set SMTP_URL, or MEMORY_DEV_MAILBOX=on for the /dev/mailbox page',
  }[places.signInCodes];
  return [
    '',
    `memory-service: first start, created the ${DEV_TENANT_NAME} tenant ${tenant.tenant_id}.`,
    'Its API key is shown this once (only its SHA-256 is stored). In the terminal where you run curl:',
    '',
    `  export MEMORY_API_KEY=${tenant.api_key}`,
    '',
    `  console:       ${places.baseUrl}/console (sign in as ${tenant.admin_email})`,
    `  sign-in codes: ${codes}`,
    '',
    '',
  ].join('\n');
}
