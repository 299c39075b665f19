/**
 * POST /v1/memories/retrieve. One round trip in the common case: read the end user with its memory
 * version; rank the user's whole active set (from the hot tier when current, else loaded once) exactly in
 * process; render within the token budget; queue the retrieval record and access counts.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '@memory/db';
import type { Logger } from '../logger';
import type { EmbeddingsProvider } from '../embeddings/types';
import { iso, sourceProvenance, toProvenance } from '../memories/serialize';
import type { MemorySearchResult, RetrieveRequest, RetrieveResponse } from '../schemas/memories';
import { matchingSourceEvents } from '../memories/metadata-filter';
import type { Principal } from '../tenants/tenants';
import { ActivityRecorder } from './activity';
import { type PassagePrompt, passageText } from '../evidence/passages';
import { type EventColumns, HotTier, type HotUserSet, NO_EVENT, type PassageRow, type RankableRow } from './hot-tier';
import { loadUserSet } from './load-user-set';
import { type DomainSection, domainSectionSource, renderWithSection } from './domain-section';
import { type ContextFormat, renderContext, renderSnippet } from './render';
import { PASSAGE_CATEGORY, RELEVANCE_FLOOR, type RankFilters, rankLayers } from './score';
import { LOCAL_ENCODER_MODEL } from '../embeddings/local-encoder';
import { healMissingEmbeddings } from '../embeddings/store';
import { healMissingAnalysis } from './heal-analysis';
import { USER_ENTITY } from '../extraction/compose';
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
 * Provenance and a passage's rendered text depend on the row alone, and a hot set's rows are never changed
 * in place (a write makes a new set), so each is built once per row and shared by every response that returns
 * it (frozen: nothing may change a shared object).
 */
function once<R extends object, V>(cache: WeakMap<R, V>, row: R, make: (row: R) => V): V {
  let made = cache.get(row);
  if (made === undefined) {
    made = Object.freeze(make(row));
    cache.set(row, made);
  }
  return made;
}

const provenanceOfMemory = new WeakMap<RankableRow, Record<string, unknown> | null>();
/** A memory's provenance (its source event and messages), once per row. */
const memoryProvenance = (row: RankableRow) => once(provenanceOfMemory, row, toProvenance);

const partsOfPassage = new WeakMap<PassageRow, { content: string; provenance: Record<string, unknown> }>();
/**
 * A passage's text (speaker, date, the prompt a reply quotes) and provenance: its source event (the set keeps the
 * events by id), and the message it is part of (after the prompt it quotes whole); once per row.
 */
function passageParts(p: PassageRow, prompt: PassagePrompt | null, event: EventColumns | undefined) {
  return once(partsOfPassage, p, (r) => ({
    content: passageText({ role: r.role, speaker: r.speaker, content: r.content, observedAt: r.observed_at }, prompt),
    provenance: Object.freeze(sourceProvenance(event ?? NO_EVENT, prompt?.whole ? [prompt.messageIndex, r.message_index] : [r.message_index], r.job_id) ?? {}),
  }));
}

/** The relevance floor for the model whose vectors the set holds (the offline encoder's cosines run lower). */
function embeddingFloor(set: HotUserSet): number {
  return set.embeddingModel === LOCAL_ENCODER_MODEL ? RELEVANCE_FLOOR.local : RELEVANCE_FLOOR.embedding;
}

/**
 * The entity names of the user's memories that the query mentions (word n-grams up to 4 words). Not "the user":
 * extraction keeps the user as the node their relations hang on (extraction/compose.ts), so most memories are linked
 * to it, and a tenant's question about "the user" ("Which books has the user read?") would match them all, past the
 * relevance floor.
 */
export function queryEntities(query: string, names: Set<string>): string[] {
  if (names.size === 0) return [];
  const words = query.toLowerCase().match(/[\p{L}\p{N}&'-]+/gu) ?? [];
  const found = new Set<string>();
  for (let i = 0; i < words.length; i++) {
    let gram = '';
    for (let n = 0; n < 4 && i + n < words.length; n++) {
      gram = n === 0 ? words[i].replace(/'s$/, '') : `${gram} ${words[i + n].replace(/'s$/, '')}`;
      if (names.has(gram) && gram !== USER_ENTITY) found.add(gram);
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
  req: { query: string; limit: number; format: ContextFormat; context_max_tokens: number; reference_time?: string | null },
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
    {
      embedding: queryVector,
      entities: queryEntities(req.query, set.entityNames),
      embeddingFloor: embeddingFloor(set),
      // without reference_time a relative date is read from the request's time (rankLayers' `now`)
      askedAt: req.reference_time ? Date.parse(req.reference_time) : undefined,
    },
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
    const { content, provenance } = passageParts(p, prompt, set.events.get(p.source_event_id));
    // a passage returned in place of a memory of its message says what the memory said: it is dropped for the
    // budget no sooner than the memory would have been
    const renderable = { id: p.id, content, category: PASSAGE_CATEGORY, importance: r.standsFor === undefined ? 0 : set.rows[r.standsFor].importance };
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
        provenance,
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
  // rows loaded without their stored analysis (written before it existed, or imported) keep what this load computed
  if (!fromHotTier) healMissingAnalysis(deps.db, { tenantId: auth.tenantId, userId: user.id }, set, deps.log);

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
    (row) => ({ source_event_id: row.source_event_id, provenance: memoryProvenance(row) }),
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
