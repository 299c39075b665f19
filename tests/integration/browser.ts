/**
 * Browser-like helpers shared by the console and passport tests: a tRPC client that keeps the session cookie and
 * sends the CSRF header, a random client IP per client (so one test's per-IP throttle does not touch another's),
 * and sign-in codes read from the development mailbox page.
 */
import { expect } from 'vitest';
import type { ServerInfo } from './server';

export const randomIp = () => `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

export interface TrpcResult {
  status: number;
  headers: Headers;
  body: any;
}

export class TrpcClient {
  cookie: string | null = null;
  csrf: string | null = null;
  /** Every response body, as text (for "never contains" assertions). */
  readonly seen: string[] = [];
  constructor(
    readonly server: ServerInfo,
    readonly ip = randomIp(),
    /** Prepended to each procedure path, e.g. `passport.`. */
    readonly prefix = '',
  ) {}

  private async send(method: 'GET' | 'POST', path: string, input: unknown, headers: Record<string, string>): Promise<TrpcResult> {
    const base = `${this.server.baseUrl}/api/trpc/${this.prefix}${path}`;
    const url = method === 'GET' ? `${base}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}` : base;
    const res = await fetch(url, {
      method,
      headers: {
        'x-forwarded-for': this.ip,
        ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...headers,
      },
      body: method === 'POST' ? JSON.stringify(input ?? {}) : undefined,
    });
    const setCookie = res.headers.get('set-cookie');
    if (setCookie) {
      const [pair] = setCookie.split(';');
      this.cookie = pair.endsWith('=') ? null : pair;
    }
    const text = await res.text();
    this.seen.push(text);
    return { status: res.status, headers: res.headers, body: JSON.parse(text) };
  }

  query = (path: string, input?: unknown, headers: Record<string, string> = {}) => this.send('GET', path, input, headers);
  mutate = (path: string, input?: unknown, headers: Record<string, string> = {}) =>
    this.send('POST', path, input, { ...(this.csrf ? { 'x-csrf-token': this.csrf } : {}), ...headers });
}

const decode = (s: string) => s.replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** The codes `pattern` (one capture group) finds in mail to the address, newest first, from /dev/mailbox. */
export async function mailboxCodes(server: ServerInfo, email: string, pattern: RegExp): Promise<string[]> {
  const res = await fetch(`${server.baseUrl}/dev/mailbox`);
  expect(res.status).toBe(200);
  const codes: string[] = [];
  for (const m of (await res.text()).matchAll(/<article[^>]*data-to="([^"]*)"[^>]*>([\s\S]*?)<\/article>/g)) {
    if (decode(m[1]) !== email) continue;
    const code = pattern.exec(m[2]);
    if (code) codes.push(code[1]);
  }
  return codes;
}

export const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');
