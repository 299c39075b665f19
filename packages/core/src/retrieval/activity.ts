/**
 * Retrieval bookkeeping off the hot path: each retrieve queues its retrieval record (for feedback) and the
 * access of the memories it returned; a flush writes a batch in one statement every `flushMs`. Access
 * updates are applied in id order, so concurrent flushes from several processes cannot deadlock.
 * A crash loses at most one interval of access counts and retrieval records; `flush()` runs at shutdown
 * and before anything that reads retrievals.
 */
import { type Db, rows, sql } from '@memory/db';
import { type Logger, describeError } from '../logger';

interface RetrievalRecord {
  id: string;
  tenant_id: string;
  user_id: string;
  memory_ids: string[];
  format: string;
  created_at: string;
}

export class ActivityRecorder {
  private retrievals: RetrievalRecord[] = [];
  private access = new Map<string, { n: number; at: string }>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    private readonly opts: { flushMs: number; maxPending?: number } = { flushMs: 200 },
    private readonly log?: Logger,
  ) {}

  record(r: { retrievalId: string; tenantId: string; userId: string; memoryIds: string[]; format: string; at: Date }): void {
    const at = r.at.toISOString();
    this.retrievals.push({
      id: r.retrievalId,
      tenant_id: r.tenantId,
      user_id: r.userId,
      memory_ids: r.memoryIds,
      format: r.format,
      created_at: at,
    });
    for (const id of r.memoryIds) {
      const prev = this.access.get(id);
      this.access.set(id, { n: (prev?.n ?? 0) + 1, at });
    }
    if (this.retrievals.length >= (this.opts.maxPending ?? 1000)) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.opts.flushMs);
  }

  /** Writes everything queued so far. Safe to call at any time; concurrent calls share one write. */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    while (this.flushing) await this.flushing;
    if (this.retrievals.length === 0 && this.access.size === 0) return;
    const retrievals = this.retrievals;
    const access = [...this.access.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([id, v]) => ({ id, ...v }));
    this.retrievals = [];
    this.access = new Map();
    this.flushing = this.write(retrievals, access).finally(() => {
      this.flushing = null;
    });
    await this.flushing;
  }

  private async write(retrievals: RetrievalRecord[], access: { id: string; n: number; at: string }[]): Promise<void> {
    try {
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
          AS r(id uuid, tenant_id uuid, user_id uuid, memory_ids jsonb, format text, created_at timestamptz)`,
      );
    } catch (err) {
      this.log?.error({ retrievals: retrievals.length, accesses: access.length, ...describeError(err) }, 'activity flush failed');
    }
  }
}
