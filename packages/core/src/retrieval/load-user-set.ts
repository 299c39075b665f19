/**
 * Reading one user's set for the hot tier (retrieve.ts): the active memories, the passages of the evidence
 * layer with what superseded their claims, and their source events, in statements run at once.
 */
import { type Db, rows, sql } from '@memory/db';
import { MEMORY_COLUMNS, SOURCE_EVENT_COLUMNS } from '../memories/serialize';
import { openQuestion } from '../conflicts/reviews';
import { messageKey } from './candidate-index';
import { type EventColumns, NO_EVENT, type PassageRow, type RankableRow } from './hot-tier';

/** The columns of a source event that ranking rows carry, with its id to join on. */
const EVENT_SELECT = sql.raw(`se.id, ${SOURCE_EVENT_COLUMNS}, se.evidence AS se_evidence`);

/**
 * The source events of the user's memories and passages, by id: read once per load and joined in process,
 * since joining them in SQL repeats the same seven columns on every one of ~1,000 rows (on PGlite, converting
 * those values was most of a cold load). Events of another user that a row cites are read by id.
 */
async function loadSourceEvents(db: Db, tenantId: string, userId: string): Promise<Map<string, EventColumns>> {
  const found = await rows<EventColumns & { id: string }>(
    db,
    sql`SELECT ${EVENT_SELECT} FROM source_events se WHERE se.tenant_id = ${tenantId} AND se.user_id = ${userId}`,
  );
  return new Map(found.map(({ id, ...columns }) => [id, columns]));
}

/** Reads, by id, the events that rows cite and that are not among the user's into `events`. */
async function readMissingEvents(db: Db, tenantId: string, events: Map<string, EventColumns>, ...cited: (readonly { source_event_id: string | null }[])[]): Promise<void> {
  const missing = new Set<string>();
  for (const group of cited) for (const r of group) if (r.source_event_id !== null && !events.has(r.source_event_id)) missing.add(r.source_event_id);
  if (missing.size > 0) {
    const more = await rows<EventColumns & { id: string }>(
      db,
      sql`SELECT ${EVENT_SELECT} FROM source_events se
          WHERE se.tenant_id = ${tenantId} AND se.id IN (${sql.join(
            [...missing].map((id) => sql`${id}`),
            sql`, `,
          )})`,
    );
    for (const { id, ...columns } of more) events.set(id, columns);
  }
}

/** Gives every memory its source event's columns (its provenance is built from the row alone, retrieve.ts). */
function attachSourceEvents<T extends { source_event_id: string | null }>(events: ReadonlyMap<string, EventColumns>, rowsToFill: T[]): (T & EventColumns)[] {
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
 * Its two timestamps are read as milliseconds: a Date parsed per value was a measurable part of a cold load.
 */
async function loadPassages(db: Db, tenantId: string, userId: string): Promise<PassageRow[]> {
  const [all, retired] = await Promise.all([
    rows<PassageRow>(
      db,
      sql`SELECT p.id, p.source_event_id, p.job_id, p.agent_id, p.message_index, p.part, p.role, p.speaker, p.content,
            floor(extract(epoch FROM p.observed_at) * 1000)::float8 AS observed_at,
            floor(extract(epoch FROM p.created_at) * 1000)::float8 AS created_at, p.terms, p.vector, p.vector_model
          FROM passages p WHERE p.tenant_id = ${tenantId} AND p.user_id = ${userId}`,
    ),
    rows<{ id: string; superseded_by: string | null; source_event_id: string; message_indices: unknown; superseded: boolean; terms: string | null }>(
      db,
      // history: superseded in a conflict by a claim observed later, not by the user's correction or a review
      sql`SELECT m.id, m.superseded_by, m.source_event_id, m.message_indices, m.terms,
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
  // message -> the memories now current in their place -> the stems of the claims each replaced there
  const current = new Map<string, Map<string, string>>();
  const next = new Map(retired.map((r) => [r.id, r.superseded_by]));
  for (const r of retired) {
    if (!Array.isArray(r.message_indices)) continue;
    const now = r.superseded ? currentOf(r.superseded_by, next) : null;
    for (const i of r.message_indices) {
      const k = messageKey(r.source_event_id, i);
      if (!r.superseded) {
        gone.add(k);
        continue;
      }
      older.set(k, [older.get(k), r.terms].filter(Boolean).join(' '));
      if (now) {
        const here = current.get(k) ?? new Map<string, string>();
        here.set(now, [here.get(now), r.terms].filter(Boolean).join(' '));
        current.set(k, here);
      }
    }
  }
  const kept: PassageRow[] = [];
  for (const p of all) {
    const k = messageKey(p.source_event_id, p.message_index);
    if (gone.has(k)) continue;
    const history = older.get(k);
    const now = current.get(k);
    kept.push(history === undefined ? p : { ...p, superseded: true, ...(history ? { history_terms: history } : {}), ...(now ? { current: [...now].map(([id, replaced]) => ({ id, replaced })) } : {}) });
  }
  return kept;
}

/**
 * The end of a chain of supersessions (Lisbon → Porto → Berlin: Berlin): follows `superseded_by` through the
 * retired memories; the last id is not retired (an active memory, or one since erased, which no lookup finds).
 */
export function currentOf(id: string | null, next: ReadonlyMap<string, string | null>): string | null {
  const seen = new Set<string>();
  while (id && next.has(id) && !seen.has(id)) {
    seen.add(id);
    id = next.get(id) ?? null;
  }
  return id && !next.has(id) ? id : null;
}

/** A user's set as the hot tier holds it, read in statements run at once, with its source events by id. */
export async function loadUserSet(db: Db, tenantId: string, userId: string, withEmbeddings: boolean) {
  // at once: on PostgreSQL each read takes its own pooled connection
  const [memoryRows, passageRows, events, clarificationQuestion] = await Promise.all([
    loadActiveMemories(db, tenantId, userId, withEmbeddings),
    loadPassages(db, tenantId, userId),
    loadSourceEvents(db, tenantId, userId),
    openQuestion(db, tenantId, userId),
  ]);
  await readMissingEvents(db, tenantId, events, memoryRows, passageRows);
  // a passage's event columns are looked up when it is returned (retrieve.ts): copying them onto each of
  // ~1,000 passages was a measurable part of a cold load
  return { rows: attachSourceEvents(events, memoryRows as RankableRow[]), passages: passageRows, events, clarificationQuestion };
}
