/**
 * The memory service through its MCP server, as an agent framework would use it: connect to /mcp with the official
 * SDK's client, add a conversation, wait for its extraction job, search, print the prompt block.
 *
 *   MEMORY_URL=http://localhost:3000 MEMORY_API_KEY=mem_sk_… [MEMORY_USER=alice] npx tsx examples/mcp/quickstart.ts
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const url = process.env.MEMORY_URL ?? 'http://localhost:3000';
const apiKey = process.env.MEMORY_API_KEY;
const user = process.env.MEMORY_USER ?? 'quickstart-user';
if (!apiKey) throw new Error('Set MEMORY_API_KEY to a tenant API key (mem_sk_…).');

const transport = new StreamableHTTPClientTransport(new URL('/mcp', url), {
  requestInit: { headers: { authorization: `ApiKey ${apiKey}` } },
});
const client = new Client({ name: 'memory-quickstart', version: '1.0.0' });
await client.connect(transport);

/** Calls a tool and returns its structured answer; a tool error carries the service's problem body. */
async function call(name: string, args: Record<string, unknown>): Promise<any> {
  const res = await client.callTool({ name, arguments: args });
  if (res.isError) throw new Error(`${name} failed: ${JSON.stringify(res.structuredContent)}`);
  return res.structuredContent;
}

const added = await call('add_memory', {
  external_user_id: user,
  messages: [
    { role: 'user', content: 'I live in Lisbon and I am allergic to peanuts.' },
    { role: 'assistant', content: 'Noted, I will keep that in mind.' },
  ],
});
console.log(`add_memory: status ${added.status}, job ${added.job_id}`);

if (added.job_id) {
  for (let job = await call('get_job', { job_id: added.job_id }); ; job = await call('get_job', { job_id: added.job_id })) {
    if (!['queued', 'running'].includes(job.status)) {
      console.log(`job ${job.status}: ${job.memories_created ?? 0} memories created`);
      break;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

const found = await call('search_memories', { external_user_id: user, query: 'What should I know about this user?' });
console.log('system prompt block:');
console.log(found.system_prompt_addition);
await client.close();
