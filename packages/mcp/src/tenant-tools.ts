/** The tools of a tenant key: the tenant's end users' memories, named by `external_user_id` (like /v1/memories). */
import {
  Errors,
  type TenantAuth,
  addMemories,
  addRequest,
  deleteMemory,
  enforceWriteRate,
  getJobView,
  listMemories,
  listMemoriesQuery,
  retrieveMemories,
  retrieveRequest,
} from '@memory/core';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { guarded, isUuid, ok, outcomeAnswer } from './result';
import type { ToolContext } from './context';
import { searchAnswer } from './search-answer';

const jobId = { job_id: z.string().min(1).max(64).describe('The job_id add_memory returned.') };

export function registerTenantTools(server: McpServer, ctx: ToolContext, auth: TenantAuth): void {
  const { deps } = ctx;
  server.registerTool(
    'add_memory',
    {
      title: 'Add memories',
      description:
        'Queue extraction of long-term memories from a conversation with the end user `external_user_id`. Returns ' +
        '`status` (queued, passthrough, L1–L4 blocked) and, when queued, `job_id` to poll with get_job.',
      inputSchema: addRequest.shape,
    },
    (args) =>
      guarded(ctx, args, async (requestId) => {
        return outcomeAnswer(await addMemories(deps, auth, addRequest.parse(args), { requestId }));
      }),
  );
  server.registerTool(
    'get_job',
    { title: 'Get an extraction job', description: 'The status of an add_memory job: done once it leaves `queued` and `running` (`completed` or `processed`; `failed`, `dead`).', inputSchema: jobId },
    (args) =>
      guarded(ctx, args, async (requestId) => {
        const { job_id } = args;
        const job = isUuid(job_id) ? await getJobView(deps.db, auth.tenantId, job_id) : null;
        if (!job) throw Errors.notFound(`Job ${job_id}`);
        return ok(job as unknown as Record<string, unknown>);
      }),
  );
  server.registerTool(
    'search_memories',
    {
      title: 'Search memories',
      description:
        'Rank the end user’s memories for `query`. Returns the prompt block (`system_prompt_addition`, also the first ' +
        'text item) and the ranked memories in `data`.',
      inputSchema: retrieveRequest.shape,
    },
    (args) =>
      guarded(ctx, args, async (requestId) => {
        return searchAnswer(await retrieveMemories(deps.retrieval, auth, retrieveRequest.parse(args), { requestId }));
      }),
  );
  server.registerTool(
    'list_memories',
    {
      title: 'List memories',
      description: 'The end user’s memories, newest first; pass `next_cursor` back as `cursor` for the next page.',
      inputSchema: listMemoriesQuery.shape,
    },
    (args) =>
      guarded(ctx, args, async (requestId) => {
        const q = listMemoriesQuery.parse(args);
        const page = await listMemories(deps.db, auth, {
          externalUserId: q.external_user_id,
          limit: q.limit,
          cursor: q.cursor,
          status: q.status,
          category: q.category,
          metadataFilter: q.metadata_filter,
        });
        return ok(page as unknown as Record<string, unknown>);
      }),
  );
  server.registerTool(
    'delete_memory',
    {
      title: 'Delete a memory',
      description: 'Archive one memory by id (as DELETE /v1/memories/{memory_id}); it stops appearing in searches.',
      inputSchema: { memory_id: z.string().min(1).max(64).describe('The memory’s id (from search_memories or list_memories).') },
    },
    (args) =>
      guarded(ctx, args, async (requestId) => {
        const { memory_id } = args;
        if (!isUuid(memory_id)) throw Errors.notFound(`Memory ${memory_id}`);
        await enforceWriteRate(deps.db, deps.quota, auth, null);
        const result = await deleteMemory(deps.db, auth, memory_id, `api_key:${auth.apiKeyId}`);
        return ok(result as unknown as Record<string, unknown>);
      }),
  );
}
