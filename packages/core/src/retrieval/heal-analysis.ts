/**
 * Rows without their stored ranking inputs (`terms`, `vector`, `vector_model`: text/analysis.ts) — written before
 * the columns existed, or straight into the tables by an import — are analysed at every load of their user's set
 * (candidate-index.ts `buildIndex`), which is what made a cold retrieve slow. The first load that analyses them
 * stores what it computed, in the background, so later loads (in any process) parse it instead. Nothing is computed
 * again: the stems and the offline vector are taken from the index the load just built. The stored values are the
 * ones the load used, so no ranking changes and the user's memory version is not bumped. A passport user's
 * universal memories are healed the same way (universal/retrieve.ts).
 */
import { type Db, type SQL, rows, sql } from '@memory/db';
import type { Logger } from '../logger';
import { OFFLINE_VECTOR_MODEL, encodeVector } from '../text/analysis';
import type { CandidateIndex } from './candidate-index';
import type { HotUserSet } from './hot-tier';

/** At most this many rows are stored by one heal; the rest on the next load. */
export const ANALYSIS_HEAL_MAX = 5_000;
/** Rows per UPDATE statement (five parameters each). */
const STATEMENT_ROWS = 500;

interface Healed {
  id: string;
  /** The text the analysis is of: a row whose text changed since it was loaded is left alone. */
  content: string;
  terms: string;
  /** Where the load's offline vector is (encoded only when stored, off the request). */
  idx: CandidateIndex;
  at: number;
}

/** Whose rows a heal stores: a tenant's end user (memories and passages) or a passport user (universal memories). */
export type HealTarget = { tenantId: string; userId: string } | { passportUserId: string };

const healing = new Set<string>();

/** What the stored columns of item `i` should hold, or null when they already hold it. */
function healOf(
  idx: CandidateIndex,
  i: number,
  row: { id: string; content: string; terms?: string | null; vector_model?: string | null },
  terms: string,
): Healed | null {
  const { columns } = idx;
  const vectorMissing = columns.dims > 0 && columns.hasVector[i] === 1 && row.vector_model !== OFFLINE_VECTOR_MODEL;
  return row.terms != null && !vectorMissing ? null : { id: row.id, content: row.content, terms, idx, at: i };
}

/** The load's offline vector of a row to heal, as stored (null: it has none). */
function vectorOf({ idx, at }: Healed): string | null {
  const { dims, hasVector, vectors } = idx.columns;
  return dims > 0 && hasVector[at] === 1 ? encodeVector(vectors.subarray(at * dims, (at + 1) * dims)) : null;
}

/** The memories and passages of a freshly built set whose stored analysis is missing, with what to store. */
export function missingAnalysis(set: Pick<HotUserSet, 'rows' | 'index' | 'passages' | 'passageIndex'>): { memories: Healed[]; passages: Healed[] } {
  const memories: Healed[] = [];
  set.rows.forEach((r, i) => {
    const h = healOf(set.index, i, r, set.index.memories[i].terms);
    if (h) memories.push(h);
  });
  const passages: Healed[] = [];
  if (set.passageIndex) {
    const idx = set.passageIndex;
    set.passages.forEach((p, i) => {
      // a passage's index terms end with the stems of the history it stands for (hot-tier.ts): not its own
      const indexed = idx.memories[i].terms;
      const own = p.history_terms ? indexed.slice(0, indexed.length - p.history_terms.length - 1) : indexed;
      const h = healOf(idx, i, p, own);
      if (h) passages.push(h);
    });
  }
  return { memories, passages };
}

/**
 * Stores the analysis a load computed for the rows of `set` that had none, off the request (the caller does not
 * wait; one heal per user at a time in this process). A row edited meanwhile was analysed by its edit and is left
 * alone. Returns the heal's promise (rows stored), for tests; null when there is nothing to store.
 */
export function healMissingAnalysis(
  db: Db,
  user: HealTarget,
  set: Pick<HotUserSet, 'rows' | 'index' | 'passages' | 'passageIndex'>,
  log?: Logger,
): Promise<number> | null {
  const passport = 'passportUserId' in user;
  const key = passport ? `passport:${user.passportUserId}` : user.userId;
  if (healing.has(key)) return null;
  const missing = missingAnalysis(set);
  if (missing.memories.length + missing.passages.length === 0) return null;
  healing.add(key);
  const scope = passport ? sql`t.passport_user_id = ${user.passportUserId}` : sql`t.tenant_id = ${user.tenantId}`;
  const memories = missing.memories.slice(0, ANALYSIS_HEAL_MAX);
  const passages = missing.passages.slice(0, Math.max(0, ANALYSIS_HEAL_MAX - memories.length));
  return (async () => {
    // the vectors are encoded here, after the request that loaded the set has gone on
    await new Promise((resolve) => setImmediate(resolve));
    let stored = 0;
    const tables = passport ? ([['universal_memories', memories]] as const) : ([['memories', memories], ['passages', passages]] as const);
    for (const [table, list] of tables) {
      for (let i = 0; i < list.length; i += STATEMENT_ROWS) stored += await storeAnalysis(db, table, scope, list.slice(i, i + STATEMENT_ROWS));
    }
    return stored;
  })()
    .catch((err: unknown) => {
      log?.warn({ err_name: (err as Error).name }, 'storing the analysis of rows loaded without it failed; they are analysed again at the next load');
      return 0;
    })
    .finally(() => healing.delete(key));
}

async function storeAnalysis(db: Db, table: 'memories' | 'passages' | 'universal_memories', scope: SQL, list: readonly Healed[]): Promise<number> {
  if (list.length === 0) return 0;
  const values = sql.join(
    list.map((h) => {
      const vector = vectorOf(h);
      return sql`(${h.id}::uuid, ${h.content}, ${h.terms}, ${vector}, ${vector === null ? null : OFFLINE_VECTOR_MODEL})`;
    }),
    sql`, `,
  );
  const updated = await rows<{ id: string }>(
    db,
    sql`
    UPDATE ${sql.raw(table)} AS t
    SET terms = v.terms,
        vector = COALESCE(v.vector, t.vector),
        vector_model = COALESCE(v.vector_model, t.vector_model)
    FROM (VALUES ${values}) AS v(id, content, terms, vector, vector_model)
    WHERE ${scope} AND t.id = v.id AND t.content = v.content
      AND (t.terms IS NULL OR (v.vector IS NOT NULL AND t.vector_model IS DISTINCT FROM v.vector_model))
    RETURNING t.id`,
  );
  return updated.length;
}
