import { describe, expect, it } from 'vitest';
import { WebhookAddressError, guardedLookup, isPrivateAddress, webhookUrlProblem, webhookUrlProblemResolved } from './address';

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
    expect(webhookUrlProblem('https://[::1]/x', false)).toMatch(/private/);
    expect(webhookUrlProblem('https://169.254.169.254/latest/meta-data', false)).toMatch(/private/);
    expect(webhookUrlProblem('https://localhost/x', false)).toMatch(/private/);
    expect(webhookUrlProblem('https://db.internal/x', false)).toMatch(/private/);
    expect(webhookUrlProblem('https://intranet/x', false)).toMatch(/private/);
    expect(webhookUrlProblem('https://u:p@hooks.example.com/x', false)).toMatch(/credentials/);
    expect(webhookUrlProblem('ftp://hooks.example.com/x', false)).toMatch(/https/);
    expect(webhookUrlProblem('not a url', false)).toMatch(/not a URL/);
    expect(webhookUrlProblem('http://127.0.0.1:9999/hook', true)).toBeNull();
  });

  it('reads a rooted name ("localhost.") as the name itself', () => {
    expect(webhookUrlProblem('https://localhost./hook', false)).toMatch(/private/);
    expect(webhookUrlProblem('https://localhost../hook', false)).toMatch(/private/);
    expect(webhookUrlProblem('https://db.internal./x', false)).toMatch(/private/);
    expect(webhookUrlProblem('https://hooks.example.com./x', false)).toBeNull();
  });

  it('accepts only the allowed ports for public destinations', () => {
    expect(webhookUrlProblem('https://hooks.example.com:8443/x', false)).toMatch(/port 443/);
    expect(webhookUrlProblem('https://hooks.example.com:443/x', false)).toBeNull();
    expect(webhookUrlProblem('https://hooks.example.com:8443/x', false, [443, 8443])).toBeNull();
    expect(webhookUrlProblem('https://hooks.example.com:22/x', false, [443, 8443])).toMatch(/port 443 or 8443/);
    expect(webhookUrlProblem('https://hooks.example.com:8443/x', true)).toBeNull();
  });
});

describe('webhookUrlProblemResolved', () => {
  const settings = { allowPrivate: false, allowedPorts: [443] };
  const answers = (...addresses: string[]) => async () => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  const failing = (code: string) => async () => {
    throw Object.assign(new Error(code), { code });
  };

  it('refuses a name that resolves to a private, loopback or link-local address, and one that does not resolve', async () => {
    expect(await webhookUrlProblemResolved('https://hooks.example.com/x', settings, answers('93.184.216.34'))).toBeNull();
    expect(await webhookUrlProblemResolved('https://rebind.example.com/x', settings, answers('127.0.0.1'))).toMatch(/private/);
    expect(await webhookUrlProblemResolved('https://mixed.example.com/x', settings, answers('93.184.216.34', '10.1.2.3'))).toMatch(/private/);
    expect(await webhookUrlProblemResolved('https://v6.example.com/x', settings, answers('::ffff:169.254.169.254'))).toMatch(/private/);
    expect(await webhookUrlProblemResolved('https://gone.example.com/x', settings, failing('ENOTFOUND'))).toMatch(/does not resolve/);
    expect(await webhookUrlProblemResolved('https://empty.example.com/x', settings, answers())).toMatch(/does not resolve/);
  });

  it('checks the URL first, skips DNS for literal addresses and when private destinations are allowed, and throws when the resolver cannot answer', async () => {
    const never = async () => {
      throw new Error('must not be called');
    };
    expect(await webhookUrlProblemResolved('https://localhost./x', settings, never)).toMatch(/private/);
    expect(await webhookUrlProblemResolved('https://8.8.8.8/x', settings, never)).toBeNull();
    expect(await webhookUrlProblemResolved('http://anything.test:9999/x', { allowPrivate: true, allowedPorts: [443] }, never)).toBeNull();
    await expect(webhookUrlProblemResolved('https://hooks.example.com/x', settings, failing('EAI_AGAIN'))).rejects.toBeInstanceOf(WebhookAddressError);
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
