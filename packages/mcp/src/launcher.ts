/**
 * `memory-mcp --url <service URL> --key <API key> [--uui <X-Service-UUI token>]`: the stdio MCP server desktop
 * clients launch. It holds no tools of its own: every JSON-RPC message from stdin goes to the running service's
 * /mcp endpoint with the credentials, and every answer comes back on stdout, so the tools are always the service's.
 */
import { parseArgs } from 'node:util';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

export const USAGE =
  'Usage: memory-mcp --url <service URL, e.g. http://localhost:3000> --key <mem_sk_… tenant key or agent key> [--uui <mem_uui_… token>]\n' +
  'The URL, key and token may also come from MEMORY_URL, MEMORY_API_KEY and MEMORY_UUI.';

export interface LauncherOptions {
  url: URL;
  key: string;
  uui?: string;
}

/** The options from argv (flags win over MEMORY_URL, MEMORY_API_KEY, MEMORY_UUI); an error message if they are unusable. */
export function parseLauncherArgs(argv: string[], env: Record<string, string | undefined> = {}): LauncherOptions | string {
  let values: { url?: string; key?: string; uui?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { url: { type: 'string' }, key: { type: 'string' }, uui: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    }));
  } catch (err) {
    return `${(err as Error).message}\n${USAGE}`;
  }
  if (values.help) return USAGE;
  const url = values.url ?? env.MEMORY_URL;
  const key = values.key ?? env.MEMORY_API_KEY;
  const uui = values.uui ?? env.MEMORY_UUI;
  if (!url || !key) return `--url and --key are required.\n${USAGE}`;
  let base: URL;
  try {
    base = new URL(url);
  } catch {
    return `--url is not a URL: ${url}\n${USAGE}`;
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') return `--url must be http or https: ${url}`;
  // The service's root or its /mcp endpoint both work.
  const endpoint = new URL(base.pathname.replace(/\/+$/, '').endsWith('/mcp') ? base.pathname : `${base.pathname.replace(/\/+$/, '')}/mcp`, base);
  return { url: endpoint, key, ...(uui ? { uui } : {}) };
}

/** Connects stdin/stdout to the service's /mcp and relays messages both ways until either side closes. */
export async function runLauncher(opts: LauncherOptions): Promise<void> {
  const headers: Record<string, string> = { authorization: `ApiKey ${opts.key}` };
  if (opts.uui) headers['x-service-uui'] = opts.uui;
  const remote = new StreamableHTTPClientTransport(opts.url, { requestInit: { headers } });
  const local = new StdioServerTransport();
  let closing = false;
  const close = async () => {
    if (closing) return;
    closing = true;
    await Promise.allSettled([remote.close(), local.close()]);
  };
  local.onmessage = (message) => {
    remote.send(message).catch((err: Error) => {
      // A refused request (401, unreachable service) still owes the client an answer to its request id.
      if ('id' in message && 'method' in message) {
        void local.send({ jsonrpc: '2.0', id: message.id, error: { code: -32000, message: `memory service: ${err.message}` } });
      }
      process.stderr.write(`memory-mcp: ${err.message}\n`);
    });
  };
  remote.onmessage = (message) => {
    void local.send(message);
  };
  remote.onerror = (err) => process.stderr.write(`memory-mcp: ${err.message}\n`);
  local.onclose = () => void close();
  remote.onclose = () => void close();
  await remote.start();
  await local.start();
}

export async function main(argv: string[]): Promise<void> {
  const opts = parseLauncherArgs(argv, process.env);
  if (typeof opts === 'string') {
    process.stderr.write(`${opts}\n`);
    process.exit(opts === USAGE ? 0 : 2);
  }
  await runLauncher(opts);
}
