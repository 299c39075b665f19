/**
 * Readiness (GET /v1/health/ready, docs/operations.md): whether this process can serve requests now — the
 * database answers, and what the job runner and the extraction backlog look like. `GET /v1/health` stays a
 * liveness probe that touches nothing.
 */
import { type Db, sql } from '@memory/db';
import type { ExtractionThreads } from './jobs/threads';
import { sampleBacklog, estimateBacklog } from './quota/backlog';
import type { readiness } from './schemas/responses';
import type { z } from 'zod';

/** The body of GET /v1/health/ready; its schema (schemas/responses.ts) is what the OpenAPI document shows. */
export type Readiness = z.infer<typeof readiness>;

/** How long the database check waits before it calls the database unavailable. */
export const READINESS_TIMEOUT_MS = 2_000;

export async function checkReadiness(deps: {
  db: Db;
  engine: 'postgres' | 'pglite';
  jobMode: 'embedded' | 'inngest';
  runnerRunning: boolean;
  threads?: Pick<ExtractionThreads, 'size' | 'stats'> | null;
  backlog: { thresholdSeconds: number; rateWindowSeconds: number };
  timeoutMs?: number;
  now?: Date;
}): Promise<Readiness> {
  const runner = deps.jobMode === 'inngest' ? 'inngest' : deps.runnerRunning ? 'running' : 'off';
  const counts = deps.threads?.stats();
  const threads = deps.threads && counts ? { size: deps.threads.size, started: counts.starts, calls: counts.calls, failures: counts.failures } : null;
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('readiness check timed out')), deps.timeoutMs ?? READINESS_TIMEOUT_MS);
  });
  try {
    await Promise.race([deps.db.execute(sql`SELECT 1`), timeout]);
    const latency = Math.round(performance.now() - started);
    const sample = await Promise.race([sampleBacklog(deps.db, deps.backlog.rateWindowSeconds, deps.now ?? new Date()), timeout]);
    return {
      status: 'ready',
      database: { status: 'ok', engine: deps.engine, latency_ms: latency },
      jobs: {
        mode: deps.jobMode,
        runner,
        backlog: { depth: sample.depth, oldest_wait_seconds: sample.oldestWaitSeconds, ...estimateBacklog(sample, deps.backlog.thresholdSeconds) },
        threads,
      },
    };
  } catch {
    return {
      status: 'not_ready',
      database: { status: 'unavailable', engine: deps.engine, latency_ms: null },
      jobs: { mode: deps.jobMode, runner, backlog: null, threads },
    };
  } finally {
    clearTimeout(timer);
  }
}
