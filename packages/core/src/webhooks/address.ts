/**
 * Where a webhook may go. Deliveries are server-side requests to URLs a tenant typed in, so without a check a
 * tenant could make the service call its own database, a cloud metadata endpoint (169.254.169.254) or anything
 * else on the operator's private network (SSRF). Private, loopback, link-local, shared, multicast and reserved
 * addresses are refused unless the operator sets MEMORY_WEBHOOKS_ALLOW_PRIVATE=true. The check runs at
 * registration (literal addresses, local names, rooted names like "localhost.", the addresses a DNS name resolves
 * to, the port) and again on the address each delivery actually connects to (`guardedLookup`, used by send.ts),
 * so a DNS name that later resolves somewhere private is refused.
 */
import { lookup as dnsLookup, promises as dnsPromises } from 'node:dns';
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

/** The ports of a public webhook URL when MEMORY_WEBHOOKS_ALLOWED_PORTS says nothing else. */
export const DEFAULT_WEBHOOK_PORTS: readonly number[] = [443];

/** A URL's host as DNS and the address checks see it: brackets and the trailing dots of a rooted name removed. */
export const webhookHost = (url: URL) => url.hostname.replace(/^\[|\]$/g, '').replace(/\.+$/, '');

/**
 * Why a URL cannot be registered, or null. Without MEMORY_WEBHOOKS_ALLOW_PRIVATE only https:// is accepted
 * (the body carries your tenant's event data) on a port of `allowedPorts` (default 443), and literal private
 * addresses and local names are refused, also written as rooted names ("localhost."). `webhookUrlProblemResolved`
 * adds the DNS check.
 */
export function webhookUrlProblem(raw: string, allowPrivate: boolean, allowedPorts: readonly number[] = DEFAULT_WEBHOOK_PORTS): string | null {
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
  const port = url.port ? Number(url.port) : 443;
  if (!allowedPorts.includes(port)) return `must use port ${allowedPorts.join(' or ')} (MEMORY_WEBHOOKS_ALLOWED_PORTS)`;
  const host = webhookHost(url);
  if (isIP(host) ? isPrivateAddress(host) : LOCAL_NAMES.test(host) || !host.includes('.')) {
    return 'must not point to a private, loopback or link-local address';
  }
  return null;
}

export type AddressLookup = (hostname: string) => Promise<{ address: string; family: number }[]>;

const systemLookup: AddressLookup = (hostname) => dnsPromises.lookup(hostname, { all: true, verbatim: true });

/** DNS answers that mean the name does not exist (as opposed to a resolver that could not answer now). */
const NO_SUCH_NAME = new Set(['ENOTFOUND', 'ENODATA', 'EAI_NONAME', 'EAI_NODATA']);

/**
 * `webhookUrlProblem`, then, for a public destination named by DNS, the addresses the name resolves to now:
 * a name that resolves to a private, loopback or link-local address (or to nothing) cannot be registered.
 * Deliveries check again at connect time (`guardedLookup`), since a name can be changed after registration.
 * A resolver failure other than "no such name" is thrown (the caller answers 503: try again).
 */
export async function webhookUrlProblemResolved(
  raw: string,
  settings: { allowPrivate: boolean; allowedPorts: readonly number[] },
  lookup: AddressLookup = systemLookup,
): Promise<string | null> {
  const problem = webhookUrlProblem(raw, settings.allowPrivate, settings.allowedPorts);
  if (problem || settings.allowPrivate) return problem;
  const host = webhookHost(new URL(raw));
  if (isIP(host)) return null;
  let addresses: { address: string }[];
  try {
    addresses = await lookup(host);
  } catch (err) {
    if (NO_SUCH_NAME.has((err as NodeJS.ErrnoException).code ?? '')) return `has a host name that does not resolve (${host})`;
    throw new WebhookAddressError(`${host} could not be resolved now`);
  }
  if (addresses.length === 0) return `has a host name that does not resolve (${host})`;
  if (addresses.some((a) => isPrivateAddress(a.address))) return 'must not point to a private, loopback or link-local address (its host name resolves to one)';
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
