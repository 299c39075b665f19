/**
 * The stdio launcher (`memory-mcp`, packages/mcp/bin) a desktop client starts, spawned and driven by the SDK's
 * StdioClientTransport against a live server on both engines; and examples/mcp/quickstart.ts run as a newcomer runs it.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { Api, servers } from './client';
import { connectTransport, waitForMcpJob } from './mcp-client';
import { connectAgent, rand, signInPassport } from './passport-flow';
import { ROOT } from './server';

const LAUNCHER = path.join(ROOT, 'packages/mcp/bin/memory-mcp.mjs');

const launch = (args: string[]) =>
  connectTransport(new StdioClientTransport({ command: process.execPath, args: [LAUNCHER, ...args], cwd: ROOT, stderr: 'pipe' }));

describe.each(servers())('the MCP stdio launcher and example on $name', (server) => {
  it('relays a tenant key: add, wait, search', async () => {
    const { api_key: key } = await new Api(server).createTenant();
    const user = `stdio-${rand()}`;
    const mcp = await launch(['--url', server.baseUrl, '--key', key]);
    try {
      expect((await mcp.client.listTools()).tools.map((t) => t.name)).toContain('delete_memory');
      const added = await mcp.call('add_memory', { external_user_id: user, messages: [{ role: 'user', content: 'I live in Lisbon.' }] });
      expect(added.data).toMatchObject({ status: 'queued' });
      expect(await waitForMcpJob(mcp, added.data.job_id)).toMatchObject({ status: 'completed' });
      const found = await mcp.call('search_memories', { external_user_id: user, query: 'Where does the user live?' });
      expect(found.texts[0]).toContain('Lisbon');
    } finally {
      await mcp.close();
    }
  });

  it('relays a passport agent with --uui: the passport tools, only the granted categories', async () => {
    const passport = await signInPassport(server);
    const agent = await connectAgent(passport, { categories: ['goal'], access: 'read_only' });
    const mcp = await launch(['--url', `${server.baseUrl}/mcp`, '--key', agent.agentKey, '--uui', agent.uuiToken]);
    try {
      expect((await mcp.client.listTools()).tools.map((t) => t.name)).toEqual(['add_memory', 'get_job', 'search_memories', 'list_memories', 'delete_memory']);
      const res = await mcp.call('search_memories', { query: 'anything' });
      expect(res.data).toMatchObject({ permission_error: null, categories_available: ['goal'] });
    } finally {
      await mcp.close();
    }
  });

  it('answers the client with the service’s refusal when the key is wrong', async () => {
    await expect(launch(['--url', server.baseUrl, '--key', 'mem_sk_unknown'])).rejects.toThrow(/401|unauthorized/i);
  });

  it('runs examples/mcp/quickstart.ts: adds, waits, searches, prints the block', async () => {
    const { api_key: key } = await new Api(server).createTenant();
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'examples/mcp/quickstart.ts'], {
      cwd: ROOT,
      env: { ...process.env, MEMORY_URL: server.baseUrl, MEMORY_API_KEY: key, MEMORY_USER: `example-${rand()}` },
      timeout: 60_000,
    });
    expect(stdout).toMatch(/add_memory: status queued, job [0-9a-f-]{36}/);
    expect(stdout).toMatch(/job completed: \d+ memories created/);
    expect(stdout).toContain('Lisbon');
    expect(stdout).toMatch(/peanut/i);
  });
});
