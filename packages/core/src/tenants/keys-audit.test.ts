import { apiKeys, auditLog, eq } from '@memory/db';
import { describe, expect, it } from 'vitest';
import { useMemoryDatabase } from '../testing/memory-database';
import { createApiKey, revokeApiKey } from '../tenants/keys';
import { type Principal, apiKeyActor, createTenant } from '../tenants/tenants';
import { adminActor, withAudit } from '../audit/audit';

const db = useMemoryDatabase();

describe('audit in the domain', () => {
  it('names the principal’s actor: an API key over REST, an admin in the console', async () => {
    const tenant = await createTenant(db().db, 'audited');
    const rest: Principal = { tenantId: tenant.tenant_id, actor: apiKeyActor(tenant.api_key_id) };
    const console: Principal = { tenantId: tenant.tenant_id, actor: adminActor('7d0c6a52-52a1-4d7e-9a4c-1f0f6f0a3c11') };
    const a = await createApiKey(db().db, rest, 'by rest');
    const b = await createApiKey(db().db, console, 'by console');
    await revokeApiKey(db().db, console, a.id);
    const entries = await db().db.select().from(auditLog).where(eq(auditLog.tenantId, tenant.tenant_id));
    expect(entries.map((e) => [e.action, e.actor, e.targetId]).sort()).toEqual(
      [
        ['api_key.created', rest.actor, a.id],
        ['api_key.created', console.actor, b.id],
        ['api_key.revoked', console.actor, a.id],
      ].sort(),
    );
  });

  it('keeps a key from revoking itself, by its actor', async () => {
    const tenant = await createTenant(db().db, 'self');
    const rest: Principal = { tenantId: tenant.tenant_id, actor: apiKeyActor(tenant.api_key_id) };
    await expect(revokeApiKey(db().db, rest, tenant.api_key_id)).rejects.toMatchObject({ code: 'validation_failed' });
  });

  it('writes the change and its entry together: a failing entry leaves no change', async () => {
    const tenant = await createTenant(db().db, 'atomic');
    const principal: Principal = { tenantId: tenant.tenant_id, actor: apiKeyActor(tenant.api_key_id) };
    await expect(
      withAudit(
        db().db,
        principal,
        (tx) => tx.update(apiKeys).set({ name: 'renamed' }).where(eq(apiKeys.id, tenant.api_key_id)),
        () => {
          throw new Error('the entry cannot be built');
        },
      ),
    ).rejects.toThrow('the entry cannot be built');
    const [key] = await db().db.select().from(apiKeys).where(eq(apiKeys.id, tenant.api_key_id));
    expect(key.name).not.toBe('renamed');
    expect(await db().db.select().from(auditLog).where(eq(auditLog.tenantId, tenant.tenant_id))).toEqual([]);
  });
});
