/**
 * The client address behind reverse proxies (docs/operations.md, "Client addresses and proxies"). The address a
 * request came from is the TCP peer; X-Forwarded-For is believed only for hops the operator named as trusted
 * proxies (MEMORY_TRUSTED_PROXIES), walking it right to left like Express's `trust proxy` (the proxy-addr
 * package does the walking). Without trusted proxies the header is ignored, so a client cannot pick the address
 * the per-address throttles count it under.
 */
import proxyaddr from 'proxy-addr';

/** The header the HTTP server (apps/web/server.ts) sets on every request; a client's own value is replaced. */
export const CLIENT_ADDRESS_HEADER = 'x-memory-client-address';

/** The names proxy-addr knows besides addresses and CIDR ranges. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

export type TrustFunction = (address: string, hop: number) => boolean;

/** Parses MEMORY_TRUSTED_PROXIES: comma-separated addresses, CIDR ranges, `loopback`, `linklocal`, `uniquelocal`. */
export function parseTrustedProxies(value: string): string[] {
  const entries = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const entry of entries) {
    if (NAMED_RANGES.has(entry)) continue;
    try {
      proxyaddr.compile(entry);
    } catch {
      throw new Error(`"${entry}" is not an address, a CIDR range, loopback, linklocal or uniquelocal`);
    }
  }
  return entries;
}

export function compileTrust(entries: readonly string[]): TrustFunction {
  return entries.length === 0 ? () => false : proxyaddr.compile([...entries]);
}

/**
 * The client's address: the peer itself unless the peer is a trusted proxy, else the nearest X-Forwarded-For
 * hop that is not one. IPv4-mapped IPv6 peers (::ffff:10.0.0.1) are written as IPv4. At most 64 characters
 * (it is a throttle key).
 */
export function clientAddress(peer: string | undefined, forwardedFor: string | string[] | undefined, trust: TrustFunction): string {
  if (!peer) return 'unknown';
  const header = Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor;
  const req = { connection: { remoteAddress: peer }, socket: { remoteAddress: peer }, headers: header ? { 'x-forwarded-for': header } : {} };
  const address = proxyaddr(req as unknown as Parameters<typeof proxyaddr>[0], trust);
  return (address.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1') || 'unknown').slice(0, 64);
}
