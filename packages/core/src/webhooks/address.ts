/**
 * Where a webhook may go. Deliveries are server-side requests to URLs a tenant typed in, so without a check a
 * tenant could make the service call its own database, a cloud metadata endpoint (169.254.169.254) or anything
 * else on the operator's private network (SSRF). Private, loopback, link-local, shared, multicast and reserved
 * addresses are refused unless the operator sets MEMORY_WEBHOOKS_ALLOW_PRIVATE=true. The check runs at
 * registration (literal addresses, localhost names) and again on the address each delivery actually connects to
 * (address.ts's `guardedLookup`, used by send.ts), so a DNS name that later resolves somewhere private is refused.
 */
import { lookup as dnsLookup } from 'node:dns';
import { BlockList, isIP } from 'node:net';

const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(net, bits, 'ipv6');
}

/** True for an address a webhook must not reach without the operator's permission. */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  if (family === 4) return blocked.check(bare, 'ipv4');
  if (family !== 6) return true;
  // IPv4-mapped (::ffff:10.0.0.1) and IPv4-compatible forms reach the IPv4 address.
  const mapped = /^(?:0{0,4}:){0,5}(?:ffff:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped) return blocked.check(mapped[1], 'ipv4');
  const hexMapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(bare);
  if (hexMapped) {
    const hi = Number.parseInt(hexMapped[1], 16);
    const lo = Number.parseInt(hexMapped[2], 16);
    return blocked.check(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`, 'ipv4');
  }
  return blocked.check(bare, 'ipv6');
}

const LOCAL_NAMES = /(^|\.)(localhost|local|internal|localdomain|home\.arpa)$/i;

/**
 * Why a URL cannot be registered, or null. Without MEMORY_WEBHOOKS_ALLOW_PRIVATE only https:// is accepted
 * (the body carries your tenant's event data), and literal private addresses and local names are refused.
 */
export function webhookUrlProblem(raw: string, allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'is not a URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an https:// URL';
  if (url.username || url.password) return 'must not contain credentials';
  if (url.hash) return 'must not contain a #fragment';
  if (allowPrivate) return null;
  if (url.protocol !== 'https:') return 'must be an https:// URL';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) ? isPrivateAddress(host) : LOCAL_NAMES.test(host) || !host.includes('.')) {
    return 'must not point to a private, loopback or link-local address';
  }
  return null;
}

export class WebhookAddressError extends Error {
  override readonly name = 'WebhookAddressError';
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | { address: string; family: number }[], family?: number) => void;

/**
 * A `lookup` for http.request: resolves the name and refuses when any address it resolves to is private, so the
 * connection can only go to the address that was checked (no gap for DNS rebinding between check and connect).
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: { all?: boolean; family?: number }, callback: LookupCallback) => {
    dnsLookup(hostname, { all: true, family: options.family ?? 0 }, (err, addresses) => {
      if (err) return callback(err, []);
      const refused = !allowPrivate && addresses.some((a) => isPrivateAddress(a.address));
      if (refused || addresses.length === 0) {
        return callback(new WebhookAddressError(`${hostname} resolves to a private address`) as NodeJS.ErrnoException, []);
      }
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}
