/**
 * POST /v1/memories/retrieve. One round trip in the common case: read the end user with its memory
 * version; rank the user's whole active set (from the hot tier when current, else loaded once) exactly in
 * process; render within the token budget; queue the retrieval record and access counts.
 */
import { randomUUID } from 'node:crypto';
import { type Db, rows, sql } from '@memory/db';
import type { Logger } from '../logger';
import type { EmbeddingsProvider } from '../embeddings/types';
import { MEMORY_COLUMNS, SOURCE_EVENT_COLUMNS, type SourceEventColumns, iso, sourceProvenance, toProvenance } from '../memories/serialize';
import type { MemorySearchResult, RetrieveRequest, RetrieveResponse } from '../schemas/memories';
import { matchingSourceEvents } from '../memories/metadata-filter';
import type { Principal } from '../tenants/tenants';
import { openQuestion } from '../conflicts/reviews';
import { ActivityRecorder } from './activity';
import { type PassagePrompt, passageText } from '../evidence/passages';
import { HotTier, type HotUserSet, type PassageRow, type RankableRow } from './hot-tier';
import { type DomainSection, domainSectionSource, renderWithSection } from './domain-section';
import { type ContextFormat, renderContext, renderSnippet } from './render';
import { PASSAGE_CATEGORY, RELEVANCE_FLOOR, type RankFilters, rankLayers } from './score';
import { LOCAL_ENCODER_MODEL } from '../embeddings/local-encoder';
import { healMissingEmbeddings } from '../embeddings/store';
import { announceModeChange, consumeBudget, quotaFields, readQuotaStateAndUser } from '../quota/usage';

/** DEGRADED_RETRIEVE (docs/quotas.md): at most this many memories, and no call to the embeddings endpoint. */
export const DEGRADED_RETRIEVE_LIMIT = 5;

export interface RetrievalDeps {
  db: Db;
  hotTier: HotTier;
  activity: ActivityRecorder;
  /** The configured embeddings endpoint; without one the offline word vectors give the semantic signal. */
  embeddings?: EmbeddingsProvider | null;
  log?: Logger;
}

export function createRetrievalDeps(
  db: Db,
  log?: Logger,
  opts: { hotTierMaxMemories?: number; flushMs?: number; embeddings?: EmbeddingsProvider | null } = {},
): RetrievalDeps {
  const hotTier = new HotTier(opts.hotTierMaxMemories);
  hotTier.embeddingModel = opts.embeddings?.name ?? null;
  return {
    db,
    hotTier,
    activity: new ActivityRecorder(db, { flushMs: opts.flushMs ?? 200 }, log),
    embeddings: opts.embeddings ?? null,
    log,
  };
}

/**
 * The source events of the user's memories and passages, by id: read once per load and joined in process,
 * since joining them in SQL repeats the same seven columns on every one of ~1,000 rows (on PGlite, converting
 * those values was most of a cold load). Events of another user that a row cites are read by id.
 */
type EventColumns = SourceEventColumns & { se_evidence: unknown };

/** The columns of a source event that ranking rows carry, with its id to join on. */
const EVENT_SELECT = sql.raw(`se.id, ${SOURCE_EVENT_COLUMNS}, se.evidence AS se_evidence`);

async function loadSourceEvents(db: Db, tenantId: string, userId: string): Promise<Map<string, EventColumns>> {
  const found = await rows<EventColumns & { id: string }>(
    db,
    sql`SELECT ${EVENT_SELECT} FROM source_events se WHERE se.tenant_id = ${tenantId} AND se.user_id = ${userId}`,
  );
  return new Map(found.map(({ id, ...columns }) => [id, columns]));
}

const NO_EVENT: EventColumns = {
  se_service: null,
  se_event_id: null,
  se_observed_at: null,
  se_received_at: null,
  se_payload_hash: null,
  se_scope: null,
  se_writer_id: null,
  se_evidence: null,
};

/** Gives every row its source event's columns (reading, by id, any event not among the user's). */
async function attachSourceEvents<T extends { source_event_id: string | null }>(
  db: Db,
  tenantId: string,
  events: Map<string, EventColumns>,
  rowsToFill: T[],
): Promise<(T & EventColumns)[]> {
  const missing = [...new Set(rowsToFill.map((r) => r.source_event_id).filter((id): id is string => id !== null && !events.has(id)))];
  if (missing.length > 0) {
    const more = await rows<EventColumns & { id: string }>(
      db,
      sql`SELECT ${EVENT_SELECT} FROM source_events se
          WHERE se.tenant_id = ${tenantId} AND se.id IN (${sql.join(
            missing.map((id) => sql`${id}`),
            sql`, `,
          )})`,
    );
    for (const { id, ...columns } of more) events.set(id, columns);
  }
  return rowsToFill.map((r) => Object.assign(r, (r.source_event_id && events.get(r.source_event_id)) || NO_EVENT));
}

async function loadActiveMemories(db: Db, tenantId: string, userId: string, withEmbeddings: boolean): Promise<Omit<RankableRow, keyof EventColumns>[]> {
  // The memories and their entity names are two statements, joined here by memory id. As one statement (the
  // names as a CTE joined to the memories), tables the planner had no statistics for — a new database, one just
  // filled by a bulk import before autovacuum's ANALYZE, and PGlite always (it runs no autovacuum) — got a nested
  // loop that grouped the user's entity links again for every memory (34 ms of execution for 323 memories, 2.9 ms
  // once analysed; LoCoMo's cold retrieve on PGlite 0.7 s). As a subquery per memory it was planned as a scan of
  // every tenant's entities for each memory (0.8 s for 284 memories after a bulk import). Each statement alone
  // is an index scan on the user's rows whatever the statistics say (docs/evidence-layer.md).
  const [memories, names] = await Promise.all([
    rows<Omit<RankableRow, keyof EventColumns>>(
      db,
      sql`SELECT ${sql.raw(MEMORY_COLUMNS)}, m.feedback_score, m.terms, m.vector, m.vector_model,
            ${withEmbeddings ? sql`m.embedding, m.embedding_model` : sql`NULL AS embedding, NULL AS embedding_model`}
          FROM memories m
          WHERE m.tenant_id = ${tenantId} AND m.user_id = ${userId} AND m.status = 'active'`,
    ),
    rows<{ memory_id: string; entity_names: string[] }>(
      db,
      sql`SELECT me.memory_id, array_agg(e.normalized) AS entity_names
          FROM entities e JOIN memory_entities me ON me.entity_id = e.id
          WHERE e.tenant_id = ${tenantId} AND e.user_id = ${userId}
          GROUP BY me.memory_id`,
    ),
  ]);
  const byMemory = new Map(names.map((n) => [n.memory_id, n.entity_names]));
  for (const m of memories) m.entity_names = byMemory.get(m.id) ?? null;
  return memories;
}

/**
 * The user's passages of the evidence layer (docs/evidence-layer.md), without their source events' columns.
 * A message that a memory was taken from and that memory is no longer active is left out — pending a review,
 * deleted, archived, lost to a more trusted or more recent claim, corrected by the user: the memory layer's
 * decision about what was said stands. One exception: a claim superseded by a claim observed later is history,
 * not an error, so its message stays as dated evidence of what was true before ("how much was I pre-approved for
 * at first?"), marked `superseded` so it ranks below what is current.
 * (Filtered here rather than in SQL: a per-passage anti-join costs more than reading the few retired rows.)
 */
async function loadPassages(db: Db, tenantId: string, userId: string): Promise<Omit<PassageRow, keyof SourceEventColumns>[]> {
  const [all, retired] = await Promise.all([
    rows<Omit<PassageRow, keyof SourceEventColumns>>(
      db,
      sql`SELECT p.id, p.source_event_id, p.job_id, p.agent_id, p.message_index, p.part, p.role, p.speaker, p.content,
            p.observed_at, p.created_at, p.terms, p.vector, p.vector_model
          FROM passages p WHERE p.tenant_id = ${tenantId} AND p.user_id = ${userId}`,
    ),
    rows<{ source_event_id: string; message_indices: unknown; superseded: boolean; terms: string | null }>(
      db,
      // history: superseded in a conflict by a claim observed later, not by the user's correction or a review
      sql`SELECT m.source_event_id, m.message_indices, m.terms,
            (m.status = 'inactive' AND w.observed_at > m.observed_at AND j.kind IS DISTINCT FROM 'correction') AS superseded
          FROM memories m
            LEFT JOIN memories w ON w.id = m.superseded_by
            LEFT JOIN extraction_jobs j ON j.id = w.job_id
          WHERE m.tenant_id = ${tenantId} AND m.user_id = ${userId} AND m.status <> 'active' AND m.source_event_id IS NOT NULL`,
    ),
  ]);
  if (retired.length === 0) return all;
  const gone = new Set<string>();
  // message -> the stems of the superseded memories taken from it (indexed with its passages)
  const older = new Map<string, string>();
  for (const r of retired) {
    if (!Array.isArray(r.message_indices)) continue;
    for (const i of r.message_indices) {
      const k = `${r.source_event_id}#${i}`;
      if (!r.superseded) gone.add(k);
      else older.set(k, [older.get(k), r.terms].filter(Boolean).join(' '));
    }
  }
  const kept: Omit<PassageRow, keyof SourceEventColumns>[] = [];
  for (const p of all) {
    const k = `${p.source_event_id}#${p.message_index}`;
    if (gone.has(k)) continue;
    const history = older.get(k);
    kept.push(history === undefined ? p : { ...p, superseded: true, ...(history ? { history_terms: history } : {}) });
  }
  return kept;
}

/** A user's set as the hot tier holds it, read in three statements at once and joined to its source events. */
async function loadUserSet(db: Db, tenantId: string, userId: string, withEmbeddings: boolean) {
  // at once: on PostgreSQL each read takes its own pooled connection
  const [memoryRows, passageRows, events, clarificationQuestion] = await Promise.all([
    loadActiveMemories(db, tenantId, userId, withEmbeddings),
    loadPassages(db, tenantId, userId),
    loadSourceEvents(db, tenantId, userId),
    openQuestion(db, tenantId, userId),
  ]);
  const rankable = await attachSourceEvents(db, tenantId, events, memoryRows as RankableRow[]);
  const passages = await attachSourceEvents(db, tenantId, events, passageRows as PassageRow[]);
  return { rows: rankable, passages, clarificationQuestion };
}

/** Provenance of a passage: its source event, and the message it is part of (after the prompt it quotes whole). */
function passageProvenance(p: PassageRow, prompt: PassagePrompt | null = null): Record<string, unknown> {
  return sourceProvenance(p, prompt?.whole ? [prompt.messageIndex, p.message_index] : [p.message_index], p.job_id) ?? {};
}

/** The relevance floor for the model whose vectors the set holds (the offline encoder's cosines run lower). */
function embeddingFloor(set: HotUserSet): number {
  return set.embeddingModel === LOCAL_ENCODER_MODEL ? RELEVANCE_FLOOR.local : RELEVANCE_FLOOR.embedding;
}

/** The entity names of the user's memories that the query mentions (word n-grams up to 4 words). */
export function queryEntities(query: string, names: Set<string>): string[] {
  if (names.size === 0) return [];
  const words = query.toLowerCase().match(/[\p{L}\p{N}&'-]+/gu) ?? [];
  const found = new Set<string>();
  for (let i = 0; i < words.length; i++) {
    let gram = '';
    for (let n = 0; n < 4 && i + n < words.length; n++) {
      gram = n === 0 ? words[i].replace(/'s$/, '') : `${gram} ${words[i + n].replace(/'s$/, '')}`;
      if (names.has(gram)) found.add(gram);
    }
  }
  return [...found];
}

/** The query's vector from the configured endpoint; null (and a degraded flag) when it fails. */
export async function embedQuery(deps: RetrievalDeps, query: string): Promise<{ vector: Float32Array | null; degraded: boolean }> {
  if (!deps.embeddings) return { vector: null, degraded: false };
  try {
    const [vector] = await deps.embeddings.embed([query]);
    return { vector: vector ?? null, degraded: !vector };
  } catch (err) {
    deps.log?.warn({ provider: deps.embeddings.name, err_name: (err as Error).name }, 'query embedding failed; word vectors used instead');
    return { vector: null, degraded: true };
  }
}

/** A retrieve answer with nothing found (also an unknown user): no memories, an empty block. */
export const emptyRetrieveResponse = (requestId: string, now: Date): RetrieveResponse => ({
  retrieval_id: null,
  data: [],
  cached: false,
  system_prompt_addition: '',
  context_token_count: 0,
  memories_from_hot_tier: 0,
  clarification_question: null,
  quota_mode: 'FULL',
  budget_remaining_pct: null,
  is_degraded: false,
  is_passthrough: false,
  request_id: requestId,
  timestamp: now.toISOString(),
});

/**
 * Ranks a user's candidate set for a query (both layers, near-duplicates collapsed, docs/evidence-layer.md)
 * and renders the result: the response's `data` in ranking order, and the `system_prompt_addition` block
 * within the token budget, memories first and then passages (importance 0: the budget drops them first).
 * Shared by tenant and universal retrieval (whose sets have no passages); `source` gives each memory's
 * `source_event_id` and `provenance`. `memoryIndices` are the returned memories' places in `set.rows`.
 */
export function rankAndRender(
  set: HotUserSet,
  req: { query: string; limit: number; format: ContextFormat; context_max_tokens: number },
  filters: RankFilters,
  queryVector: Float32Array | null,
  now: Date,
  source: (row: RankableRow) => Pick<MemorySearchResult, 'source_event_id' | 'provenance'>,
  section: DomainSection | null = null,
) {
  const ranked = rankLayers(
    { memories: set.index, memoryTexts: set.memoryTexts, passages: set.passageIndex },
    req.query,
    filters,
    req.limit,
    now.getTime(),
    { embedding: queryVector, entities: queryEntities(req.query, set.entityNames), embeddingFloor: embeddingFloor(set) },
  );
  const items = ranked.map((r) => {
    if (r.layer === 'memory') {
      const row = set.rows[r.index];
      const renderable = { id: row.id, content: row.content, category: row.category, importance: row.importance };
      return {
        renderable,
        result: {
          id: row.id,
          content: row.content,
          category: row.category,
          importance_score: row.importance,
          last_accessed: iso(row.last_accessed),
          relevance_score: Math.round(r.relevance * 1e6) / 1e6,
          context_snippet: renderSnippet(renderable, req.format),
          ...source(row),
        } satisfies MemorySearchResult,
      };
    }
    const p = set.passages[r.index];
    const prompt = set.prompts[r.index] ?? null;
    const content = passageText({ role: p.role, speaker: p.speaker, content: p.content, observedAt: p.observed_at }, prompt);
    const renderable = { id: p.id, content, category: PASSAGE_CATEGORY, importance: 0 };
    return {
      renderable,
      result: {
        id: p.id,
        content: renderable.content,
        category: PASSAGE_CATEGORY,
        importance_score: 0,
        last_accessed: null,
        relevance_score: Math.round(r.relevance * 1e6) / 1e6,
        context_snippet: renderSnippet(renderable, req.format),
        source_event_id: p.source_event_id,
        provenance: passageProvenance(p, prompt),
      } satisfies MemorySearchResult,
    };
  });
  const block = [...items.filter((x) => x.result.category !== PASSAGE_CATEGORY), ...items.filter((x) => x.result.category === PASSAGE_CATEGORY)];
  const rendered = renderWithSection(
    (max) => renderContext(block.map((x) => x.renderable), req.format, max),
    section,
    req.format,
    req.context_max_tokens,
  );
  const memoryIndices = ranked.filter((r) => r.layer === 'memory').map((r) => r.index);
  return { ranked, memoryIndices, data: items.map((x) => x.result), rendered };
}

export async function retrieveMemories(
  deps: RetrievalDeps,
  auth: Principal,
  req: RetrieveRequest,
  opts: { requestId: string; now?: Date },
): Promise<RetrieveResponse> {
  const now = opts.now ?? new Date();
  const { state: quota, user } = await readQuotaStateAndUser(deps.db, auth.tenantId, req.external_user_id, now);
  await announceModeChange(deps.db, quota);
  // PASSTHROUGH and BLOCKED: the agent is told to answer without memory context; nothing is ranked or counted.
  if (quota.mode === 'PASSTHROUGH' || quota.mode === 'BLOCKED') {
    return { ...emptyRetrieveResponse(opts.requestId, now), ...quotaFields(quota), is_passthrough: true };
  }
  const degraded = quota.mode === 'DEGRADED_RETRIEVE';
  const after = await consumeBudget(deps.db, quota, 'retrieve_calls', now);
  const base: RetrieveResponse = { ...emptyRetrieveResponse(opts.requestId, now), ...quotaFields(after), is_degraded: degraded };
  if (!user) return base;

  // Retrieve rule 6: the tenant's domain schema adds its section to `system_prompt_addition`.
  const section = domainSectionSource(user.domainSchema);
  const [{ set, hit: fromHotTier }, embedded, sectionExtra, sourceEvents] = await Promise.all([
    deps.hotTier.getOrLoad(user.id, user.memoryVersion, async () => {
      const loaded = await loadUserSet(deps.db, auth.tenantId, user.id, Boolean(deps.embeddings));
      // memories the job could not give a vector of the configured model get one now, off this request
      if (deps.embeddings) healMissingEmbeddings(deps.db, deps.embeddings, { tenantId: auth.tenantId, userId: user.id }, loaded.rows, deps.log);
      return loaded;
    }),
    degraded ? { vector: null, degraded: true } : embedQuery(deps, req.query),
    section?.load ? section.load(deps.db, auth.tenantId, user.id) : null,
    req.metadata_filter ? matchingSourceEvents(deps.db, auth.tenantId, user.id, req.metadata_filter) : undefined,
  ]);

  const { memoryIndices, data, rendered } = rankAndRender(
    set,
    degraded ? { ...req, limit: Math.min(req.limit, DEGRADED_RETRIEVE_LIMIT) } : req,
    {
      categories: req.categories,
      agentId: req.agent_id ?? null,
      createdAfter: req.time_filter_days ? now.getTime() - req.time_filter_days * 86_400_000 : undefined,
      sourceEvents,
    },
    embedded.vector,
    now,
    (row) => ({ source_event_id: row.source_event_id, provenance: toProvenance(row) }),
    section ? section.build(req.external_user_id, set.rows, now, sectionExtra) : null,
  );

  const retrievalId = randomUUID();
  deps.activity.record({
    retrievalId,
    tenantId: auth.tenantId,
    userId: user.id,
    memoryIds: memoryIndices.map((i) => set.rows[i].id),
    format: req.format,
    at: now,
  });
  deps.hotTier.noteAccess(set, memoryIndices, now);

  return {
    ...base,
    retrieval_id: retrievalId,
    data,
    cached: fromHotTier,
    is_degraded: degraded || embedded.degraded,
    clarification_question: set.clarificationQuestion,
    memories_from_hot_tier: fromHotTier ? data.length : 0,
    system_prompt_addition: rendered.text,
    context_token_count: rendered.tokenCount,
  };
}
