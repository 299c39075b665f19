/**
 * The memory passport flow through the public API, as a real tenant, agent and user go through it: a tenant
 * creates a global agent and a link token, a passport user signs in (code from the development mailbox),
 * approves the link in the consent app (tRPC `passport.approveLink`), and the agent exchanges the link token for
 * an X-Service-UUI token. Works on both engines (no SQL). Used by passport.test.ts and universal.test.ts.
 */
import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import { TrpcClient, type TrpcResult, mailboxCodes, randomIp } from './browser';
import { Api, tenantApi } from './client';
import type { ServerInfo } from './server';

export const rand = () => Math.random().toString(36).slice(2, 10);

/** Passport codes sent to the address, newest first. */
export const passportCodes = (server: ServerInfo, email: string) => mailboxCodes(server, email, /Your passport sign-in code is (\d{6})/);

export async function readCode(server: ServerInfo, email: string): Promise<string> {
  const [code] = await passportCodes(server, email.toLowerCase());
  if (!code) throw new Error(`no passport mail for ${email}`);
  return code;
}

/** A REST client of the user-scoped endpoints: `Authorization: Bearer <session token>`. */
export class PassportApi {
  token: string | null = null;
  constructor(
    readonly server: ServerInfo,
    readonly ip = randomIp(),
  ) {}
  request(method: string, path: string, body?: unknown) {
    return new Api(this.server).request(method, path, body, {
      'x-forwarded-for': this.ip,
      ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
    });
  }
  async signIn(email: string) {
    expect((await this.request('POST', '/v1/uui/otp/send', { email })).status).toBe(200);
    const res = await this.request('POST', '/v1/uui/otp/verify', { email, code: await readCode(this.server, email) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    this.token = res.body.data.session_token;
    return res.body.data;
  }
}

/** The consent app in a browser: the `mem_passport` cookie and the CSRF header. */
export class ConsentBrowser extends TrpcClient {
  constructor(server: ServerInfo) {
    super(server, randomIp(), 'passport.');
  }

  async signIn(email: string) {
    expect((await this.mutate('sendCode', { email })).status).toBe(200);
    const res = await this.mutate('verifyCode', { email, code: await readCode(this.server, email) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    this.csrf = res.body.result.data.csrfToken;
    return res;
  }
}

export const data = (r: TrpcResult) => r.body.result.data;

export async function createAgent(api: Api, body: Record<string, unknown> = {}) {
  const res = await api.post('/v1/agents/global', { name: `Agent ${rand()}`, default_categories_requested: ['fact', 'preference'], ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: string; name: string; raw_agent_api_key: string; default_categories_requested: string[] };
}

export async function linkToken(api: Api, agentId: string, externalUserId: string): Promise<string> {
  const res = await api.post('/v1/tenant/memory-passport/link-token', { agent_id: agentId, external_user_id: externalUserId });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.link_token;
}

export const exchange = (server: ServerInfo, key: string, token: string) =>
  new Api(server).post('/v1/agents/passport-token', { link_token: token }, { authorization: `ApiKey ${key}` });

export interface Grant {
  categories: readonly string[];
  access: 'read_only' | 'read_write';
}

/** A passport user signed in to the consent app; `rest()` signs the same address in over REST on first use. */
export interface Passport {
  server: ServerInfo;
  email: string;
  browser: ConsentBrowser;
  rest(): Promise<PassportApi>;
  /** The passport user's id (from the REST sign-in). */
  id(): Promise<string>;
}

export async function signInPassport(server: ServerInfo, email = `user-${rand()}@example.com`): Promise<Passport> {
  const browser = new ConsentBrowser(server);
  await browser.signIn(email);
  let signedIn: Promise<{ api: PassportApi; id: string }> | null = null;
  const rest = () =>
    (signedIn ??= (async () => {
      const api = new PassportApi(server);
      const me = await api.signIn(email);
      return { api, id: me.passport.id as string };
    })());
  return { server, email, browser, rest: async () => (await rest()).api, id: async () => (await rest()).id };
}

/**
 * Connects `passport` to a new global agent of a tenant (a new tenant unless given): link token for
 * `externalUserId`, approval of `grant` in the consent app, exchange by the agent. Returns the agent's
 * universal client (agent key + X-Service-UUI token) and the means to revoke or change the grant.
 */
export async function connectAgent(
  passport: Passport,
  grant: Grant,
  opts: { tenant?: Api; externalUserId?: string; agent?: Record<string, unknown> } = {},
) {
  const { server, browser } = passport;
  const tenant = opts.tenant ?? (await tenantApi(server));
  const externalUserId = opts.externalUserId ?? `customer-${rand()}${rand()}`;
  const agent = await createAgent(tenant, opts.agent);
  const token = await linkToken(tenant, agent.id, externalUserId);
  const approved = await browser.mutate('approveLink', { agentId: agent.id, linkToken: token, categories: grant.categories, accessType: grant.access });
  expect(approved.status, JSON.stringify(approved.body)).toBe(200);
  const issued = await exchange(server, agent.raw_agent_api_key, token);
  expect(issued.status, JSON.stringify(issued.body)).toBe(200);
  const grants = await browser.query('grants');
  expect(grants.status).toBe(200);
  const grantId = (data(grants) as { id: string; agent: { id: string } }[]).find((g) => g.agent.id === agent.id)?.id;
  if (!grantId) throw new Error(`no grant for agent ${agent.id}`);

  const api = new Api(server).withKey(agent.raw_agent_api_key);
  const uuiToken = issued.body.data.uui_token as string;
  const headers = { 'x-service-uui': uuiToken };
  return {
    tenant,
    agent,
    agentId: agent.id,
    agentKey: agent.raw_agent_api_key,
    externalUserId,
    linkToken: token,
    issued: issued.body.data as { uui_token: string; connection_id: string; categories: string[]; access_type: string },
    uuiToken,
    grantId,
    add: (body: unknown) => api.post('/v1/universal/memories/add', body, headers),
    retrieve: (body: unknown) => api.post('/v1/universal/memories/retrieve', body, headers),
    job: (id: string) => api.get(`/v1/universal/memories/jobs/${id}`, headers),
    /** `DELETE /v1/uui/me/grants/{id}` with the passport session. */
    revoke: async () => {
      const res = await (await passport.rest()).request('DELETE', `/v1/uui/me/grants/${grantId}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res;
    },
    /** `POST /v1/uui/me/grants` with the passport session: replaces the categories and access. */
    setGrant: async (next: Grant) => {
      const res = await (await passport.rest()).request('POST', '/v1/uui/me/grants', {
        agent_id: agent.id,
        categories: next.categories,
        access_type: next.access,
      });
      expect([200, 201], JSON.stringify(res.body)).toContain(res.status);
      return res;
    },
  };
}

export type ConnectedAgent = Awaited<ReturnType<typeof connectAgent>>;

/** A tenant with an agent, a signed-in passport user who approved `fact` and `goal` read-write for `externalUserId`, and the exchange. */
export async function connectedUser(server: ServerInfo, externalUserId?: string) {
  const passport = await signInPassport(server);
  const c = await connectAgent(passport, { categories: ['fact', 'goal'], access: 'read_write' }, { externalUserId });
  return { api: c.tenant, agent: c.agent, browser: passport.browser, email: passport.email, token: c.linkToken, issued: c.issued, externalUserId: c.externalUserId };
}

export const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');
export const PUBLIC_FIELDS = ['default_categories_requested', 'description', 'id', 'is_verified', 'logo_url', 'name', 'website_url'];
export const apiCode = (r: TrpcResult) => r.body.error?.data?.apiCode;
