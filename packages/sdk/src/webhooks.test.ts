import { describe, expect, it } from 'vitest';
import { WebhookVerificationError, generateWebhookSecret, signWebhook, verifyWebhook, webhookHeaders } from './webhooks';

const now = new Date('2026-11-22T10:00:00Z');
const ts = Math.floor(now.getTime() / 1000);
const body = JSON.stringify({ type: 'memory.created', timestamp: now.toISOString(), data: { memory_id: 'm1' } });

describe('verifyWebhook', () => {
  it('accepts a delivery signed with the secret and returns the parsed body', () => {
    const secret = generateWebhookSecret();
    const headers = webhookHeaders(secret, 'msg_1', ts, body);
    const v = verifyWebhook<{ type: string }>(secret, headers, body, { now });
    expect(v.id).toBe('msg_1');
    expect(v.payload.type).toBe('memory.created');
    expect(v.timestamp.toISOString()).toBe(now.toISOString());
  });

  it('matches the Standard Webhooks reference vector', () => {
    // From the specification's test suite (standard-webhooks/libraries).
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const payload = '{"test": 2432232314}';
    expect(signWebhook(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, payload)).toBe(
      'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    );
  });

  it('refuses a tampered body', () => {
    const secret = generateWebhookSecret();
    const headers = webhookHeaders(secret, 'msg_1', ts, body);
    expect(() => verifyWebhook(secret, headers, body.replace('m1', 'm2'), { now })).toThrow(WebhookVerificationError);
  });

  it('refuses an old timestamp even with a valid signature, and a future one', () => {
    const secret = generateWebhookSecret();
    const old = ts - 301;
    expect(() => verifyWebhook(secret, webhookHeaders(secret, 'msg_1', old, body), body, { now })).toThrow(/tolerance/);
    expect(() => verifyWebhook(secret, webhookHeaders(secret, 'msg_1', ts + 301, body), body, { now })).toThrow(/tolerance/);
    expect(verifyWebhook(secret, webhookHeaders(secret, 'msg_1', old, body), body, { now, toleranceSeconds: 600 }).id).toBe('msg_1');
  });

  it('refuses another secret, a changed id and missing headers', () => {
    const secret = generateWebhookSecret();
    const headers = webhookHeaders(secret, 'msg_1', ts, body);
    expect(() => verifyWebhook(generateWebhookSecret(), headers, body, { now })).toThrow(/no signature/);
    expect(() => verifyWebhook(secret, { ...headers, 'webhook-id': 'msg_2' }, body, { now })).toThrow(/no signature/);
    expect(() => verifyWebhook(secret, { 'webhook-id': 'msg_1' }, body, { now })).toThrow(/missing/);
  });

  it('accepts either secret while a rotation signs twice', () => {
    const oldSecret = generateWebhookSecret();
    const newSecret = generateWebhookSecret();
    const headers = webhookHeaders([newSecret, oldSecret], 'msg_1', ts, body);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(verifyWebhook(oldSecret, headers, body, { now }).id).toBe('msg_1');
    expect(verifyWebhook(newSecret, headers, body, { now }).id).toBe('msg_1');
    expect(verifyWebhook([generateWebhookSecret(), newSecret], headers, Buffer.from(body), { now }).id).toBe('msg_1');
  });

  it('reads Fetch Headers and node header objects alike', () => {
    const secret = generateWebhookSecret();
    const h = webhookHeaders(secret, 'msg_1', ts, body);
    expect(verifyWebhook(secret, new Headers(h), body, { now }).id).toBe('msg_1');
    expect(verifyWebhook(secret, { 'Webhook-Id': h['webhook-id'], 'WEBHOOK-TIMESTAMP': h['webhook-timestamp'], 'webhook-signature': [h['webhook-signature']] }, body, { now }).id).toBe('msg_1');
  });
});
