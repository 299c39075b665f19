/**
 * Direct memory operations (docs/direct-operations.md): write a memory without extraction (POST /v1/memories),
 * edit one as a new revision of the ledger (PATCH /v1/memories/{id}) and read one with its history (GET).
 */
import { z } from 'zod';
import { externalUserId, jsonObject, memoryCategory } from './common';
import { LIMITS } from './limits';
import { memoryRecord, sourceBlock } from './memories';

const content = z
  .string()
  .max(LIMITS.memoryContentChars, `must be at most ${LIMITS.memoryContentChars} characters`)
  .refine((s) => s.trim().length > 0, 'must not be empty')
  .meta({
    description:
      'The memory as a standalone statement, e.g. "The user lives in Lisbon." Written like extracted memories (third person), ' +
      'a statement about one attribute is a claim the conflict rules compare (docs/conflicts.md).',
  });

const importance = z.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1');

/** The importance a direct write gets when it names none. */
export const DIRECT_DEFAULT_IMPORTANCE = 0.6;

export const createMemoryRequest = z
  .object({
    external_user_id: externalUserId,
    content,
    category: memoryCategory,
    importance: importance.optional().meta({ description: `0–1; default ${DIRECT_DEFAULT_IMPORTANCE}.` }),
    agent_id: z.string().min(1).max(LIMITS.agentIdChars).nullish(),
    metadata: jsonObject(LIMITS.metadataBytes, 'metadata').optional(),
    source: sourceBlock.nullish(),
  })
  .strict()
  .meta({ id: 'CreateMemoryRequest' });
export type CreateMemoryRequest = z.infer<typeof createMemoryRequest>;

export const updateMemoryRequest = z
  .object({ content: content.optional(), category: memoryCategory.optional(), importance: importance.optional() })
  .strict()
  // "at least one field" is checked by the edit itself, after the memory was found: another tenant's id is 404 whatever the body
  .meta({ id: 'UpdateMemoryRequest', description: 'Name at least one of `content`, `category`, `importance`.' });
export type UpdateMemoryRequest = z.infer<typeof updateMemoryRequest>;

export const claimRevision = z
  .object({
    id: z.string().uuid(),
    memory_id: z.string().uuid(),
    action: z.string().meta({ description: 'created, reinforced, superseded, review_opened, edited, archived, deleted, restored, …' }),
    from_status: z.string().nullable(),
    to_status: z.string(),
    reason: z.string(),
    actor: z.string().meta({ description: 'Who made the change: `extractor:<provider>`, `api_key:<id>`, `admin:<id>`, `lifecycle`, `feedback:<id>`.' }),
    source_event_id: z.string().uuid().nullable(),
    job_id: z.string().uuid().nullable(),
    content: z.string().meta({ description: 'The claim as it was after this revision.' }),
    details: z.record(z.string(), z.unknown()).meta({ description: 'An edit names `before` and `after` of each changed field.' }),
    created_at: z.string().datetime(),
  })
  .meta({ id: 'ClaimRevision', description: 'One entry of the claim revision ledger.' });

export const memoryDetail = memoryRecord
  .extend({
    metadata: z
      .record(z.string(), z.unknown())
      .nullable()
      .meta({ description: 'The `metadata` of the add or direct write that produced the memory (what `metadata_filter` matches); null without one.' }),
    revisions: z.array(claimRevision).meta({ description: 'The memory’s claim revisions, oldest first.' }),
  })
  .meta({ id: 'MemoryDetail', description: 'A memory with its provenance, its producing metadata and its revision history.' });
export type MemoryDetail = z.infer<typeof memoryDetail>;

export const DIRECT_OUTCOMES = ['created', 'reinforced'] as const;

export const createdMemory = memoryDetail
  .extend({
    outcome: z.enum(DIRECT_OUTCOMES).meta({
      description:
        '`created`: a new memory (201); its `status` is `inactive` when it lost a conflict or waits for a conflict review, `pending` when review before write holds it. ' +
        '`reinforced`: the user already had this memory (the same fact, or the same claim in other words); it is returned, reinforced (200).',
    }),
    superseded_memory_ids: z.array(z.string().uuid()).meta({ description: 'Active memories this one superseded under the conflict rules.' }),
    review_id: z.string().uuid().nullable().meta({ description: 'The review opened when an equally trusted claim disagrees; null otherwise.' }),
  })
  .meta({ id: 'CreatedMemory' });
export type CreatedMemory = z.infer<typeof createdMemory>;
