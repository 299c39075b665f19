/** Console sign-in helpers shared by the console tests (console.test.ts, domain-schemas.test.ts). */
import { expect } from 'vitest';
import { TrpcClient, mailboxCodes } from './browser';
import { Api } from './client';
import type { ServerInfo } from './server';

export const rand = () => Math.random().toString(36).slice(2, 10);

export class ConsoleClient extends TrpcClient {
  async signIn(email: string): Promise<void> {
    const req = await this.mutate('auth.requestCode', { email });
    expect(req.status).toBe(200);
    const code = await readCode(this.server, email);
    const ok = await this.mutate('auth.verifyCode', { email, code });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const me = await this.query('auth.me');
    expect(me.status).toBe(200);
    this.csrf = me.body.result.data.csrf_token;
  }
}

/** The console codes sent to the address, newest first. */
export const consoleCodes = (server: ServerInfo, email: string) => mailboxCodes(server, email, /Your sign-in code is (\d{6})/);

/** The newest code sent to the address, from the /dev/mailbox page (newest message first). */
export async function readCode(server: ServerInfo, email: string): Promise<string> {
  const codes = await consoleCodes(server, email);
  if (!codes[0]) throw new Error(`no mail for ${email}`);
  return codes[0];
}

export async function tenantWithAdmin(server: ServerInfo) {
  const api = new Api(server);
  const tenant = await api.createTenant();
  const email = `admin-${rand()}@example.com`;
  const res = await api.post(`/v1/admin/tenants/${tenant.tenant_id}/admins`, { email }, { authorization: `Bearer ${server.adminToken}` });
  expect(res.status).toBe(201);
  return { tenant, email, admin: res.body.data, api: api.withKey(tenant.api_key) };
}
