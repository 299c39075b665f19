/**
 * One HTTP POST of a signed webhook. No redirects are followed (a 3xx is a failed attempt), the connection goes
 * only to an address that passed the private-address check, and the whole exchange is bounded by the timeout.
 * The response body is read (up to 4 KiB, to free the socket) and thrown away: nothing of it is stored or logged.
 */
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { DEFAULT_WEBHOOK_PORTS, guardedLookup, isPrivateAddress, webhookHost } from './address';

export interface SendResult {
  statusCode: number | null;
  /** Content-free reason of a failed exchange: `timeout`, `refused: …`, an error code. */
  error: string | null;
  durationMs: number;
}

export const WEBHOOK_USER_AGENT = 'memory-service-webhooks/1';

export function sendWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  opts: { timeoutMs: number; allowPrivate: boolean; allowedPorts?: readonly number[] },
): Promise<SendResult> {
  const started = Date.now();
  const done = (statusCode: number | null, error: string | null): SendResult => ({ statusCode, error, durationMs: Date.now() - started });
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.resolve(done(null, 'invalid URL'));
  }
  const host = webhookHost(target);
  if (!opts.allowPrivate && isIP(host) && isPrivateAddress(host)) return Promise.resolve(done(null, 'refused: private address'));
  const port = target.port ? Number(target.port) : target.protocol === 'https:' ? 443 : 80;
  if (!opts.allowPrivate && !(opts.allowedPorts ?? DEFAULT_WEBHOOK_PORTS).includes(port)) return Promise.resolve(done(null, 'refused: port not allowed'));
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (r: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const req = client.request(
      target,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': WEBHOOK_USER_AGENT,
        },
        lookup: guardedLookup(opts.allowPrivate) as never,
        agent: false,
      },
      (res) => {
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > 4096) res.destroy();
        });
        const end = () => finish(done(res.statusCode ?? null, null));
        res.on('end', end);
        res.on('close', end);
        res.on('error', end);
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      finish(done(null, 'timeout'));
    }, opts.timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => {
      finish(done(null, err.name === 'WebhookAddressError' ? 'refused: private address' : (err.code ?? err.name)));
    });
    req.end(body);
  });
}
