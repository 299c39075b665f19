/**
 * POST /v1/universal/memories/retrieve: the passport user's active universal memories in the categories this
 * agent's grant covers, ranked and rendered by the same code as tenant retrieval (score.ts, render.ts). The
 * user's whole active set is kept in the hot tier under `universal:<passport user id>`, tagged with
 * `passport_users.memory_version` (bumped by every universal write), and the grant's categories filter it at
 * ranking time, so one cached set serves every agent and a narrowed grant applies at once.
 *
 * Nothing about other agents leaks: no grant gives an empty answer with `permission_error`, provenance names
 * an agent's job only on that agent's own memories, and a pending question is shown only when both of its
 * claims are in granted categories.
 *
 * Every retrieve with a grant writes one access-log entry (agent, time, how many memories, their categories).
 */
import { type AgentReadChannel, type Db, inArray, passportUsers, eq, rows, sql, universalMemories } from '@memory/db';
import type { RankableRow } from '../retrieval/hot-tier';
import type { UniversalAgentAuth } from '../passport/auth';
import { embedQuery, emptyRetrieveResponse, rankAndRender, type RetrievalDeps } from '../retrieval/retrieve';
import { iso } from '../memories/serialize';
import type { UniversalRetrieveRequest, UniversalRetrieveResponse } from '../schemas/universal';
import { grantedCategories } from './add';
import { slotWords } from '../conflicts/claims';
import { analyseForIndex } from '../text/analysis';
import { healMissingAnalysis } from '../retrieval/heal-analysis';
import { recordAgentRead } from './access-log';

const hotKey = (passportUserId: string) => `universal:${passportUserId}`;

/** Universal memories in the shape the hot tier ranks (no source events: provenance is built below). */
async function loadActive(db: Db, passportUserId: string): Promise<RankableRow[]> {
  const found = await rows<RankableRow & { subject: string | null }>(
    db,
    sql`SELECT m.id, m.content, m.category, m.status, m.importance, m.confidence, m.agent_id::text AS agent_id, m.subject,
          m.terms, m.vector, m.vector_model,
          m.access_count, m.last_accessed, m.created_at, m.updated_at, NULL AS source_event_id, m.message_indices,
          m.job_id, NULL AS se_service, NULL AS se_event_id, m.observed_at AS se_observed_at, NULL AS se_received_at,
          NULL AS se_payload_hash, NULL AS se_scope, NULL AS se_writer_id, NULL AS se_evidence
        FROM universal_memories m
        WHERE m.passport_user_id = ${passportUserId} AND m.status = 'active'`,
  );
  // the stored ranking inputs (written with the memory: pipeline.ts); a row written before they existed is analysed
  // here, a claim with its slot's words ("where does the user live" → "The user moved to Madrid."), as in tenant memory
  return found.map(({ subject, ...row }) =>
    row.terms == null && subject ? { ...row, terms: analyseForIndex(row.content, null, slotWords({ subject })).terms } : row,
  );
}

/** The oldest open passport question whose two claims are both in granted categories. */
async function grantedQuestion(db: Db, passportUserId: string, categories: string[]): Promise<string | null> {
  if (categories.length === 0) return null;
  const list = sql.join(categories.map((c) => sql`${c}`), sql`, `);
  const [r] = await rows<{ question: string }>(
    db,
    sql`SELECT pr.question FROM passport_reviews pr
        JOIN universal_memories a ON a.id = pr.claim_a_id
        JOIN universal_memories b ON b.id = pr.claim_b_id
        WHERE pr.passport_user_id = ${passportUserId} AND pr.status = 'open'
          AND a.category IN (${list}) AND b.category IN (${list})
        ORDER BY pr.created_at LIMIT 1`,
  );
  return r?.question ?? null;
}

export async function retrieveUniversalMemories(
  deps: RetrievalDeps,
  auth: UniversalAgentAuth,
  req: UniversalRetrieveRequest,
  opts: { requestId: string; now?: Date; channel?: AgentReadChannel },
): Promise<UniversalRetrieveResponse> {
  const now = opts.now ?? new Date();
  const categories = grantedCategories(auth.grant);
  const base: UniversalRetrieveResponse = {
    ...emptyRetrieveResponse(opts.requestId, now),
    permission_error: auth.grant ? null : 'no_grant_for_user',
    categories_available: categories as UniversalRetrieveResponse['categories_available'],
  };
  if (categories.length === 0) return base;
  const [user] = await deps.db
    .select({ memoryVersion: passportUsers.memoryVersion })
    .from(passportUsers)
    .where(eq(passportUsers.id, auth.passportUserId));
  if (!user) return base;

  const [{ set, hit }, embedded, question] = await Promise.all([
    deps.hotTier.getOrLoad(hotKey(auth.passportUserId), user.memoryVersion, async () => ({
      rows: await loadActive(deps.db, auth.passportUserId),
      clarificationQuestion: null,
    })),
    embedQuery(deps, req.query),
    grantedQuestion(deps.db, auth.passportUserId, categories),
  ]);
  // rows written before their ranking inputs were stored keep what this load computed (off the request)
  if (!hit) healMissingAnalysis(deps.db, { passportUserId: auth.passportUserId }, set, deps.log);
  const { memoryIndices, data, rendered } = rankAndRender(set, req, { categories }, embedded.vector, now, (row) => ({
    source_event_id: null,
    provenance: universalProvenance(row, auth.agent.id),
  }));

  if (data.length > 0) {
    // Access counts feed nothing else yet; one UPDATE per retrieve keeps them honest without a batch writer.
    await deps.db
      .update(universalMemories)
      .set({ accessCount: sql`${universalMemories.accessCount} + 1`, lastAccessed: now })
      .where(inArray(universalMemories.id, data.map((d) => d.id)));
    deps.hotTier.noteAccess(set, memoryIndices, now);
  }
  // every read with a grant is the user's to see (docs/passport.md, "Access log"), an empty one too
  await recordAgentRead(
    deps.db,
    { passportUserId: auth.passportUserId, agent: auth.agent, kind: 'retrieve', channel: opts.channel ?? 'rest', categories: data.map((d) => d.category) },
    now,
  );
  return {
    ...base,
    data,
    cached: hit,
    memories_from_hot_tier: hit ? data.length : 0,
    is_degraded: embedded.degraded,
    clarification_question: question,
    system_prompt_addition: rendered.text,
    context_token_count: rendered.tokenCount,
  };
}

/** `service: "universal"` and when it was said; the job and message indices only on the caller's own memories. */
function universalProvenance(row: RankableRow, agentId: string): Record<string, unknown> {
  const p: Record<string, unknown> = { service: 'universal' };
  if (row.se_observed_at) p.observed_at = iso(row.se_observed_at);
  if (row.agent_id === agentId) {
    if (row.job_id) p.job_id = row.job_id;
    if (Array.isArray(row.message_indices)) p.message_indices = row.message_indices;
  }
  return p;
}
