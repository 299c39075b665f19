/** The MCP server's surface without a database: which tools each caller gets, their schemas, errors as problems. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { AGENT_TOOLS, type McpCaller, type McpDeps, TENANT_TOOLS, createMemoryMcpServer, handleMcpRequest } from './server';

// No tool below reaches the database: the calls fail validation first.
const deps = {} as McpDeps;
const tenant: McpCaller = { kind: 'tenant', auth: { tenantId: 't', apiKeyId: 'k' } as never };
const agent: McpCaller = {
  kind: 'agent',
  auth: { agent: { id: 'a', tenantId: 't', name: 'A' }, passportUserId: 'p', grant: { id: 'g', categories: ['fact'], accessType: 'read_only' } },
};

async function connect(caller: McpCaller) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMemoryMcpServer(deps, caller).connect(serverSide);
  const client = new Client({ name: 'unit', version: '1' });
  await client.connect(clientSide);
  return client;
}

describe('createMemoryMcpServer', () => {
  it('gives a tenant the tenant tools, each naming the end user', async () => {
    const { tools } = await (await connect(tenant)).listTools();
    expect(tools.map((t) => t.name)).toEqual([...TENANT_TOOLS]);
    for (const name of ['add_memory', 'search_memories', 'list_memories']) {
      expect(tools.find((t) => t.name === name)?.inputSchema.required, name).toContain('external_user_id');
    }
  });

  it('gives a passport agent the universal tools, with no end user to name', async () => {
    const { tools } = await (await connect(agent)).listTools();
    expect(tools.map((t) => t.name)).toEqual([...AGENT_TOOLS]);
    for (const t of tools) expect(Object.keys(t.inputSchema.properties ?? {}), t.name).not.toContain('external_user_id');
  });

  it('answers a domain error as the REST problem body, marked isError', async () => {
    const client = await connect(tenant);
    const res = await client.callTool({ name: 'delete_memory', arguments: { memory_id: 'not-a-uuid' } });
    expect(res.isError).toBe(true);
    expect(res.structuredContent).toMatchObject({ status: 404, code: 'not_found', instance: '/mcp' });
  });

  it('refuses GET and DELETE with 405 (stateless: no stream, no session)', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await handleMcpRequest(new Request('http://x/mcp', { method }), deps, tenant);
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    }
  });
});
