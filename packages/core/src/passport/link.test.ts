/**
 * The consent link on an in-memory PGlite with the real migrations: concurrent uses of one token (exactly one
 * wins), expiry (moved into the past in SQL), and the universal credential check after the exchange.
 */
import { type Database, createDatabase, linkTokens, passportUsers, runMigrations, sql } from '@memory/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../crypto';
import { apiKeyActor, createTenant } from '../tenants/tenants';
import { createGlobalAgent } from './agents';
import { authenticateUniversalAgent } from './auth';
import { disconnect, revokeGrant } from './grants';
import { approveLink, createLinkToken, declineLink, exchangeLinkToken } from './link';

let database: Database;
beforeAll(async () => {
  database = createDatabase({ kind: 'pglite', dataDir: null });
  await runMigrations({ kind: 'pglite', dataDir: null }, database);
}, 60_000);
afterAll(() => database?.close());

async function setUp() {
  const db = database.db;
  const tenant = await createTenant(db, `t-${Math.random()}`);
  const auth = { tenantId: tenant.tenant_id, apiKeyId: tenant.api_key_id, actor: apiKeyActor(tenant.api_key_id) };
  const base = { description: '', website_url: '', logo_url: '', default_categories_requested: [], redirect_uri: '' };
  const agent = await createGlobalAgent(db, auth, { ...base, name: 'A', redirect_uri: 'https://a.example/done' });
  const other = await createGlobalAgent(db, auth, { ...base, name: 'B' });
  const [user] = await db.insert(passportUsers).values({ id: crypto.randomUUID(), email: `${Math.random()}@example.com` }).returning();
  const link = await createLinkToken(db, auth, { agent_id: agent.id, external_user_id: 'customer-1' }, 600);
  const agentAuth = { id: agent.id, tenantId: auth.tenantId, name: agent.name };
  return { db, auth, agent, other, user, link, agentAuth };
}

const outcome = (p: Promise<unknown>) => p.then(() => 'ok', (e: { code?: string }) => e.code ?? 'error');
const approve = (s: Awaited<ReturnType<typeof setUp>>, token = s.link.link_token) =>
  approveLink(s.db, { passportUserId: s.user.id, agentId: s.agent.id, linkToken: token, categories: ['fact'], accessType: 'read_only' });

describe('consent link', () => {
  it('lets exactly one of two concurrent approvals and one of two concurrent exchanges win', async () => {
    const s = await setUp();
    const answers = await Promise.all([outcome(approve(s)), outcome(approve(s))]);
    expect(answers.sort()).toEqual(['link_token_used', 'ok']);
    const exchanges = await Promise.all([
      outcome(exchangeLinkToken(s.db, s.agentAuth, s.link.link_token)),
      outcome(exchangeLinkToken(s.db, s.agentAuth, s.link.link_token)),
    ]);
    expect(exchanges.sort()).toEqual(['link_token_used', 'ok']);
    const tokens = await s.db.execute(sql`SELECT count(*)::int AS n FROM uui_tokens WHERE agent_id = ${s.agent.id}`);
    expect(JSON.stringify(tokens)).toContain('"n":1');
  });

  it('refuses an expired token to the user and to the agent', async () => {
    const s = await setUp();
    await s.db.update(linkTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(sql`token_hash = ${sha256Hex(s.link.link_token)}`);
    expect(await outcome(approve(s))).toBe('link_token_expired');
    expect(await outcome(declineLink(s.db, { passportUserId: null, agentId: s.agent.id, linkToken: s.link.link_token }))).toBe('link_token_expired');
    expect(await outcome(exchangeLinkToken(s.db, s.agentAuth, s.link.link_token))).toBe('link_token_expired');
  });

  it('returns the exact redirect_uri, and issues a token only the approving agent can use until disconnect', async () => {
    const s = await setUp();
    expect((await approve(s)).redirectTo).toBe('https://a.example/done');
    const otherAuth = { id: s.other.id, tenantId: s.auth.tenantId, name: s.other.name };
    expect(await outcome(exchangeLinkToken(s.db, otherAuth, s.link.link_token))).toBe('link_token_invalid');
    const issued = await exchangeLinkToken(s.db, s.agentAuth, s.link.link_token);
    const checked = await authenticateUniversalAgent(s.db, s.agent.raw_agent_api_key, issued.uui_token);
    expect(checked).toMatchObject({ passportUserId: s.user.id, grant: { categories: ['fact'], accessType: 'read_only' } });
    expect(await outcome(authenticateUniversalAgent(s.db, s.other.raw_agent_api_key, issued.uui_token))).toBe('uui_token_agent_mismatch');
    await revokeGrant(s.db, s.user.id, checked.grant?.id as string);
    expect((await authenticateUniversalAgent(s.db, s.agent.raw_agent_api_key, issued.uui_token)).grant).toBeNull();
    // another user cannot disconnect it; the owner can, and the token stops working
    expect(await outcome(disconnect(s.db, crypto.randomUUID(), issued.connection_id))).toBe('not_found');
    await disconnect(s.db, s.user.id, issued.connection_id);
    expect(await outcome(authenticateUniversalAgent(s.db, s.agent.raw_agent_api_key, issued.uui_token))).toBe('uui_token_invalid');
  });
});
