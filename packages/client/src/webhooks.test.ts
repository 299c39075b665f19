import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyWebhook, WebhookVerificationError } from './webhooks.js';

// Standard Webhooks v1, computed here with node:crypto as packages/sdk signs (the integration test checks a real delivery).
const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const OTHER = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
const sign = (secret: string, id: string, ts: number, body: string) =>
  `v1,${createHmac('sha256', Buffer.from(secret.slice(6), 'base64')).update(`${id}.${ts}.${body}`).digest('base64')}`;

const now = new Date('2026-01-01T00:00:00Z');
const ts = Math.floor(now.getTime() / 1000);
const body = JSON.stringify({ type: 'job.completed', timestamp: now.toISOString(), data: { job_id: 'j' } });
const headers = (sig: string, t = ts) => ({ 'Webhook-Id': 'msg_1', 'webhook-timestamp': String(t), 'webhook-signature': sig });

describe('verifyWebhook (WebCrypto)', () => {
  it('accepts a delivery signed with the secret, as text, bytes or Headers', async () => {
    const sig = sign(SECRET, 'msg_1', ts, body);
    const got = await verifyWebhook(SECRET, headers(sig), body, { now });
    expect(got).toEqual({ id: 'msg_1', timestamp: new Date(ts * 1000), payload: JSON.parse(body) });
    await expect(verifyWebhook(SECRET, new Headers(headers(sig)), new TextEncoder().encode(body), { now })).resolves.toMatchObject({ id: 'msg_1' });
  });

  it('accepts any of several signatures and several secrets (rotation)', async () => {
    const both = `${sign(OTHER, 'msg_1', ts, body)} ${sign(SECRET, 'msg_1', ts, body)}`;
    await expect(verifyWebhook(SECRET, headers(both), body, { now })).resolves.toBeTruthy();
    await expect(verifyWebhook([OTHER, SECRET], headers(sign(SECRET, 'msg_1', ts, body)), body, { now })).resolves.toBeTruthy();
  });

  it('refuses a changed body, a wrong secret, a stale timestamp and missing headers', async () => {
    const sig = sign(SECRET, 'msg_1', ts, body);
    await expect(verifyWebhook(SECRET, headers(sig), body.replace('j', 'k'), { now })).rejects.toThrow('no signature matches');
    await expect(verifyWebhook(OTHER, headers(sig), body, { now })).rejects.toBeInstanceOf(WebhookVerificationError);
    await expect(verifyWebhook(SECRET, headers(sign(SECRET, 'msg_1', ts - 301, body), ts - 301), body, { now })).rejects.toThrow('tolerance');
    await expect(verifyWebhook(SECRET, { 'webhook-id': 'msg_1' }, body, { now })).rejects.toThrow('missing');
    await expect(verifyWebhook('whsec_c2hvcnQ=', headers(sig), body, { now })).rejects.toThrow('24–64 bytes');
  });
});
