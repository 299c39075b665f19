/** Additional API keys of a tenant (one per service is the production pattern), listed and revoked. */
import { randomUUID } from 'node:crypto';
import { type Db, and, apiKeys, asc, eq, sql } from '@memory/db';
import { generateKey } from '../crypto';
import { Errors } from '../errors';
import { withAudit } from '../audit/audit';
import { type Principal, apiKeyActor, forgetVerifiedKey } from './tenants';

export interface ApiKeyView {
  id: string;
  name: string;
  display_prefix: string;
  last4: string;
  created_at: string;
  revoked_at: string | null;
}

const toView = (k: typeof apiKeys.$inferSelect): ApiKeyView => ({
  id: k.id,
  name: k.name,
  display_prefix: k.displayPrefix,
  last4: k.last4,
  created_at: k.createdAt.toISOString(),
  revoked_at: k.revokedAt ? k.revokedAt.toISOString() : null,
});

/** Creates a key; the secret is in the result once and never again. */
/** Creates a key (audited as `api_key.created`, naming the principal's actor). */
export async function createApiKey(db: Db, auth: Principal, name: string): Promise<ApiKeyView & { api_key: string }> {
  const key = generateKey('tenant');
  const row = await withAudit(
    db,
    auth,
    async (tx) =>
      (
        await tx
          .insert(apiKeys)
          .values({ id: randomUUID(), tenantId: auth.tenantId, name, keyHash: key.hash, displayPrefix: key.displayPrefix, last4: key.last4 })
          .returning()
      )[0],
    (created) => ({ action: 'api_key.created', targetType: 'api_key', targetId: created.id }),
  );
  return { ...toView(row), api_key: key.key };
}

export async function listApiKeys(db: Db, auth: Principal): Promise<ApiKeyView[]> {
  const rows = await db.select().from(apiKeys).where(eq(apiKeys.tenantId, auth.tenantId)).orderBy(asc(apiKeys.createdAt));
  return rows.map(toView);
}

/**
 * Revokes a key at once in this process (within the key cache TTL in others). The key making the call cannot
 * revoke itself, so a tenant cannot lock itself out by accident.
 */
export async function revokeApiKey(db: Db, auth: Principal, keyId: string): Promise<ApiKeyView> {
  if (auth.actor === apiKeyActor(keyId)) {
    throw Errors.validation([{ path: 'key_id', message: 'a key cannot revoke itself; use another key of this tenant' }]);
  }
  const row = await withAudit(
    db,
    auth,
    async (tx) => {
      const [revoked] = await tx
        .update(apiKeys)
        .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, now())` })
        .where(and(eq(apiKeys.tenantId, auth.tenantId), eq(apiKeys.id, keyId)))
        .returning();
      if (!revoked) throw Errors.notFound(`API key ${keyId}`);
      return revoked;
    },
    (revoked) => ({ action: 'api_key.revoked', targetType: 'api_key', targetId: revoked.id }),
  );
  forgetVerifiedKey(row.keyHash);
  return toView(row);
}

