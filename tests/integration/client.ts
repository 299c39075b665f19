/** A small HTTP client for the tests: real fetch against the real server. */
import { expect, inject } from 'vitest';
import type { ServerInfo } from './server';

export const servers = () => inject('servers');

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export class Api {
  constructor(
    readonly server: ServerInfo,
    private readonly key?: string,
  ) {}

  withKey(key: string) {
    return new Api(this.server, key);
  }

  async request<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<T>> {
    const res = await fetch(this.server.baseUrl + path, {
      method,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(this.key ? { authorization: `ApiKey ${this.key}` } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // leave as text
    }
    return { status: res.status, headers: res.headers, body: parsed as T };
  }

  get = <T = any>(path: string, headers?: Record<string, string>) => this.request<T>('GET', path, undefined, headers);
  post = <T = any>(path: string, body: unknown, headers?: Record<string, string>) => this.request<T>('POST', path, body, headers);
  delete = <T = any>(path: string) => this.request<T>('DELETE', path);

  async createTenant(name = `t-${Math.random().toString(36).slice(2, 8)}`): Promise<{ tenant_id: string; api_key: string }> {
    const res = await this.request('POST', '/v1/admin/tenants', { name }, { authorization: `Bearer ${this.server.adminToken}` });
    if (res.status !== 201) throw new Error(`tenant create failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data;
  }

  /** Polls a job until it leaves queued/running. */
  async waitForJob(jobId: string, timeoutMs = 30_000): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const res = await this.get(`/v1/memories/jobs/${jobId}`);
      if (res.status !== 200) throw new Error(`job poll: ${res.status} ${JSON.stringify(res.body)}`);
      if (!['queued', 'running'].includes(res.body.data.status)) return res.body.data;
      if (Date.now() > deadline) throw new Error(`job ${jobId} still ${res.body.data.status}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

export async function tenantApi(server: ServerInfo): Promise<Api> {
  const admin = new Api(server);
  const t = await admin.createTenant();
  return admin.withKey(t.api_key);
}

/** Registers a service writer with `default_priority` 10 and `factPriority` for the `fact` category. */
export async function factWriter(api: Api, key: string, factPriority: number) {
  const res = await api.post('/v1/tenant/service-writers', {
    service_key: key,
    display_name: key,
    authority_rules: { default_priority: 10, categories: { fact: factPriority } },
  });
  expect(res.status).toBe(201);
  return res.body.data.id as string;
}

/** Adds one user message (with an optional `source` block) and waits for its job to complete. */
export async function sayCompleted(api: Api, user: string, content: string, source?: Record<string, unknown>) {
  const res = await api.post('/v1/memories/add', { external_user_id: user, messages: [{ role: 'user', content }], ...(source ? { source } : {}) });
  expect(res.body.status).toBe('queued');
  const job = await api.waitForJob(res.body.job_id);
  expect(job.status).toBe('completed');
  return job;
}
