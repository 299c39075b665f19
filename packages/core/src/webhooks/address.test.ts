import { describe, expect, it } from 'vitest';
import { guardedLookup, isPrivateAddress, webhookUrlProblem } from './address';

describe('isPrivateAddress', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '[::1]',
    'not-an-address',
  ])('refuses %s', (a) => expect(isPrivateAddress(a)).toBe(true));

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('accepts %s', (a) =>
    expect(isPrivateAddress(a)).toBe(false),
  );
});

describe('webhookUrlProblem', () => {
  it('accepts public https URLs', () => {
    expect(webhookUrlProblem('https://hooks.example.com/memory', false)).toBeNull();
    expect(webhookUrlProblem('https://8.8.8.8/x', false)).toBeNull();
  });

  it('refuses http, loopback, private literals, local names and credentials unless private is allowed', () => {
    expect(webhookUrlProblem('http://hooks.example.com/x', false)).toMatch(/https/);
    expect(webhookUrlProblem('https://127.0.0.1/x', false)).toMatch(/private/);
    expect(webhookUrlProblem('https://[::1]:8443/x', false)).toMatch(/private/);
    expect(webhookUrlProblem('https://169.254.169.254/latest/meta-data', false)).toMatch(/private/);
    expect(webhookUrlProblem('https://localhost/x', false)).toMatch(/private/);
    expect(webhookUrlProblem('https://db.internal/x', false)).toMatch(/private/);
    expect(webhookUrlProblem('https://intranet/x', false)).toMatch(/private/);
    expect(webhookUrlProblem('https://u:p@hooks.example.com/x', false)).toMatch(/credentials/);
    expect(webhookUrlProblem('ftp://hooks.example.com/x', false)).toMatch(/https/);
    expect(webhookUrlProblem('not a url', false)).toMatch(/not a URL/);
    expect(webhookUrlProblem('http://127.0.0.1:9999/hook', true)).toBeNull();
  });
});

describe('guardedLookup', () => {
  const resolve = (allow: boolean, host: string) =>
    new Promise<string>((ok, fail) => guardedLookup(allow)(host, {}, (err, address) => (err ? fail(err) : ok(address as string))));

  it('refuses a name that resolves to loopback, and allows it when the operator does', async () => {
    await expect(resolve(false, 'localhost')).rejects.toThrow(/private address/);
    await expect(resolve(true, 'localhost')).resolves.toMatch(/^(127\.0\.0\.1|::1)$/);
  });
});
