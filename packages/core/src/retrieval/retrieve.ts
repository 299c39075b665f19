/**
 * POST /v1/memories/retrieve. Ranking runs exactly over the user's active memories in SQL:
 * full-text rank (English stemming, terms OR-ed so partial matches count), importance and recency.
 * The prompt block is budgeted by real token counts; lower-importance memories are dropped first.
 */
import { randomUUID } from 'node:crypto';
import { type Db, rows, sql } from '@memory/db';
import type { SQL } from '@memory/db';
import type { RetrieveRequest, RetrieveResponse } from '../schemas/memories';
import type { TenantAuth } from '../tenants/tenants';
import { findUser } from '../users';
import { MEMORY_WITH_SOURCE_COLUMNS, type MemoryWithSourceRow, iso, toProvenance } from '../memories/serialize';
import { renderContext, renderSnippet } from './render';

/** Weights of the final relevance score (docs/retrieval.md). */
export const RANKING = {
  lexicalWeight: 0.7,
  importanceWeight: 0.2,
  recencyWeight: 0.1,
  /** r / (r + k) maps an unbounded ts_rank_cd into [0, 1). */
  lexicalSaturation: 0.1,
  recencyHalfLifeDays: 90,
} as const;

export async function retrieveMemories(
  db: Db,
  auth: TenantAuth,
  req: RetrieveRequest,
  opts: { requestId: string; now?: Date },
): Promise<RetrieveResponse> {
  const now = opts.now ?? new Date();
  const base: RetrieveResponse = {
    retrieval_id: null,
    data: [],
    cached: false,
    system_prompt_addition: '',
    context_token_count: 0,
    memories_from_hot_tier: 0,
    clarification_question: null,
    quota_mode: 'FULL',
    is_degraded: false,
    is_passthrough: false,
    request_id: opts.requestId,
    timestamp: now.toISOString(),
  };
  const user = await findUser(db, auth.tenantId, req.external_user_id);
  if (!user) return base;

  const terms = queryTerms(req.query);
  const filters: SQL[] = [];
  if (req.categories?.length) {
    filters.push(sql`AND m.category IN (${sql.join(req.categories.map((c) => sql`${c}`), sql`, `)})`);
  }
  if (req.agent_id) filters.push(sql`AND m.agent_id = ${req.agent_id}`);
  if (req.time_filter_days) {
    filters.push(sql`AND m.created_at >= ${now.toISOString()}::timestamptz - make_interval(days => ${req.time_filter_days})`);
  }
  const ranked = await rows<MemoryWithSourceRow & { relevance: number }>(
    db,
    sql`
    WITH q AS (
      SELECT CASE WHEN ${terms} = '' THEN NULL ELSE to_tsquery('english', ${terms}) END AS tsq
    ), scored AS (
      SELECT ${sql.raw(MEMORY_WITH_SOURCE_COLUMNS)},
        coalesce(ts_rank_cd(m.search, q.tsq), 0) AS text_rank
      FROM memories m CROSS JOIN q
      LEFT JOIN source_events se ON se.id = m.source_event_id
      WHERE m.tenant_id = ${auth.tenantId} AND m.user_id = ${user.id} AND m.status = 'active'
      ${sql.join(filters, sql` `)}
    )
    SELECT *, (
      ${RANKING.lexicalWeight} * (text_rank / (text_rank + ${RANKING.lexicalSaturation}))
      + ${RANKING.importanceWeight} * importance
      + ${RANKING.recencyWeight} * exp(-extract(epoch FROM (${now.toISOString()}::timestamptz - created_at)) / 86400.0 / ${RANKING.recencyHalfLifeDays} * ln(2))
    )::float8 AS relevance
    FROM scored
    ORDER BY relevance DESC, created_at DESC, id
    LIMIT ${req.limit}`,
  );

  const rendered = renderContext(
    ranked.map((r) => ({ id: r.id, content: r.content, category: r.category, importance: r.importance })),
    req.format,
    req.context_max_tokens,
  );
  const retrievalId = randomUUID();
  const ids = ranked.map((r) => r.id);
  await recordRetrieval(db, { retrievalId, tenantId: auth.tenantId, userId: user.id, ids, format: req.format, now });

  return {
    ...base,
    retrieval_id: retrievalId,
    data: ranked.map((r) => ({
      id: r.id,
      content: r.content,
      category: r.category,
      importance_score: r.importance,
      last_accessed: iso(r.last_accessed),
      relevance_score: Math.round(Number(r.relevance) * 1e6) / 1e6,
      context_snippet: renderSnippet(
        { id: r.id, content: r.content, category: r.category, importance: r.importance },
        req.format,
      ),
      source_event_id: r.source_event_id,
      provenance: toProvenance(r),
    })),
    system_prompt_addition: rendered.text,
    context_token_count: rendered.tokenCount,
  };
}

/** One round trip: remember what was returned (for feedback) and mark the memories as used. */
async function recordRetrieval(
  db: Db,
  r: { retrievalId: string; tenantId: string; userId: string; ids: string[]; format: string; now: Date },
): Promise<void> {
  const idList = r.ids.length ? sql.join(r.ids.map((id) => sql`${id}::uuid`), sql`, `) : sql`NULL::uuid`;
  await rows(
    db,
    sql`
    WITH touched AS (
      UPDATE memories SET last_accessed = ${r.now.toISOString()}::timestamptz, access_count = access_count + 1
      WHERE tenant_id = ${r.tenantId} AND id IN (${idList})
      RETURNING id
    )
    INSERT INTO retrievals (id, tenant_id, user_id, memory_ids, format, created_at)
    VALUES (${r.retrievalId}, ${r.tenantId}, ${r.userId}, ${JSON.stringify(r.ids)}::jsonb, ${r.format}, ${r.now.toISOString()}::timestamptz)`,
  );
}

/**
 * The query's words OR-ed together, so a memory matching some of them still ranks. "user" is left out:
 * every memory is written as "The user ...", so it would match everything. Only letters and digits reach
 * to_tsquery, which then drops stop words and stems the rest.
 */
export function queryTerms(query: string): string {
  const words = query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const unique = [...new Set(words.filter((w) => w.length > 1 && w !== 'user' && w !== 'users'))];
  return unique.slice(0, 32).join(' | ');
}
