/**
 * The MCP server of the memory service (docs: README "MCP server"): one McpServer per request, scoped to the
 * caller's credentials. A tenant key gets the tenant tools (every tool takes `external_user_id`); an agent key with
 * an X-Service-UUI token gets the passport tools, which see only the granted categories and write only with a
 * `read_write` grant. Tools are thin: the same domain functions the REST routes call, with the same schemas.
 */
import { randomUUID } from 'node:crypto';
import { LIMITS, type TenantAuth, type UniversalAgentAuth } from '@memory/core';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { registerAgentTools } from './agent-tools';
import type { McpDeps, ToolContext } from './context';
import { registerTenantTools } from './tenant-tools';

/** Who calls: a tenant (API key) or a global agent acting for one passport user. */
export type McpCaller = { kind: 'tenant'; auth: TenantAuth } | { kind: 'agent'; auth: UniversalAgentAuth };

export type { McpDeps } from './context';

export const MCP_SERVER_NAME = 'memory-service';
export const MCP_SERVER_VERSION = '0.1.0';

/** The tools each kind of caller gets, in the order `tools/list` shows them. */
export const TENANT_TOOLS = ['add_memory', 'get_job', 'search_memories', 'list_memories', 'delete_memory'] as const;
export const AGENT_TOOLS = ['add_memory', 'get_job', 'search_memories', 'list_memories', 'delete_memory'] as const;

export function createMemoryMcpServer(deps: McpDeps, caller: McpCaller): McpServer {
  const server = new McpServer(
    { name: MCP_SERVER_NAME, version: MCP_SERVER_VERSION },
    {
      instructions:
        caller.kind === 'tenant'
          ? 'Long-term memory of your end users. add_memory queues extraction from a conversation (poll get_job), ' +
            'search_memories returns a prompt block of what is known about the user, list_memories and delete_memory manage them.'
          : 'The passport user’s long-term memory, in the categories they granted to this agent. add_memory needs a ' +
            'read_write grant; search_memories returns a prompt block of the granted memories; list_memories and delete_memory ' +
            '(read_write) manage them. The user sees every read in their access log.',
    },
  );
  const ctx: ToolContext = { deps, requestId: () => randomUUID() };
  if (caller.kind === 'tenant') registerTenantTools(server, ctx, caller.auth);
  else registerAgentTools(server, ctx, caller.auth);
  return server;
}

/**
 * Answers one Streamable HTTP request on /mcp statelessly: a new server and transport per POST, JSON responses, no
 * session id, so any instance of the app can answer any request. Without sessions there is no server-to-client
 * stream to open (GET) nor session to end (DELETE): both are 405, which the protocol lets a server answer.
 */
export async function handleMcpRequest(req: Request, deps: McpDeps, caller: McpCaller): Promise<Response> {
  if (req.method !== 'POST') {
    return Response.json(
      { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP server is stateless; send POST.' }, id: null },
      { status: 405, headers: { Allow: 'POST' } },
    );
  }
  const server = createMemoryMcpServer(deps, caller);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: LIMITS.bodyBytes,
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(req);
  } finally {
    await server.close();
  }
}
