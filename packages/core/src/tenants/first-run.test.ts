import { adminUsers, apiKeys, tenants } from '@memory/db';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { sha256Hex } from '../crypto';
import { useMemoryDatabase } from '../testing/memory-database';
import { DEV_ADMIN_EMAIL, createDevTenantIfFirstRun, firstRunBanner } from './first-run';
import { authenticateApiKey, listTenants } from './tenants';

describe('MEMORY_DEV_TENANT', () => {
  it('creates the development tenant by default only on the embedded database', () => {
    expect(loadConfig({}).devTenant).toBe(true);
    expect(loadConfig({ DATABASE_URL: 'postgres://db/memory' }).devTenant).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://db/memory', MEMORY_DEV_TENANT: 'on' }).devTenant).toBe(true);
    expect(loadConfig({ MEMORY_DEV_TENANT: 'off' }).devTenant).toBe(false);
    expect(() => loadConfig({ MEMORY_DEV_TENANT: 'yes' })).toThrow(/MEMORY_DEV_TENANT/);
  });
});

describe('createDevTenantIfFirstRun', () => {
  const database = useMemoryDatabase();

  it('creates one tenant with a working key and a console admin on an empty database, then never again', async () => {
    const { db } = database();
    const first = await createDevTenantIfFirstRun(db, { plan: 'free' });
    expect(first).not.toBeNull();
    expect(first!.api_key).toMatch(/^mem_sk_/);
    expect(first!.admin_email).toBe(DEV_ADMIN_EMAIL);
    expect((await authenticateApiKey(db, first!.api_key))?.tenantId).toBe(first!.tenant_id);
    const [key] = await db.select().from(apiKeys);
    expect(key.keyHash).toBe(sha256Hex(first!.api_key));
    expect(JSON.stringify(key)).not.toContain(first!.api_key);

    expect(await createDevTenantIfFirstRun(db)).toBeNull();
    const rows = await db.select({ id: tenants.id, plan: tenants.plan }).from(tenants);
    expect(rows).toEqual([{ id: first!.tenant_id, plan: 'free' }]);
    expect(await db.select({ email: adminUsers.email }).from(adminUsers)).toEqual([{ email: DEV_ADMIN_EMAIL }]);
    expect(await listTenants(db)).toEqual([
      { tenant_id: first!.tenant_id, name: 'development', plan: 'free', created_at: expect.any(String), active_api_keys: 1 },
    ]);
  });
});

describe('firstRunBanner', () => {
  const tenant = { tenant_id: 't-1', api_key: 'mem_sk_abc', admin_email: DEV_ADMIN_EMAIL };

  it('gives the export line to paste, the console and the mailbox', () => {
    const text = firstRunBanner(tenant, { baseUrl: 'http://localhost:3000', signInCodes: 'mailbox' });
    expect(text).toContain('\n  export MEMORY_API_KEY=mem_sk_abc\n');
    expect(text).toContain('http://localhost:3000/console (sign in as dev@memory.localhost)');
    expect(text).toContain('sign-in codes: http://localhost:3000/dev/mailbox');
  });

  it('says where codes go without the mailbox', () => {
    expect(firstRunBanner(tenant, { baseUrl: 'http://x', signInCodes: 'smtp' })).toContain('sign-in codes: e-mailed through SMTP_URL');
    expect(firstRunBanner(tenant, { baseUrl: 'http://x', signInCodes: 'nowhere' })).toContain('MEMORY_DEV_MAILBOX=on');
  });
});
