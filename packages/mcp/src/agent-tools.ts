/**
 * The tools of a global agent acting for one passport user (agent key + X-Service-UUI): the universal store, limited
 * by the user's grant exactly as /v1/universal/* is (no grant: search and list are empty with `permission_error`;
 * add and delete need `read_write`). Every search and list is an entry of the user's access log (channel `mcp`).
 */
import {
  Errors,
  type UniversalAgentAuth,
  addUniversalMemories,
  agentDeleteMemoryRequest,
  agentListMemoriesRequest,
  deleteUniversalMemoryForAgent,
  getUniversalJobView,
  listUniversalMemoriesForAgent,
  retrieveUniversalMemories,
  universalAddRequest,
  universalRetrieveRequest,
} from '@memory/core';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { guarded, isUuid, ok, outcomeAnswer } from './result';
import { searchAnswer } from './search-answer';
import type { ToolContext } from './context';

export function registerAgentTools(server: McpServer, ctx: ToolContext, auth: UniversalAgentAuth): void {
  const { deps } = ctx;
  server.registerTool(
    'add_memory',
    {
      title: 'Add memories',
      description:
        'Queue extraction of the passport user’s memories from a conversation; only the granted categories are kept. ' +
        'Needs a read_write grant. Returns `status` and, when queued, `job_id` to poll with get_job.',
      inputSchema: universalAddRequest.shape,
    },
    (args) =>
      guarded(ctx, args, async (requestId) => {
        return outcomeAnswer(await addUniversalMemories(deps, auth, universalAddRequest.parse(args), { requestId }));
      }),
  );
  server.registerTool(
    'get_job',
    {
      title: 'Get an extraction job',
      description: 'The status of an add_memory job (`completed` once its memories are searchable).',
      inputSchema: { job_id: z.string().min(1).max(64).describe('The job_id add_memory returned.') },
    },
    (args) =>
      guarded(ctx, args, async (requestId) => {
        const { job_id } = args;
        const owner = { passportUserId: auth.passportUserId, agentId: auth.agent.id };
        const job = isUuid(job_id) ? await getUniversalJobView(deps.db, owner, job_id) : null;
        if (!job) throw Errors.notFound(`Universal job ${job_id}`);
        return ok(job as unknown as Record<string, unknown>);
      }),
  );
  server.registerTool(
    'search_memories',
    {
      title: 'Search memories',
      description:
        'Rank the passport user’s memories in the granted categories for `query`. Returns the prompt block ' +
        '(`system_prompt_addition`, also the first text item), the memories in `data` and `categories_available`.',
      inputSchema: universalRetrieveRequest.shape,
    },
    (args) =>
      guarded(ctx, args, async (requestId) => {
        return searchAnswer(await retrieveUniversalMemories(deps.retrieval, auth, universalRetrieveRequest.parse(args), { requestId, channel: 'mcp' }));
      }),
  );
  server.registerTool(
    'list_memories',
    {
      title: 'List memories',
      description:
        'The passport user’s active memories in the granted categories, newest first (`written_by_you` marks your own); ' +
        'pass `next_cursor` back as `cursor` for the next page. No grant: empty with `permission_error`.',
      inputSchema: agentListMemoriesRequest.shape,
    },
    (args) =>
      guarded(ctx, args, async () => {
        const page = await listUniversalMemoriesForAgent(deps.db, auth, agentListMemoriesRequest.parse(args), { channel: 'mcp' });
        return ok(page as unknown as Record<string, unknown>);
      }),
  );
  server.registerTool(
    'delete_memory',
    {
      title: 'Delete a memory',
      description:
        'Archive one memory you can list (active, in a granted category); it stops appearing in searches. Needs a read_write grant. ' +
        'The passport user still sees it and decides whether to erase it.',
      inputSchema: agentDeleteMemoryRequest.shape,
    },
    (args) =>
      guarded(ctx, args, async () => {
        const { memory_id } = agentDeleteMemoryRequest.parse(args);
        if (!isUuid(memory_id)) throw Errors.notFound(`Memory ${memory_id}`);
        return ok((await deleteUniversalMemoryForAgent(deps.db, auth, memory_id)) as unknown as Record<string, unknown>);
      }),
  );
}
