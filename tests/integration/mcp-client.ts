/** The MCP tests' client: the official SDK's Client over Streamable HTTP (or stdio), with a tool-call helper. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ServerInfo } from './server';

export interface McpTool {
  client: Client;
  /** A tool's answer: `structuredContent`, `isError` and the text items. */
  call(name: string, args: Record<string, unknown>): Promise<{ isError: boolean; data: any; texts: string[] }>;
  close(): Promise<void>;
}

export async function connectTransport(transport: Transport): Promise<McpTool> {
  const client = new Client({ name: 'memory-integration-tests', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    async call(name, args) {
      const res = await client.callTool({ name, arguments: args });
      const texts = (res.content as { type: string; text?: string }[]).filter((c) => c.type === 'text').map((c) => c.text ?? '');
      return { isError: res.isError === true, data: res.structuredContent, texts };
    },
    close: () => client.close(),
  };
}

/** Connects to `/mcp` with a tenant key, or an agent key plus its X-Service-UUI token. */
export function connectMcp(server: ServerInfo, key: string, uuiToken?: string): Promise<McpTool> {
  const headers: Record<string, string> = { authorization: `ApiKey ${key}`, ...(uuiToken ? { 'x-service-uui': uuiToken } : {}) };
  return connectTransport(new StreamableHTTPClientTransport(new URL('/mcp', server.baseUrl), { requestInit: { headers } }));
}

/** Polls `get_job` through MCP until the job leaves queued/running. */
export async function waitForMcpJob(mcp: McpTool, jobId: string, timeoutMs = 30_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await mcp.call('get_job', { job_id: jobId });
    if (res.isError) throw new Error(`get_job: ${JSON.stringify(res.data)}`);
    if (!['queued', 'running'].includes(res.data.status)) return res.data;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${res.data.status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};
