import { describe, expect, it } from 'vitest';
import { sessionVerdict } from '../console/rules';
import { createGlobalAgentRequest, grantRequest } from '../schemas/passport';
import { PASSPORT_SESSION_RULES, externalUserIdHint, linkRefusal, linkStatus, urlProblem } from './rules';

const now = new Date('2026-06-01T12:00:00Z');
const later = new Date(now.getTime() + 60_000);
const earlier = new Date(now.getTime() - 1);
const AGENT = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';

describe('agent URLs', () => {
  it('accept https, and http only for loopback hosts', () => {
    expect(urlProblem('https://app.example.com/passport/done?x=1', { redirect: true })).toBeNull();
    expect(urlProblem('http://localhost:3000/cb', { redirect: true })).toBeNull();
    expect(urlProblem('http://127.0.0.1:8080/cb', { redirect: true })).toBeNull();
    expect(urlProblem('http://app.example.com/cb', { redirect: true })).toMatch(/https/);
    expect(urlProblem('javascript:alert(1)', { redirect: true })).toMatch(/https/);
    expect(urlProblem('/relative/path', { redirect: true })).toMatch(/absolute/);
    expect(urlProblem('https://user:pw@app.example.com/', { redirect: true })).toMatch(/user name/);
  });

  it('refuse a fragment in redirect_uri only', () => {
    expect(urlProblem('https://app.example.com/cb#done', { redirect: true })).toMatch(/fragment/);
    expect(urlProblem('https://app.example.com/#about', { redirect: false })).toBeNull();
  });

  it('make only name required when creating an agent; "" is a valid redirect_uri', () => {
    const minimal = createGlobalAgentRequest.parse({ name: ' Travel Buddy ' });
    expect(minimal).toEqual({
      name: 'Travel Buddy',
      description: '',
      website_url: '',
      logo_url: '',
      default_categories_requested: [],
      redirect_uri: '',
    });
    expect(createGlobalAgentRequest.safeParse({}).success).toBe(false);
    expect(createGlobalAgentRequest.safeParse({ name: 'x', redirect_uri: '' }).success).toBe(true);
    expect(createGlobalAgentRequest.safeParse({ name: 'x', redirect_uri: 'http://evil.example/cb' }).success).toBe(false);
    expect(createGlobalAgentRequest.safeParse({ name: 'x', default_categories_requested: ['secrets'] }).success).toBe(false);
    expect(createGlobalAgentRequest.safeParse({ name: 'x', tenant_id: 'y' }).success).toBe(false);
  });

  it('collapse repeated categories into the canonical order, and a grant needs at least one', () => {
    const g = grantRequest.parse({ agent_id: AGENT, categories: ['goal', 'fact', 'goal'], access_type: 'read_only' });
    expect(g.categories).toEqual(['fact', 'goal']);
    expect(grantRequest.safeParse({ agent_id: AGENT, categories: [], access_type: 'read_only' }).success).toBe(false);
    expect(grantRequest.safeParse({ agent_id: AGENT, categories: ['fact'], access_type: 'admin' }).success).toBe(false);
  });
});

describe('link token states', () => {
  it('show the consent page what the user can still do', () => {
    expect(linkStatus(null, now)).toBe('invalid');
    expect(linkStatus({ status: 'pending', expiresAt: later }, now)).toBe('pending');
    expect(linkStatus({ status: 'pending', expiresAt: earlier }, now)).toBe('expired');
    expect(linkStatus({ status: 'pending', expiresAt: now }, now)).toBe('expired');
    expect(linkStatus({ status: 'approved', expiresAt: earlier }, now)).toBe('approved');
    expect(linkStatus({ status: 'exchanged', expiresAt: later }, now)).toBe('used');
    expect(linkStatus({ status: 'declined', expiresAt: later }, now)).toBe('declined');
  });

  it('let the user answer once, before expiry, and only for the agent it was issued for', () => {
    const pending = { status: 'pending', expiresAt: later, agentId: AGENT };
    expect(linkRefusal(pending, 'answer', AGENT, now)).toBeNull();
    expect(linkRefusal(pending, 'answer', OTHER, now)).toBe('link_token_invalid');
    expect(linkRefusal(null, 'answer', AGENT, now)).toBe('link_token_invalid');
    expect(linkRefusal({ ...pending, expiresAt: earlier }, 'answer', AGENT, now)).toBe('link_token_expired');
    expect(linkRefusal({ ...pending, status: 'approved' }, 'answer', AGENT, now)).toBe('link_token_used');
    expect(linkRefusal({ ...pending, status: 'declined' }, 'answer', AGENT, now)).toBe('link_token_declined');
  });

  it('let the agent exchange an approved token once, before expiry; never a token of another agent', () => {
    const approved = { status: 'approved', expiresAt: later, agentId: AGENT };
    expect(linkRefusal(approved, 'exchange', AGENT, now)).toBeNull();
    expect(linkRefusal(approved, 'exchange', OTHER, now)).toBe('link_token_invalid');
    expect(linkRefusal({ ...approved, status: 'exchanged' }, 'exchange', AGENT, now)).toBe('link_token_used');
    expect(linkRefusal({ ...approved, expiresAt: earlier }, 'exchange', AGENT, now)).toBe('link_token_expired');
    expect(linkRefusal({ ...approved, status: 'pending' }, 'exchange', AGENT, now)).toBe('link_token_pending');
    expect(linkRefusal({ ...approved, status: 'declined' }, 'exchange', AGENT, now)).toBe('link_token_declined');
  });
});

describe('passport sessions and connections', () => {
  it('end after 24 idle hours and 30 days', () => {
    const created = new Date(now.getTime() - 10 * 86_400_000);
    const s = { createdAt: created, lastSeenAt: new Date(now.getTime() - 23 * 3_600_000), expiresAt: new Date(created.getTime() + PASSPORT_SESSION_RULES.absoluteMs) };
    expect(sessionVerdict(s, now, PASSPORT_SESSION_RULES)).toBe('valid');
    expect(sessionVerdict({ ...s, lastSeenAt: new Date(now.getTime() - 24 * 3_600_000) }, now, PASSPORT_SESSION_RULES)).toBe('idle');
    const old = new Date(now.getTime() - 30 * 86_400_000);
    expect(sessionVerdict({ ...s, createdAt: old, lastSeenAt: now, expiresAt: later }, now, PASSPORT_SESSION_RULES)).toBe('expired');
    // the console's rules are unchanged: 31 idle minutes end a console session, not a passport session
    const recent = { createdAt: new Date(now.getTime() - 2 * 3_600_000), lastSeenAt: new Date(now.getTime() - 31 * 60_000), expiresAt: later };
    expect(sessionVerdict(recent, now)).toBe('idle');
    expect(sessionVerdict(recent, now, PASSPORT_SESSION_RULES)).toBe('valid');
  });

  it('show only the last 4 characters of a long external user id, and nothing of a short one', () => {
    expect(externalUserIdHint('customer-000123456')).toBe('…3456');
    expect(externalUserIdHint('user_42')).toBeNull();
    expect(externalUserIdHint('12345678')).toBeNull();
    expect(externalUserIdHint('ünïcødé-ïd-ñame')).toBe('…ñame');
  });
});
