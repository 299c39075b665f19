/**
 * The erasure plan (docs/erasure.md): every place an end user's data lands, one step per kind, run in order in
 * the erasure's transaction. Each step deletes its rows and returns their ids (or, for rows without an id of
 * their own, a SHA-256 that stands for the row), which the receipt counts and hashes. A later step may use what
 * an earlier one erased (idempotency records are found through the user's source events and feedback).
 *
 * Adding a table that holds user data: add a step here (its kind goes into every receipt). plan.test.ts fails
 * while a table with a `user_id` or `external_user_id` column is named by no step, and tests/integration/
 * erasure.test.ts searches every text and JSON column of the database for the erased user's strings.
 */
import { type Db, type SQL, rows, sql } from '@memory/db';
import { sha256Hex } from '../crypto';
import { userWriteKey } from '../quota/rate-limit';

export interface ErasureTarget {
  tenantId: string;
  externalUserId: string;
  /** The end_users row, locked by the erasure; null when the tenant holds no row for this id (any more). */
  userId: string | null;
}

/** What the earlier steps erased, by kind. */
export type Erased = ReadonlyMap<string, readonly string[]>;

export interface ErasureStep {
  /** The kind in the receipt's `counts`. */
  kind: string;
  /** The tables the step removes rows from (plan.test.ts checks every user table is named). */
  tables: readonly string[];
  erase(tx: Db, target: ErasureTarget, erased: Erased): Promise<string[]>;
}

/** A list of ids as one parameter, usable as `x IN (SELECT …)` on both engines. */
const idList = (ids: readonly string[]): SQL => sql`(SELECT jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))`;

const ids = async (tx: Db, query: SQL): Promise<string[]> => (await rows<{ id: string }>(tx, query)).map((r) => String(r.id));

/** A step removing the user's rows of a table that has `tenant_id` and `user_id`. */
function userRows(kind: string, table: string): ErasureStep {
  return {
    kind,
    tables: [table],
    erase: (tx, t) =>
      t.userId === null
        ? Promise.resolve([])
        : ids(tx, sql`DELETE FROM ${sql.identifier(table)} WHERE tenant_id = ${t.tenantId} AND user_id = ${t.userId} RETURNING id`),
  };
}

const erasedOf = (erased: Erased, kind: string): readonly string[] => erased.get(kind) ?? [];

export const ERASURE_PLAN: readonly ErasureStep[] = [
  // Jobs first: a job row that is gone cannot be claimed again, and a running job's writes fail on the missing
  // user (every row it writes references end_users), so a job finishing later cannot bring anything back.
  userRows('jobs', 'extraction_jobs'),
  userRows('retrieval_feedback', 'retrieval_feedback'),
  userRows('retrievals', 'retrievals'),
  userRows('reviews', 'reviews'),
  userRows('claim_revisions', 'claim_revisions'),
  userRows('pending_candidates', 'pending_candidates'),
  userRows('entity_relationships', 'entity_relationships'),
  // memory_entities rows go with their entities and memories (ON DELETE CASCADE); they hold ids only
  { ...userRows('entities', 'entities'), tables: ['entities', 'memory_entities'] },
  userRows('passages', 'passages'),
  userRows('memories', 'memories'),
  {
    // Saved Idempotency-Key answers: an add's is the source event's `add_response` (same request id), a feedback's
    // names its feedback id. Their rows have no id of their own: the SHA-256 of the key's scope stands for each.
    kind: 'idempotency_records',
    tables: ['idempotency_keys'],
    async erase(tx, t, erased) {
      if (t.userId === null) return [];
      const feedback = erasedOf(erased, 'retrieval_feedback');
      const removed = await rows<{ api_key_id: string; method: string; path: string; key: string }>(
        tx,
        sql`DELETE FROM idempotency_keys
            WHERE tenant_id = ${t.tenantId}
              AND (response_body->>'request_id' IN (
                     SELECT add_response->>'request_id' FROM source_events
                     WHERE tenant_id = ${t.tenantId} AND user_id = ${t.userId} AND add_response IS NOT NULL)
                   OR response_body->'data'->>'feedback_id' IN ${idList(feedback)})
            RETURNING api_key_id, method, path, key`,
      );
      return removed.map((r) => sha256Hex(`${r.api_key_id}\n${r.method}\n${r.path}\n${r.key}`));
    },
  },
  userRows('source_events', 'source_events'),
  {
    // The outbox: events that name the user, or a job, memory or review of theirs; their deliveries go with them.
    kind: 'webhook_events',
    tables: ['webhook_events', 'webhook_deliveries'],
    erase(tx, t, erased) {
      return ids(
        tx,
        sql`DELETE FROM webhook_events
            WHERE tenant_id = ${t.tenantId}
              AND (payload->'data'->>'external_user_id' = ${t.externalUserId}
                   OR payload->'data'->>'job_id' IN ${idList(erasedOf(erased, 'jobs'))}
                   OR payload->'data'->>'memory_id' IN ${idList(erasedOf(erased, 'memories'))}
                   OR payload->'data'->>'review_id' IN ${idList(erasedOf(erased, 'reviews'))})
            RETURNING id`,
      );
    },
  },
  {
    // The passport links made from this tenant user (the passport user, their grants and universal memories are
    // the person's own and stay: docs/erasure.md).
    kind: 'passport_connections',
    tables: ['passport_connections'],
    erase: (tx, t) =>
      ids(tx, sql`DELETE FROM passport_connections WHERE tenant_id = ${t.tenantId} AND external_user_id = ${t.externalUserId} RETURNING id`),
  },
  {
    kind: 'link_tokens',
    tables: ['link_tokens'],
    erase: (tx, t) => ids(tx, sql`DELETE FROM link_tokens WHERE tenant_id = ${t.tenantId} AND external_user_id = ${t.externalUserId} RETURNING id`),
  },
  {
    // The write-rate counter's key holds the external id (Redis counters expire on their own: docs/erasure.md).
    kind: 'rate_limit_counters',
    tables: ['rate_limit_counters'],
    async erase(tx, t) {
      const key = userWriteKey(t.tenantId, t.externalUserId);
      const removed = await rows<{ key: string }>(tx, sql`DELETE FROM rate_limit_counters WHERE key = ${key} RETURNING key`);
      return removed.map((r) => sha256Hex(r.key));
    },
  },
  {
    // Last: the row itself. ON DELETE CASCADE removes anything a step above does not name yet.
    kind: 'end_user',
    tables: ['end_users'],
    erase: (tx, t) =>
      t.userId === null ? Promise.resolve([]) : ids(tx, sql`DELETE FROM end_users WHERE tenant_id = ${t.tenantId} AND id = ${t.userId} RETURNING id`),
  },
];
