/**
 * The tenant's domain schema (docs/domain-schemas.md). A tenant setting, never part of a request: add and
 * retrieve take the same bodies under every schema. Switching only changes what is derived at read time
 * (the EdTech profile, retrieve's domain section); memories are never rewritten, so switching back and
 * forth loses nothing.
 */
import { type Db, eq, tenants } from '@memory/db';
import { withAudit } from '../audit/audit';
import type { Principal } from '../tenants/tenants';
import { Errors } from '../errors';
import {
  ACTIVE_DOMAIN_SCHEMAS,
  DEFAULT_DOMAIN_SCHEMA,
  DOMAIN_CATALOGUE,
  type DomainSchemaId,
  type TenantDomainSchema,
} from '../schemas/domains';

const isActive = (id: string): id is DomainSchemaId => (ACTIVE_DOMAIN_SCHEMAS as readonly string[]).includes(id);

/** The tenant's schema; a value this build does not know (a newer deployment's) reads as `general`. */
export async function tenantDomainSchema(db: Db, tenantId: string): Promise<DomainSchemaId> {
  const [row] = await db.select({ d: tenants.domainSchema }).from(tenants).where(eq(tenants.id, tenantId)).limit(1);
  if (!row) throw Errors.notFound('The tenant');
  return isActive(row.d) ? row.d : DEFAULT_DOMAIN_SCHEMA;
}

export function domainSchemaView(active: DomainSchemaId): TenantDomainSchema {
  return {
    domain_schema: active,
    catalogue: DOMAIN_CATALOGUE.map((e) => ({ id: e.id, name: e.name, status: e.status, active: e.id === active })),
  };
}

export async function getDomainSchema(db: Db, tenantId: string): Promise<TenantDomainSchema> {
  return domainSchemaView(await tenantDomainSchema(db, tenantId));
}

/** Throws 422 for anything that is not an available schema; announced and planned ones are named with their status. */
export function checkSelectable(id: string): DomainSchemaId {
  if (isActive(id)) return id;
  const known = DOMAIN_CATALOGUE.find((e) => e.id === id);
  const message = known
    ? `${known.name} (\`${id}\`) is ${known.status}, not available yet; choose one of ${ACTIVE_DOMAIN_SCHEMAS.join(', ')}`
    : `unknown domain schema; choose one of ${ACTIVE_DOMAIN_SCHEMAS.join(', ')}`;
  throw Errors.validation(
    [{ path: 'domain_schema', message }],
    known ? `The ${known.name} schema is ${known.status}; it cannot be chosen yet.` : 'Unknown domain schema.',
  );
}

/**
 * Switches the tenant's schema and records `domain_schema.changed` in the audit log (with the previous and new
 * values, naming the principal's actor) when it actually changes.
 */
export async function setDomainSchema(db: Db, principal: Principal, requested: string): Promise<TenantDomainSchema> {
  const { tenantId } = principal;
  const next = checkSelectable(requested);
  const previous = await tenantDomainSchema(db, tenantId);
  if (previous !== next) {
    await withAudit(
      db,
      principal,
      (tx) => tx.update(tenants).set({ domainSchema: next }).where(eq(tenants.id, tenantId)),
      () => ({ action: 'domain_schema.changed', targetType: 'tenant', targetId: tenantId, details: { from: previous, to: next } }),
    );
  }
  return domainSchemaView(next);
}

