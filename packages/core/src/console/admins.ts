/** Console admin users: created by the operator (CLI or admin API), one tenant each, unique by e-mail. */
import { randomUUID } from 'node:crypto';
import { type Db, adminUsers, eq, tenants } from '@memory/db';
import { Errors } from '../errors';
import { type AdminView } from '../schemas/console';
import { adminEmail, normalizeEmail } from '../schemas/email';

export { adminEmail };
export type { AdminView };


const UNIQUE_VIOLATION = '23505';

/** Unknown tenant: 404. An address that already belongs to an admin (of any tenant): 409. */
export async function createAdminUser(db: Db, tenantId: string, email: string): Promise<AdminView> {
  const address = normalizeEmail(email);
  const [tenant] = await db.select({ id: tenants.id }).from(tenants).where(eq(tenants.id, tenantId)).limit(1);
  if (!tenant) throw Errors.notFound(`Tenant ${tenantId}`);
  const taken = () => Errors.conflict('An admin with this e-mail address already exists.');
  const [existing] = await db.select({ id: adminUsers.id }).from(adminUsers).where(eq(adminUsers.email, address)).limit(1);
  if (existing) throw taken();
  try {
    const [row] = await db.insert(adminUsers).values({ id: randomUUID(), tenantId, email: address }).returning();
    return { admin_id: row.id, tenant_id: row.tenantId, email: row.email };
  } catch (err) {
    const cause = (err as { cause?: { code?: string }; code?: string }).cause ?? (err as { code?: string });
    if (cause?.code === UNIQUE_VIOLATION) throw taken();
    throw err;
  }
}

