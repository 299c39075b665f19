/**
 * The HTTP server: Next.js behind a plain node:http server (`npm start`, `npm run dev`). It exists for what
 * Next.js cannot do from inside the app (docs/operations.md):
 * - the client address: the TCP peer, or the X-Forwarded-For hop named by a trusted proxy
 *   (MEMORY_TRUSTED_PROXIES), passed on in `x-memory-client-address` (a client's own value is replaced);
 * - problem+json with a request id for what Next.js answers by itself: undecodable percent-encodings and `.`/`..`
 *   segments in the path (Next.js: a plain-text 500, or a page outside /v1 after resolving them), `/v1` itself
 *   (Next.js: its HTML 404), methods a documented /v1 path does not have (Next.js: an empty 405), request
 *   headers over Node's 16 KiB limit (Node: a bare 431).
 * Request bodies pass through untouched: the route handlers read them while they stream (apps/web/lib/http.ts).
 */
import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { Socket } from 'node:net';
import {
  type ApiError,
  CLIENT_ADDRESS_HEADER,
  ConfigError,
  Errors,
  clientAddress,
  compileTrust,
  dotSegments,
  loadConfig,
  methodTable,
  toProblem,
  undecodablePath,
} from '@memory/core/front-door';
import next from 'next';

const args = process.argv.slice(2);
const dev = args.includes('--dev');
const flag = (long: string, short: string) => {
  const i = args.findIndex((a) => a === long || a === short);
  return i === -1 ? undefined : args[i + 1];
};

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (err) {
  console.error(`memory-service: start-up failed: ${err instanceof ConfigError ? err.message : String(err)}`);
  process.exit(1);
}
const port = Number(flag('--port', '-p') ?? config.port);
const hostname = flag('--hostname', '-H') ?? '0.0.0.0';
const trust = compileTrust(config.trustedProxies);

const app = next({ dev, dir: import.meta.dirname, hostname, port });
const handle = app.getRequestHandler();

/** The documented methods of each /v1 path, read from the app's own /v1/openapi.json once it answers. */
let allowedMethods: ((pathname: string) => string[] | null) | null = null;

const SECURITY_HEADERS = { 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer', 'Cache-Control': 'no-store' };

function problemParts(err: ApiError, instance?: string) {
  const requestId = randomUUID();
  const { problem } = toProblem(err, requestId, instance);
  const body = JSON.stringify(problem.body);
  return {
    status: problem.status,
    headers: { ...problem.headers, ...SECURITY_HEADERS, 'X-Request-Id': requestId, 'Content-Length': String(Buffer.byteLength(body)) },
    body,
  };
}

function answer(res: ServerResponse, err: ApiError, instance?: string): void {
  const p = problemParts(err, instance);
  res.writeHead(p.status, p.headers);
  res.end(p.body);
}

function onRequest(req: IncomingMessage, res: ServerResponse): void {
  req.headers[CLIENT_ADDRESS_HEADER] = clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], trust);
  const target = req.url ?? '/';
  if (undecodablePath(target) || dotSegments(target)) return answer(res, Errors.invalidUrl());
  const method = req.method ?? 'GET';
  const pathname = target.split('?')[0];
  // the API's root has no route of its own (Next.js would answer its HTML 404 page)
  if (pathname === '/v1') return answer(res, Errors.notFound('An endpoint at /v1 (the API reference is /v1/openapi.json)'), pathname);
  if (allowedMethods && method !== 'OPTIONS') {
    const allow = allowedMethods(pathname);
    if (allow && !allow.includes(method)) return answer(res, Errors.methodNotAllowed(method, allow), pathname);
  }
  void handle(req, res);
}

/** Sockets already answered by `onClientError`, in their lingering close. */
const lingering = new WeakSet<Socket>();
/** How long an answered socket is read (and what arrives discarded) before it is closed. */
const LINGER_MS = 5_000;

/**
 * Node answers a request it cannot parse before any handler runs; oversized headers get a problem+json 431.
 * The answer is followed by a lingering close, as nginx does: a client still sending a body behind the rejected
 * headers would otherwise write into a closed socket, get a connection reset and lose the answer. What arrives
 * meanwhile is discarded (Node's parser fails on it again; those errors are ignored), and the socket is closed
 * when the client closes it or after `LINGER_MS`.
 */
function onClientError(err: Error & { code?: string }, socket: Socket): void {
  if (lingering.has(socket)) return;
  if (!socket.writable || err.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  let response = 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n';
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    const p = problemParts(Errors.headersTooLarge());
    const head = Object.entries(p.headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
    response = `HTTP/1.1 431 Request Header Fields Too Large\r\n${head}Connection: close\r\n\r\n${p.body}`;
  }
  lingering.add(socket);
  socket.end(response);
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}

/**
 * Reads the documented methods from the app's own /v1/openapi.json, served by a private listener on a free
 * loopback port, so the public port opens with the table in place.
 */
async function loadMethodTable(): Promise<void> {
  const probe = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  try {
    const { port: probePort } = probe.address() as { port: number };
    const res = await fetch(`http://127.0.0.1:${probePort}/v1/openapi.json`);
    if (!res.ok) throw new Error(`status ${res.status}`);
    allowedMethods = methodTable(((await res.json()) as { paths: Record<string, Record<string, unknown>> }).paths);
  } catch (err) {
    console.error(`memory-service: /v1/openapi.json did not load (${String(err)}); wrong methods get Next.js's empty 405`);
  } finally {
    probe.closeAllConnections();
    await new Promise((resolve) => probe.close(resolve));
  }
}

await app.prepare();
await loadMethodTable();
const server = createServer(onRequest);
server.on('clientError', onClientError);
server.listen(port, hostname, () => {
  console.log(`memory-service listening on http://${hostname}:${port}${dev ? ' (development)' : ''}`);
});
