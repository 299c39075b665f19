import { describe, expect, it } from 'vitest';
import { decryptSecret, encryptSecret } from './secret-store';

describe('webhook secrets at rest', () => {
  const key = 'an operator key of at least thirty-two characters';

  it('round-trips, never stores the secret in clear, and uses a fresh IV each time', () => {
    const secret = 'whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0';
    const a = encryptSecret(secret, key);
    expect(a).not.toContain('c2VjcmV0');
    expect(decryptSecret(a, key)).toBe(secret);
    expect(encryptSecret(secret, key)).not.toBe(a);
  });

  it('refuses another key and a tampered ciphertext', () => {
    const stored = encryptSecret('whsec_x', key);
    expect(() => decryptSecret(stored, `${key}!`)).toThrow();
    const [iv, tag, data] = stored.split('.');
    const flipped = Buffer.from(data, 'base64url');
    flipped[0] ^= 1;
    expect(() => decryptSecret([iv, tag, flipped.toString('base64url')].join('.'), key)).toThrow();
  });
});
