/** Request and response schemas of the operator's console endpoints (POST /v1/admin/tenants/{tenant_id}/admins). */
import { z } from 'zod';
import { adminEmail } from './email';

export const createAdminRequest = z.object({ email: adminEmail }).strict().meta({ id: 'CreateAdminRequest' });

/** A console admin as the operator API returns it. */
export const adminView = z
  .object({ admin_id: z.string().uuid(), tenant_id: z.string().uuid(), email: z.string() })
  .meta({ id: 'ConsoleAdmin' });

export type AdminView = z.infer<typeof adminView>;
