/**
 * Retrieval bookkeeping off the hot path: each retrieve queues its retrieval record (for feedback) and the
 * access of the memories it returned in the write-behind buffer (write-behind.ts); a flush writes a batch in one
 * statement every `flushMs`. Access updates are applied in id order, so concurrent flushes from several processes
 * cannot deadlock.
 * A crash loses at most one interval of access counts and retrieval records; `flush()` runs at shutdown
 * and before anything that reads retrievals.
 */
import { type Db, rows, sql } from '@memory/db';
import { type Logger, describeError } from '../logger';
import { WriteBehind } from '../write-behind';

interface RetrievalRecord {
  id: string;
  tenant_id: string;
  user_id: string;
  memory_ids: string[];
  format: string;
  created_at: string;
}

export class ActivityRecorder {
  /** Retrieval records by id; the memories' access counts are derived from them when a batch is written. */
  private readonly buffer: WriteBehind<RetrievalRecord>;

  constructor(
    private readonly db: Db,
    opts: { flushMs: number; maxPending?: number } = { flushMs: 200 },
    private readonly log?: Logger,
  ) {
    const maxPending = opts.maxPending ?? 1000;
    this.buffer = new WriteBehind<RetrievalRecord>({
      flushMs: opts.flushMs,
      merge: (_, newer) => newer,
      isFull: (pending) => pending.size >= maxPending,
      write: (batch) => this.write([...batch.values()]),
      onDropped: (err, batch) => {
        const accesses = new Set([...batch.values()].flatMap((r) => r.memory_ids)).size;
        this.log?.error({ retrievals: batch.size, accesses, ...describeError(err) }, 'activity flush failed');
      },
    });
  }

  record(r: { retrievalId: string; tenantId: string; userId: string; memoryIds: string[]; format: string; at: Date }): void {
    this.buffer.add(r.retrievalId, {
      id: r.retrievalId,
      tenant_id: r.tenantId,
      user_id: r.userId,
      memory_ids: r.memoryIds,
      format: r.format,
      created_at: r.at.toISOString(),
    });
  }

  /** Writes everything queued so far. Safe to call at any time; concurrent calls share one write. */
  flush(): Promise<void> {
    return this.buffer.flush();
  }

  private async write(retrievals: RetrievalRecord[]): Promise<void> {
    // each memory's accesses in the batch, last access time as recorded; applied in id order
    const counted = new Map<string, { n: number; at: string }>();
    for (const r of retrievals) for (const id of r.memory_ids) counted.set(id, { n: (counted.get(id)?.n ?? 0) + 1, at: r.created_at });
    const access = [...counted.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([id, v]) => ({ id, ...v }));
    await rows(
      this.db,
      sql`
      WITH touched AS (
        UPDATE memories m SET
          access_count = m.access_count + v.n,
          last_accessed = greatest(coalesce(m.last_accessed, v.at), v.at)
        FROM (SELECT * FROM jsonb_to_recordset(${JSON.stringify(access)}::jsonb) AS x(id uuid, n int, at timestamptz) ORDER BY id) v
        WHERE m.id = v.id
        RETURNING m.id
      )
      INSERT INTO retrievals (id, tenant_id, user_id, memory_ids, format, created_at)
      SELECT id, tenant_id, user_id, memory_ids, format, created_at
      FROM jsonb_to_recordset(${JSON.stringify(retrievals)}::jsonb)
        AS r(id uuid, tenant_id uuid, user_id uuid, memory_ids jsonb, format text, created_at timestamptz)
      -- a user erased since the retrieve (docs/erasure.md) has nothing to record, and must not fail the batch
      WHERE EXISTS (SELECT 1 FROM end_users u WHERE u.id = r.user_id)`,
    );
  }
}
