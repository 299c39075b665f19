/**
 * Backlog health (docs/quotas.md, Backlog): how long a new extraction job will wait, from the queue depth and the
 * measured processing rate. Sampled from the job table (shared by every process) at most once per `sampleMs`, so
 * an add costs no extra query most of the time.
 */
import { type Db, rows, sql } from '@memory/db';

export interface BacklogSample {
  /** Extraction jobs queued or running (due or waiting for a retry). */
  depth: number;
  /** Jobs that finished (any end state) within the rate window. */
  finishedInWindow: number;
  /**
   * The seconds those jobs were measured over: the rate window, shortened to the time since the first of them
   * started (at least MIN_RATE_SECONDS), so a service that has just started, or was idle, is not measured over
   * time in which it had no work.
   */
  rateWindowSeconds: number;
  /** Seconds the oldest queued job has been waiting past its due time (0 without one). */
  oldestWaitSeconds: number;
}

export interface BacklogHealth {
  processing_status: 'normal' | 'delayed';
  processing_eta_seconds: number | null;
}

export const MIN_RATE_SECONDS = 10;

export const NORMAL: BacklogHealth = { processing_status: 'normal', processing_eta_seconds: null };

/**
 * ETA = depth / rate, rate = jobs finished in the window / window length. `delayed` when the ETA is over the
 * threshold. With no finished job in the window there is no rate to divide by: then the backlog is `delayed`
 * only when the oldest queued job has already waited longer than the threshold, and the ETA is null (unknown).
 */
export function estimateBacklog(s: BacklogSample, thresholdSeconds: number): BacklogHealth {
  if (s.depth === 0) return NORMAL;
  if (s.finishedInWindow > 0) {
    const eta = Math.ceil(s.depth / (s.finishedInWindow / s.rateWindowSeconds));
    return eta > thresholdSeconds ? { processing_status: 'delayed', processing_eta_seconds: eta } : NORMAL;
  }
  return s.oldestWaitSeconds > thresholdSeconds ? { processing_status: 'delayed', processing_eta_seconds: null } : NORMAL;
}

export async function sampleBacklog(db: Db, rateWindowSeconds: number, now: Date): Promise<BacklogSample> {
  const since = new Date(now.getTime() - rateWindowSeconds * 1000).toISOString();
  const [r] = await rows<{ depth: number; finished: number; first_start: string | Date | null; oldest: string | Date | null }>(
    db,
    sql`SELECT
          (SELECT count(*) FROM extraction_jobs WHERE status IN ('queued', 'running'))::int AS depth,
          f.finished, f.first_start,
          (SELECT min(run_after) FROM extraction_jobs WHERE status = 'queued' AND run_after <= ${now.toISOString()}::timestamptz) AS oldest
        FROM (SELECT count(*)::int AS finished, min(coalesce(started_at, finished_at)) AS first_start
              -- a direct write's job never waited in the queue: it says nothing of the extraction rate
              FROM extraction_jobs WHERE finished_at > ${since}::timestamptz AND kind <> 'direct') f`,
  );
  const oldest = r?.oldest ? new Date(r.oldest).getTime() : null;
  const firstStart = r?.first_start ? new Date(r.first_start).getTime() : null;
  const measured = firstStart === null ? rateWindowSeconds : (now.getTime() - firstStart) / 1000;
  return {
    depth: Number(r?.depth ?? 0),
    finishedInWindow: Number(r?.finished ?? 0),
    rateWindowSeconds: Math.min(rateWindowSeconds, Math.max(MIN_RATE_SECONDS, measured)),
    oldestWaitSeconds: oldest === null ? 0 : Math.max(0, Math.floor((now.getTime() - oldest) / 1000)),
  };
}

export class BacklogMonitor {
  private cached: { at: number; health: BacklogHealth } | null = null;
  private pending: Promise<BacklogHealth> | null = null;

  constructor(
    private readonly db: Db,
    readonly opts: { thresholdSeconds: number; rateWindowSeconds: number; sampleMs: number },
  ) {}

  async health(now = new Date()): Promise<BacklogHealth> {
    if (this.cached && now.getTime() - this.cached.at < this.opts.sampleMs) return this.cached.health;
    // Concurrent adds share one sample.
    this.pending ??= sampleBacklog(this.db, this.opts.rateWindowSeconds, now)
      .then((s) => {
        const health = estimateBacklog(s, this.opts.thresholdSeconds);
        this.cached = { at: now.getTime(), health };
        return health;
      })
      .finally(() => {
        this.pending = null;
      });
    return this.pending;
  }
}
