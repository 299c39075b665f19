/**
 * The memory passport on PostgreSQL only: expired link tokens (the test moves `expires_at` into the past in SQL;
 * a PGlite server owns its data directory), the universal credential check, and the stored rows after erasure.
 */
import { authenticateUniversalAgent } from '@memory/core';
import { createDatabase } from '@memory/db';
import postgres from 'postgres';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { Api, servers, tenantApi } from './client';
import {
  ConsentBrowser,
  PassportApi,
  apiCode,
  connectedUser,
  createAgent,
  data,
  exchange,
  linkToken,
  rand,
  sha256,
} from './passport-flow';
import type { ServerInfo } from './server';

describe.runIf(servers().some((s) => s.name === 'postgres'))('passport storage, expiry and universal credentials on postgres', () => {
  const server = servers().find((s) => s.name === 'postgres') as ServerInfo;
  const url = inject('pgDatabaseUrl');
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const database = createDatabase({ kind: 'postgres', url, poolSize: 2 });
  afterAll(async () => {
    await sql.end({ timeout: 5 });
    await database.close();
  });

  it('refuses an expired link token on the consent page and at the exchange', async () => {
    const api = await tenantApi(server);
    const agent = await createAgent(api);
    const browser = new ConsentBrowser(server);
    await browser.signIn(`expiry-${rand()}@example.com`);

    const unanswered = await linkToken(api, agent.id, 'u-exp');
    await sql`UPDATE link_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = ${sha256(unanswered)}`;
    expect(data(await browser.query('linkRequest', { agentId: agent.id, linkToken: unanswered })).status).toBe('expired');
    const late = await browser.mutate('approveLink', { agentId: agent.id, linkToken: unanswered, categories: ['fact'], accessType: 'read_only' });
    expect(apiCode(late)).toBe('link_token_expired');
    expect(data(await browser.query('grants'))).toEqual([]);

    const approvedLate = await linkToken(api, agent.id, 'u-exp');
    expect((await browser.mutate('approveLink', { agentId: agent.id, linkToken: approvedLate, categories: ['fact'], accessType: 'read_only' })).status).toBe(200);
    await sql`UPDATE link_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = ${sha256(approvedLate)}`;
    const refused = await exchange(server, agent.raw_agent_api_key, approvedLate);
    expect(refused.status).toBe(410);
    expect(refused.body.code).toBe('link_token_expired');

    // stored as hashes only
    const stored = await sql`SELECT token_hash, status FROM link_tokens WHERE agent_id = ${agent.id} ORDER BY created_at`;
    expect(stored.map((r) => r.status)).toEqual(['pending', 'approved']);
    expect(JSON.stringify(stored)).not.toContain('mem_lt_');
  });

  it('checks universal credentials: agent key, X-Service-UUI token of that agent, live connection, active grant', async () => {
    const { api, agent, browser, issued } = await connectedUser(server);
    const key = agent.raw_agent_api_key;
    const ok = await authenticateUniversalAgent(database.db, key, issued.uui_token);
    const [{ passport_user_id }] = await sql`SELECT passport_user_id FROM passport_connections WHERE id = ${issued.connection_id}`;
    expect(ok).toEqual({
      agent: { id: agent.id, tenantId: expect.any(String), name: agent.name },
      passportUserId: passport_user_id,
      grant: { id: expect.any(String), categories: ['fact', 'goal'], accessType: 'read_write' },
    });
    const sibling = await createAgent(api);
    const failure = (p: Promise<unknown>) => p.then(() => null, (e: { status: number; code: string }) => ({ status: e.status, code: e.code }));
    expect(await failure(authenticateUniversalAgent(database.db, sibling.raw_agent_api_key, issued.uui_token))).toEqual({ status: 403, code: 'uui_token_agent_mismatch' });
    expect(await failure(authenticateUniversalAgent(database.db, 'mem_ak_wrong', issued.uui_token))).toEqual({ status: 401, code: 'unauthorized' });
    expect(await failure(authenticateUniversalAgent(database.db, key, 'mem_uui_unknown'))).toEqual({ status: 401, code: 'uui_token_invalid' });
    expect(await failure(authenticateUniversalAgent(database.db, key, ''))).toEqual({ status: 401, code: 'uui_token_invalid' });

    // a revoked grant: the token still names the user, the grant is null
    const [grant] = data(await browser.query('grants'));
    await browser.mutate('revokeGrant', { grantId: grant.id });
    expect((await authenticateUniversalAgent(database.db, key, issued.uui_token)).grant).toBeNull();
    // disconnected: the token stops working at once
    await browser.mutate('disconnect', { connectionId: issued.connection_id });
    expect(await failure(authenticateUniversalAgent(database.db, key, issued.uui_token))).toEqual({ status: 401, code: 'uui_token_invalid' });
    const tokens = await sql`SELECT token_hash, revoked_at FROM uui_tokens WHERE connection_id = ${issued.connection_id}`;
    expect(tokens).toHaveLength(1);
    expect(tokens[0].token_hash).toBe(sha256(issued.uui_token));
    expect(tokens[0].revoked_at).not.toBeNull();
  });

  it('erases every passport row on deletion and keeps one audit entry without content', async () => {
    const { email, issued, agent } = await connectedUser(server);
    // one agent read, so the passport has an access-log entry
    const read = await new Api(server).withKey(agent.raw_agent_api_key).post('/v1/universal/memories/retrieve', { query: 'anything' }, { 'x-service-uui': issued.uui_token });
    expect(read.status).toBe(200);
    const rest = new PassportApi(server);
    await rest.signIn(email);
    const id = (await rest.request('GET', '/v1/uui/me')).body.data.id;
    const count = async () => {
      const [r] = await sql`SELECT
        (SELECT count(*) FROM grants WHERE passport_user_id = ${id})::int AS grants,
        (SELECT count(*) FROM passport_connections WHERE passport_user_id = ${id})::int AS connections,
        (SELECT count(*) FROM uui_tokens WHERE passport_user_id = ${id})::int AS uui_tokens,
        (SELECT count(*) FROM link_tokens WHERE passport_user_id = ${id})::int AS link_tokens,
        (SELECT count(*) FROM passport_access_log WHERE passport_user_id = ${id})::int AS access_log,
        (SELECT count(*) FROM sessions WHERE audience = 'passport' AND subject_id = ${id})::int AS sessions,
        (SELECT count(*) FROM otp_codes WHERE audience = 'passport' AND email_hash = ${sha256(email)})::int AS codes,
        (SELECT count(*) FROM passport_users WHERE id = ${id})::int AS users`;
      return r;
    };
    expect(await count()).toEqual({ grants: 1, connections: 1, uui_tokens: 1, link_tokens: 1, access_log: 1, sessions: 2, codes: 2, users: 1 });
    const session = await sql`SELECT token_hash FROM sessions WHERE subject_id = ${id} AND token_hash = ${sha256(rest.token as string)}`;
    expect(session).toHaveLength(1);

    expect((await rest.request('DELETE', '/v1/uui/me')).status).toBe(200);
    expect(await count()).toEqual({ grants: 0, connections: 0, uui_tokens: 0, link_tokens: 0, access_log: 0, sessions: 0, codes: 0, users: 0 });
    const audit = await sql`SELECT action, details FROM passport_audit WHERE passport_user_id = ${id} ORDER BY created_at`;
    expect(audit.map((a) => a.action)).toContain('passport.deleted');
    expect(audit.find((a) => a.action === 'passport.deleted')?.details).toEqual({ grants: 1, connections: 1, universal_memories: 0 });
    const text = JSON.stringify(audit);
    expect(text).not.toContain(email);
    expect(text).not.toContain(issued.uui_token);
  });
});
