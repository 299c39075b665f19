/** Who acts in a tenant-scoped call: a leaf module, so the audit log (audit/) and every domain folder can name it. */

/** Who acts, as the audit log names it: an API key of the tenant, or a console admin. */
export type Actor = `api_key:${string}` | `admin:${string}`;

/**
 * The principal of a tenant-scoped call, made once per request: by `requireTenant` from the API key (REST) or by
 * the console's admin procedure from the session. Domain functions that change what an admin would audit record
 * the audit entry themselves, naming `actor`, in the change's transaction, so REST and the console audit alike.
 */
export interface Principal {
  tenantId: string;
  actor: Actor;
}

/** A principal authenticated by an API key (the REST API): the key also scopes idempotency. */
export interface TenantAuth extends Principal {
  apiKeyId: string;
}

export const apiKeyActor = (apiKeyId: string): Actor => `api_key:${apiKeyId}`;
