/** Service writers: named backend services with an authority per memory category (docs/provenance.md). */
import { randomUUID } from 'node:crypto';
import { type Db, and, apiKeys, asc, eq, isNull, serviceWriters } from '@memory/db';
import type { z } from 'zod';
import { Errors } from '../errors';
import type { createServiceWriterRequest, serviceWriterView } from '../schemas/provenance';
import type { Principal, TenantAuth } from '../tenants/tenants';
import { withAudit } from '../audit/audit';

type CreateWriter = z.output<typeof createServiceWriterRequest>;
type WriterView = z.output<typeof serviceWriterView>;

const UNIQUE_VIOLATION = '23505';

function toView(w: typeof serviceWriters.$inferSelect): WriterView {
  return {
    id: w.id,
    service_key: w.serviceKey,
    display_name: w.displayName,
    authority_rules: w.authorityRules as WriterView['authority_rules'],
    api_key_id: w.apiKeyId,
    created_at: w.createdAt.toISOString(),
  };
}

/** Creates a writer (audited as `service_writer.created`, naming the principal's actor). */
export async function createServiceWriter(db: Db, auth: Principal, body: CreateWriter): Promise<WriterView> {
  if (body.api_key_id) {
    const [key] = await db
      .select({ id: apiKeys.id })
      .from(apiKeys)
      .where(and(eq(apiKeys.tenantId, auth.tenantId), eq(apiKeys.id, body.api_key_id), isNull(apiKeys.revokedAt)))
      .limit(1);
    if (!key) {
      throw Errors.provInvalid('api_key_id does not name an active API key of this tenant.', [
        { path: 'api_key_id', message: 'unknown or revoked API key' },
      ]);
    }
  }
  const [existing] = await db
    .select({ id: serviceWriters.id })
    .from(serviceWriters)
    .where(and(eq(serviceWriters.tenantId, auth.tenantId), eq(serviceWriters.serviceKey, body.service_key)))
    .limit(1);
  if (existing) throw Errors.provConflict(`A service writer with service_key "${body.service_key}" already exists.`);
  try {
    const row = await withAudit(
      db,
      auth,
      async (tx) =>
        (
          await tx
            .insert(serviceWriters)
            .values({
              id: randomUUID(),
              tenantId: auth.tenantId,
              serviceKey: body.service_key,
              displayName: body.display_name,
              authorityRules: body.authority_rules,
              apiKeyId: body.api_key_id ?? null,
            })
            .returning()
        )[0],
      (created) => ({ action: 'service_writer.created', targetType: 'service_writer', targetId: created.id, details: { service_key: created.serviceKey } }),
    );
    return toView(row);
  } catch (err) {
    // A concurrent create of the same key lost the race on the unique index.
    const cause = (err as { cause?: { code?: string }; code?: string }).cause ?? (err as { code?: string });
    if (cause?.code === UNIQUE_VIOLATION) {
      throw Errors.provConflict(`A service writer with service_key "${body.service_key}" already exists.`);
    }
    throw err;
  }
}

export async function listServiceWriters(db: Db, auth: Principal): Promise<WriterView[]> {
  const rows = await db
    .select()
    .from(serviceWriters)
    .where(eq(serviceWriters.tenantId, auth.tenantId))
    .orderBy(asc(serviceWriters.createdAt));
  return rows.map(toView);
}

export async function findServiceWriter(db: Db, tenantId: string, serviceKey: string) {
  const [row] = await db
    .select()
    .from(serviceWriters)
    .where(and(eq(serviceWriters.tenantId, tenantId), eq(serviceWriters.serviceKey, serviceKey)))
    .limit(1);
  return row ?? null;
}

/**
 * The writer an add with `source.service` writes as. Unknown service: PROV_404. A writer bound to an
 * API key accepts only that key: PROV_403.
 */
export async function resolveWriter(db: Db, auth: TenantAuth, serviceKey: string) {
  const writer = await findServiceWriter(db, auth.tenantId, serviceKey);
  if (!writer) throw Errors.provWriterNotFound(serviceKey);
  if (writer.apiKeyId && writer.apiKeyId !== auth.apiKeyId) throw Errors.provKeyMismatch(serviceKey);
  return writer;
}
