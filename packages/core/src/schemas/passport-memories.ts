/**
 * Schemas of a passport user's own view of the universal store (docs/passport.md, "Your memories and who read
 * them"): the memories with the agent that wrote each, the access log of agents' reads, the export bundle; and of
 * a global agent's list and delete (the MCP tools list_memories and delete_memory for passport agents).
 */
import { z } from 'zod';
import { AGENT_READ_CHANNELS, AGENT_READ_KINDS, MEMORY_STATUSES } from '@memory/db';
import { memoryCategory } from './common';
import { LIMITS } from './limits';
import { accessType } from './passport';
import { passportQuestion } from './universal';

const cursor = z.string().max(512).optional().meta({ description: 'The `next_cursor` of the previous page.' });
const limit = z.coerce.number().int().min(1).max(LIMITS.listLimitMax);
const pageOf = <T extends z.ZodType>(item: T, id: string) =>
  z.object({ items: z.array(item), limit: z.number().int(), next_cursor: z.string().nullable() }).meta({ id });

const agentRef = z
  .object({ id: z.string().uuid(), name: z.string() })
  .meta({ id: 'PassportAgentRef', description: 'The agent (its name now, or when it was last seen if it no longer exists).' });

/** GET /v1/uui/me/memories. */
export const passportMemoriesQuery = z.object({
  limit: limit.default(50),
  cursor,
  status: z
    .enum([...MEMORY_STATUSES, 'all'])
    .default('all')
    .meta({ description: '`active` (agents with a grant may read it), `inactive` (waiting for your answer to a question), `archived`, or `all` (default).' }),
  category: memoryCategory.optional(),
});
export type PassportMemoriesQuery = z.infer<typeof passportMemoriesQuery>;

export const passportMemory = z
  .object({
    id: z.string().uuid(),
    content: z.string(),
    category: memoryCategory,
    status: z.enum(MEMORY_STATUSES),
    importance_score: z.number(),
    written_by: agentRef.nullable().meta({ description: 'The agent whose conversation it was extracted from; null if unknown.' }),
    job_id: z.string().uuid().nullable(),
    observed_at: z.string().datetime().nullable().meta({ description: 'When the agent sent the conversation.' }),
    created_at: z.string().datetime(),
    updated_at: z.string().datetime(),
    access_count: z.number().int().meta({ description: 'How many agent reads returned it.' }),
    last_accessed: z.string().datetime().nullable(),
  })
  .meta({ id: 'PassportMemory' });
export type PassportMemory = z.infer<typeof passportMemory>;

export const passportMemoryPage = pageOf(passportMemory, 'PassportMemoryPage');

/** DELETE /v1/uui/me/memories/{memory_id}: the memory is erased, not archived. */
export const passportMemoryDeleted = z
  .object({ id: z.string().uuid(), deleted: z.literal(true), questions_settled: z.number().int() })
  .meta({ id: 'PassportMemoryDeleted' });

/** GET /v1/uui/me/access-log. */
export const accessLogQuery = z.object({ limit: limit.default(50), cursor });

export const accessLogEntry = z
  .object({
    id: z.string().uuid(),
    agent: agentRef,
    kind: z.enum(AGENT_READ_KINDS).meta({ description: '`retrieve` (a ranked search) or `list`.' }),
    channel: z.enum(AGENT_READ_CHANNELS).meta({ description: '`rest` (/v1/universal/…) or `mcp` (the MCP server).' }),
    memories_returned: z.number().int(),
    categories: z.array(memoryCategory).meta({ description: 'The categories of the memories returned.' }),
    created_at: z.string().datetime(),
  })
  .meta({ id: 'AccessLogEntry' });
export type AccessLogEntry = z.infer<typeof accessLogEntry>;

export const accessLogPage = pageOf(accessLogEntry, 'AccessLogPage');

/** GET /v1/uui/me/export (docs/passport.md, "Export"). */
export const passportExportBundle = z
  .object({
    format_version: z.literal(1),
    exported_at: z.string().datetime(),
    passport: z.object({ id: z.string().uuid(), email: z.string(), created_at: z.string().datetime() }),
    memories: z.array(passportMemory).meta({ description: 'Every universal memory in every state, oldest first.' }),
    grants: z.array(
      z.object({
        id: z.string().uuid(),
        agent: agentRef,
        categories: z.array(memoryCategory),
        access_type: accessType,
        status: z.enum(['active', 'revoked']),
        created_at: z.string().datetime(),
        updated_at: z.string().datetime(),
        revoked_at: z.string().datetime().nullable(),
      }),
    ),
    connections: z.array(
      z.object({
        id: z.string().uuid(),
        agent: agentRef,
        external_user_id_hint: z.string().nullable(),
        created_at: z.string().datetime(),
        disconnected_at: z.string().datetime().nullable(),
      }),
    ),
    questions: z.array(passportQuestion.extend({ status: z.enum(['open', 'resolved']), resolution_memory_id: z.string().uuid().nullable() })),
    access_log: z.array(accessLogEntry).meta({ description: 'Every kept entry, oldest first.' }),
  })
  .meta({ id: 'PassportExportBundle' });
export type PassportExportBundle = z.infer<typeof passportExportBundle>;

/** MCP list_memories of a passport agent: the active memories in the granted categories. */
export const agentListMemoriesRequest = z
  .object({ limit: limit.default(LIMITS.listLimitDefault), cursor, category: memoryCategory.optional() })
  .strict();
export type AgentListMemoriesRequest = z.infer<typeof agentListMemoriesRequest>;

export const agentMemory = z.object({
  id: z.string().uuid(),
  content: z.string(),
  category: memoryCategory,
  importance_score: z.number(),
  observed_at: z.string().datetime().nullable(),
  created_at: z.string().datetime(),
  written_by_you: z.boolean().meta({ description: 'True when this agent wrote it (other writers are never named).' }),
});
export type AgentMemory = z.infer<typeof agentMemory>;

/** MCP delete_memory of a passport agent. */
export const agentDeleteMemoryRequest = z.object({
  memory_id: z.string().min(1).max(64).meta({ description: 'The memory’s id (from search_memories or list_memories).' }),
});
