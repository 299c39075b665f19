import { describe, expect, it } from 'vitest';
import { clientAddress, compileTrust, parseTrustedProxies } from './client-address';

describe('clientAddress', () => {
  const none = compileTrust([]);
  const loopback = compileTrust(parseTrustedProxies('loopback'));

  it('is the peer when no proxy is trusted, whatever X-Forwarded-For says', () => {
    expect(clientAddress('203.0.113.7', '198.51.100.1', none)).toBe('203.0.113.7');
    expect(clientAddress('127.0.0.1', '198.51.100.1, 10.0.0.2', none)).toBe('127.0.0.1');
  });

  it('takes the hop a trusted proxy reported', () => {
    expect(clientAddress('127.0.0.1', '198.51.100.1', loopback)).toBe('198.51.100.1');
  });

  it('walks right to left and stops at the first hop that is not trusted (a client cannot prepend its own)', () => {
    const trust = compileTrust(parseTrustedProxies('10.0.0.0/8, loopback'));
    // the client sent "X-Forwarded-For: 1.1.1.1"; the edge proxy 10.0.0.5 appended the client's real address
    expect(clientAddress('127.0.0.1', '1.1.1.1, 203.0.113.9, 10.0.0.5', trust)).toBe('203.0.113.9');
  });

  it('is the last hop when every hop is trusted', () => {
    expect(clientAddress('127.0.0.1', '127.0.0.2', loopback)).toBe('127.0.0.2');
  });

  it('writes IPv4-mapped peers as IPv4 and joins repeated headers', () => {
    expect(clientAddress('::ffff:203.0.113.7', undefined, none)).toBe('203.0.113.7');
    expect(clientAddress('::1', ['198.51.100.1', '198.51.100.2'], loopback)).toBe('198.51.100.2');
  });

  it('is "unknown" without a peer', () => {
    expect(clientAddress(undefined, '198.51.100.1', loopback)).toBe('unknown');
  });
});

describe('parseTrustedProxies', () => {
  it('accepts addresses, ranges and the named ranges', () => {
    expect(parseTrustedProxies(' loopback, 10.0.0.0/8 ,fd00::/8,192.168.1.1,uniquelocal,linklocal,')).toEqual([
      'loopback',
      '10.0.0.0/8',
      'fd00::/8',
      '192.168.1.1',
      'uniquelocal',
      'linklocal',
    ]);
  });

  it('refuses anything else with the entry named', () => {
    expect(() => parseTrustedProxies('loopback, proxy.internal')).toThrow(/"proxy.internal"/);
    expect(() => parseTrustedProxies('10.0.0.0/33')).toThrow(/10.0.0.0\/33/);
  });
});
