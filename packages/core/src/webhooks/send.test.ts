import { describe, expect, it } from 'vitest';
import { sendWebhook } from './send';

describe('sendWebhook refusals before any connection', () => {
  it('refuses a port that is not allowed, and a private literal address, unless private destinations are allowed', async () => {
    const opts = { timeoutMs: 1000, allowPrivate: false, allowedPorts: [443] };
    expect(await sendWebhook('https://hooks.example.com:8443/x', {}, '{}', opts)).toMatchObject({ statusCode: null, error: 'refused: port not allowed' });
    expect(await sendWebhook('https://127.0.0.1/x', {}, '{}', opts)).toMatchObject({ statusCode: null, error: 'refused: private address' });
    expect(await sendWebhook('not a url', {}, '{}', opts)).toMatchObject({ error: 'invalid URL' });
  });
});
