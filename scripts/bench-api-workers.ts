/**
 * `npm run bench:api -- --workers`: extraction throughput with 1..n worker processes on PostgreSQL, measured by
 * draining a fixed backlog of add jobs.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import type { DatabaseConfig } from '@memory/db';
import postgres from 'postgres';
import { startServer, startWorker } from '../tests/integration/server';
import { type Flags, fmt, markdownTable } from './bench-lib';
import { seed } from './bench-seed';
import {
  Cleanup,
  Interrupted,
  active,
  checkInterrupted,
  clip,
  headline,
  load,
  log,
  scenarios,
  servers,
  throwawayDatabase,
} from './bench-api-load';

export interface WorkerRun {
  workers: number;
  addRps: number;
  addNon2xx: number;
  /** Extraction jobs finished while the add load ran, per second. */
  jobsPerSecDuring: number;
  /** Jobs waiting or running when the add load stopped. */
  backlogAtEnd: number;
  /** Jobs finished per second from the end of the load until the backlog was empty (or the 180 s cap). */
  jobsPerSecAfter: number;
  drainS: number;
  drained: boolean;
  messagesPerJob: number;
  /** Cores the whole machine kept busy during the drain (workers, PostgreSQL, everything else), of `cores`; null off Linux. */
  busyCoresAfter: number | null;
  cores: number;
  error?: string;
}

/** The machine's busy and total CPU time since boot in clock ticks (/proc/stat), or null where there is none. */
function cpuTicks(): { busy: number; total: number } | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0];
    const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
    const busy = user + nice + system + irq + softirq + steal;
    return { busy, total: busy + idle + iowait };
  } catch {
    return null;
  }
}

export async function benchWorkers(workers: number, flags: Flags): Promise<WorkerRun> {
  const cleanup = new Cleanup();
  active.add(cleanup);
  const run: WorkerRun = { workers, addRps: 0, addNon2xx: 0, jobsPerSecDuring: 0, backlogAtEnd: 0, jobsPerSecAfter: 0, drainS: 0, drained: false, messagesPerJob: 0, busyCoresAfter: null, cores: os.cpus().length };
  try {
    const dbUrl = await throwawayDatabase('memory_bench_workers', flags, cleanup);
    const config: DatabaseConfig = { kind: 'postgres', url: dbUrl };
    const seeded = await seed(config, 1, checkInterrupted);
    const env: Record<string, string> = {
      MEMORY_LOG_LEVEL: 'error',
      NEXT_TELEMETRY_DISABLED: '1',
      MEMORY_JOB_MODE: 'embedded',
      MEMORY_JOB_POLL_MS: '500',
      INNGEST_EVENT_KEY: '',
      DATABASE_URL: dbUrl,
    };
    const server = await startServer('postgres', { ...env, MEMORY_EMBEDDED_WORKER: 'false' });
    servers.add(server);
    cleanup.add('stop server', async () => {
      await server.stop('SIGTERM');
      servers.delete(server);
    });
    for (let i = 0; i < workers; i++) {
      const { process: child } = await startWorker(env);
      cleanup.add('stop worker', async () => {
        if (child.exitCode !== null) return;
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        const t = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(t);
      });
    }
    const sql = postgres(dbUrl, { max: 1, onnotice: () => {} });
    cleanup.add('close counter connection', () => sql.end({ timeout: 5 }));
    const counts = async () => {
      const [r] = await sql<{ done: string; backlog: string; messages: string | null }[]>`
        SELECT count(*) FILTER (WHERE j.status IN ('completed', 'processed', 'failed', 'dead')) AS done,
               count(*) FILTER (WHERE j.status IN ('queued', 'running')) AS backlog,
               sum(jsonb_array_length(e.payload->'messages')) AS messages
        FROM extraction_jobs j JOIN source_events e ON e.id = j.source_event_id`;
      return { done: Number(r.done), backlog: Number(r.backlog), messages: Number(r.messages ?? 0), at: performance.now() };
    };
    const add = scenarios(server.baseUrl, seeded.apiKey, `workers-${workers}-${Date.now()}`).find((x) => x.name === 'add')!;
    log(`[workers ${workers}] add load: ${flags.duration} s × ${flags.connections} connections, web server runs no jobs…`);
    const c0 = await counts();
    const { result } = await load(server.baseUrl, add, { connections: flags.connections, duration: flags.duration });
    const c1 = await counts();
    const ticks1 = cpuTicks();
    run.addRps = result['2xx'] / result.duration;
    run.addNon2xx = result.non2xx + result.errors + result.timeouts;
    run.jobsPerSecDuring = (c1.done - c0.done) / ((c1.at - c0.at) / 1000);
    run.backlogAtEnd = c1.backlog;
    let c2 = c1;
    while (c2.backlog > 0 && c2.at - c1.at < 180_000) {
      checkInterrupted();
      await new Promise((r) => setTimeout(r, 250));
      c2 = await counts();
    }
    const ticks2 = cpuTicks();
    if (ticks1 && ticks2 && ticks2.total > ticks1.total) run.busyCoresAfter = ((ticks2.busy - ticks1.busy) / (ticks2.total - ticks1.total)) * run.cores;
    run.drained = c2.backlog === 0;
    run.drainS = (c2.at - c1.at) / 1000;
    run.jobsPerSecAfter = run.drainS > 0 ? (c2.done - c1.done) / run.drainS : 0;
    run.messagesPerJob = c2.done + c2.backlog > 0 ? c2.messages / (c2.done + c2.backlog) : 0;
    log(
      `[workers ${workers}] adds ${fmt(run.addRps, 0)}/s; jobs ${fmt(run.jobsPerSecDuring, 1)}/s during, backlog ${run.backlogAtEnd} at the end, ` +
        `${fmt(run.jobsPerSecAfter, 1)}/s after (${run.drained ? 'drained' : 'NOT drained'} in ${fmt(run.drainS, 1)} s, ` +
        `${run.busyCoresAfter === null ? '?' : fmt(run.busyCoresAfter, 2)} of ${run.cores} cores busy)`,
    );
  } catch (err) {
    if (err instanceof Interrupted) throw err;
    run.error = clip(err instanceof Error ? err.message : String(err));
    console.error(`[workers ${workers}] FAILED: ${run.error}`);
  } finally {
    await cleanup.run();
    active.delete(cleanup);
  }
  return run;
}

export function workersTable(runs: WorkerRun[]): string {
  return markdownTable(
    ['Worker processes', 'adds/s', 'jobs/s during the load', 'backlog at its end', 'jobs/s after it (drain)', 'drain s', 'messages/s after', 'vs 1 worker (after)', 'cores busy in the drain (machine)'],
    runs.map((r) => {
      const one = runs.find((x) => x.workers === 1);
      return r.error
        ? [String(r.workers), `failed: ${headline(r.error).slice(0, 80)}`, '', '', '', '', '', '', '']
        : [
            String(r.workers),
            fmt(r.addRps, 0),
            fmt(r.jobsPerSecDuring, 1),
            String(r.backlogAtEnd),
            fmt(r.jobsPerSecAfter, 1),
            `${fmt(r.drainS, 1)}${r.drained ? '' : ' (cap)'}`,
            fmt(r.jobsPerSecAfter * r.messagesPerJob, 0),
            one && one.jobsPerSecAfter > 0 ? `${fmt(r.jobsPerSecAfter / one.jobsPerSecAfter, 2)}×` : '',
            r.busyCoresAfter === null ? '' : `${fmt(r.busyCoresAfter, 2)} of ${r.cores}`,
          ];
    }),
    [true, true, true, true, true, true, true, true, true],
  );
}
