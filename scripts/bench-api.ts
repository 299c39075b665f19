/**
 * `npm run bench:api`: HTTP benchmark of the built app (`npm start`: apps/web/server.ts) on PGlite and PostgreSQL.
 *
 * For every engine × size: seed a fresh database (before the server starts: PGlite allows one process
 * per data directory) with one tenant, one end user, one source event and N memories; start the server;
 * then run, one after another with the same number of connections,
 *   bare      GET  /v1/health                (constant JSON, no database: the framework's ceiling;
 *                                            measured before, between and after the loaded scenarios)
 *   retrieve  POST /v1/memories/retrieve     (~20 different queries, limit 10, for the seeded user)
 *   add       POST /v1/memories/add          (varied conversations for 200 users; the embedded worker stays on)
 * and report requests/s, p50/p95/p99 latency and the share of bare throughput. Only 127.0.0.1 is contacted.
 *
 * Results: <out>/api-<timestamp>.json and .md (default bench/results).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { DatabaseConfig } from '@memory/db';
import postgres from 'postgres';
import { ROOT, type RunningServer, startServer, startWorker } from '../tests/integration/server';
import {
  ADD_USERS,
  BENCH_USER,
  type Flags,
  HelpRequested,
  RETRIEVE_QUERIES,
  USAGE,
  addConversation,
  fmt,
  jobSummary,
  markdownTable,
  parseFlags,
  percentile,
  rng,
  seed,
} from './bench-lib';

// ---------------------------------------------------------------------------------------------------------
// autocannon (CommonJS, no bundled types): the small part of its API used here
// ---------------------------------------------------------------------------------------------------------

interface AcRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (req: AcRequest, context: Record<string, unknown>) => AcRequest;
}
interface AcOptions {
  url: string;
  connections: number;
  duration?: number;
  amount?: number;
  timeout?: number;
  requests?: AcRequest[];
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}
interface AcResult {
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  resets: number;
  mismatches: number;
  '2xx': number;
  statusCodeStats: Record<string, { count: number }>;
  latency: Record<string, number>;
  requests: { average: number; total: number; sent: number };
}
interface AcInstance {
  on(event: 'response', cb: (client: unknown, status: number, bytes: number, ms: number) => void): void;
  on(event: 'reqError', cb: (err: Error) => void): void;
  stop(): void;
}
type Autocannon = (opts: AcOptions, cb: (err: Error | null, result: AcResult) => void) => AcInstance;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

// ---------------------------------------------------------------------------------------------------------
// Clean-up that survives errors and Ctrl-C
// ---------------------------------------------------------------------------------------------------------

type CleanupFn = () => unknown | Promise<unknown>;

/** A stack of clean-up steps, each run at most once, in reverse order, whoever asks first (finally or a signal). */
class Cleanup {
  private steps: Array<{ label: string; fn: CleanupFn }> = [];
  private running: Promise<void> | null = null;
  add(label: string, fn: CleanupFn) {
    this.steps.push({ label, fn });
  }
  run(): Promise<void> {
    this.running ??= (async () => {
      while (this.steps.length) {
        const { label, fn } = this.steps.pop()!;
        try {
          await fn();
        } catch (err) {
          console.error(`  clean-up "${label}" failed: ${(err as Error).message}`);
        }
      }
    })();
    return this.running;
  }
}

const active = new Set<Cleanup>();
const servers = new Set<RunningServer>();
let currentLoad: AcInstance | null = null;
let interrupted = false;

function onSignal(signal: NodeJS.Signals) {
  if (interrupted) {
    // Second Ctrl-C: do not wait any more.
    for (const s of servers) s.process.kill('SIGKILL');
    process.exit(130);
  }
  interrupted = true;
  console.error(`\n${signal}: stopping, cleaning up (press Ctrl-C again to force)…`);
  currentLoad?.stop();
  void Promise.allSettled([...active].map((c) => c.run())).finally(() => process.exit(130));
}
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

class Interrupted extends Error {}
const checkInterrupted = () => {
  if (interrupted) throw new Interrupted('interrupted');
};

// ---------------------------------------------------------------------------------------------------------
// Load
// ---------------------------------------------------------------------------------------------------------

type ScenarioName = 'bare' | 'retrieve' | 'add';

interface Scenario {
  name: ScenarioName;
  requests: AcRequest[];
  /** One request through fetch before the load, to check that the scenario really does what it says. */
  probe: () => Promise<void>;
}

interface Measured {
  scenario: ScenarioName;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
  total: number;
  ok2xx: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  failRatio: number;
  durationS: number;
  statusCodes: Record<string, number>;
  /** p50 with one connection (30 requests before the warm-up). */
  serialP50: number;
  warmup: { statusCodes: Record<string, number>; errors: number; timeouts: number };
  /** 1-minute load average when the scenario started (other work on the machine skews results). */
  loadavg1: number;
  autocannon: { requestsPerSecAvg: number; latencyP50: number; latencyP97_5: number; latencyP99: number };
}

function scenarios(baseUrl: string, apiKey: string, runTag: string): Scenario[] {
  const json = { 'content-type': 'application/json' };
  const auth = { ...json, authorization: `ApiKey ${apiKey}` };
  const post = async (p: string, body: unknown) => {
    const res = await fetch(baseUrl + p, { method: 'POST', headers: auth, body: JSON.stringify(body) });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`probe ${p}: HTTP ${res.status}: ${text.slice(0, 500)}`);
    return JSON.parse(text) as Record<string, unknown>;
  };

  let seq = 0;
  const r = rng(7);
  const addBody = () => {
    const n = seq++;
    return {
      external_user_id: `bench-add-user-${n % ADD_USERS}`,
      messages: addConversation(n, r),
      metadata: { bench_run: runTag, bench_seq: n },
    };
  };

  return [
    {
      name: 'bare',
      requests: [{ method: 'GET', path: '/v1/health' }],
      probe: async () => {
        const res = await fetch(`${baseUrl}/v1/health`);
        if (res.status !== 200) throw new Error(`probe /v1/health: HTTP ${res.status}`);
      },
    },
    {
      name: 'retrieve',
      requests: RETRIEVE_QUERIES.map((query) => ({
        method: 'POST',
        path: '/v1/memories/retrieve',
        headers: auth,
        body: JSON.stringify({ external_user_id: BENCH_USER, query, limit: 10 }),
      })),
      probe: async () => {
        const body = await post('/v1/memories/retrieve', { external_user_id: BENCH_USER, query: RETRIEVE_QUERIES[0], limit: 10 });
        const data = body.data as unknown[];
        if (!Array.isArray(data) || data.length !== 10) {
          throw new Error(`probe retrieve: expected 10 memories, got ${JSON.stringify(body).slice(0, 500)}`);
        }
      },
    },
    {
      name: 'add',
      requests: [
        {
          method: 'POST',
          path: '/v1/memories/add',
          headers: auth,
          // Called for every request: each body differs (counter in metadata, varied conversation and user).
          setupRequest: (req) => ({ ...req, body: JSON.stringify(addBody()) }),
        },
      ],
      probe: async () => {
        const body = await post('/v1/memories/add', addBody());
        if (body.status !== 'queued' || typeof body.job_id !== 'string') {
          throw new Error(`probe add: expected a queued job, got ${JSON.stringify(body).slice(0, 500)}`);
        }
      },
    },
  ];
}

function load(baseUrl: string, s: Scenario, opts: { connections: number; duration?: number; amount?: number }) {
  return new Promise<{ result: AcResult; latencies: number[] }>((resolve, reject) => {
    checkInterrupted();
    const latencies: number[] = [];
    const instance = autocannon(
      {
        url: baseUrl,
        connections: opts.connections,
        ...(opts.amount ? { amount: opts.amount } : { duration: opts.duration }),
        timeout: 30,
        // Fresh copies: autocannon mutates request objects.
        requests: s.requests.map((r) => ({ ...r })),
      },
      (err, result) => {
        currentLoad = null;
        if (err) reject(err);
        else if (interrupted) reject(new Interrupted('interrupted'));
        else resolve({ result, latencies });
      },
    );
    currentLoad = instance;
    instance.on('response', (_client, status, _bytes, ms) => {
      if (status >= 200 && status < 300) latencies.push(ms);
    });
  });
}

interface Window {
  scenario: ScenarioName;
  phase: 'probe' | 'serial' | 'warmup' | 'measure';
  start: number;
  end: number;
}

async function measure(baseUrl: string, s: Scenario, flags: Flags, windows: Window[]): Promise<Measured> {
  const loadavg1 = os.loadavg()[0];
  const phase = async <T>(name: Window['phase'], fn: () => Promise<T>): Promise<T> => {
    const w: Window = { scenario: s.name, phase: name, start: Date.now(), end: 0 };
    windows.push(w);
    try {
      return await fn();
    } finally {
      w.end = Date.now();
    }
  };
  await phase('probe', s.probe);
  // Latency without concurrency: what one request costs when nothing else runs.
  const serial = await phase('serial', () => load(baseUrl, s, { connections: 1, amount: 30 }));
  const warm = await phase('warmup', () => load(baseUrl, s, { connections: flags.connections, amount: flags.warmup }));
  const { result, latencies } = await phase('measure', () =>
    load(baseUrl, s, { connections: flags.connections, duration: flags.duration }),
  );
  const sorted = Float64Array.from(latencies).sort();
  const ok = result['2xx'];
  const total = ok + result.non2xx + result.errors + result.timeouts;
  const codes = (r: AcResult) => Object.fromEntries(Object.entries(r.statusCodeStats).map(([k, v]) => [k, v.count]));
  return {
    scenario: s.name,
    rps: ok / result.duration,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted.length ? sorted[sorted.length - 1] : Number.NaN,
    mean: sorted.length ? sorted.reduce((a, b) => a + b, 0) / sorted.length : Number.NaN,
    total,
    ok2xx: ok,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    failRatio: total ? (total - ok) / total : 1,
    durationS: result.duration,
    statusCodes: codes(result),
    serialP50: percentile(Float64Array.from(serial.latencies).sort(), 50),
    warmup: { statusCodes: codes(warm.result), errors: warm.result.errors, timeouts: warm.result.timeouts },
    loadavg1: Math.round(loadavg1 * 100) / 100,
    autocannon: {
      requestsPerSecAvg: result.requests.average,
      latencyP50: result.latency.p50,
      latencyP97_5: result.latency.p97_5,
      latencyP99: result.latency.p99,
    },
  };
}

/**
 * Server log lines (pino JSON, level ≥ error) counted by scenario/phase (from their timestamps) and message.
 * Plain-text lines are counted under "other".
 */
function attributeLog(out: string, windows: Window[]): Record<string, Record<string, number>> {
  const by: Record<string, Record<string, number>> = {};
  for (const line of out.split('\n')) {
    if (!line.trim() || isNextBanner(line)) continue;
    let key = 'other';
    let what = line.trim().slice(0, 160);
    try {
      const j = JSON.parse(line) as { time?: number; msg?: string; err?: string; err_code?: string };
      const w = windows.find((x) => j.time !== undefined && j.time >= x.start && j.time <= (x.end || Number.MAX_SAFE_INTEGER));
      key = w ? `${w.scenario}/${w.phase}` : 'between scenarios / background';
      what = [j.msg, j.err_code, j.err].filter(Boolean).join(': ').slice(0, 160);
    } catch {
      // not JSON
    }
    by[key] ??= {};
    by[key][what] = (by[key][what] ?? 0) + 1;
  }
  return by;
}

/** A fresh PostgreSQL database for one run, dropped by the run's clean-up; its URL. */
async function throwawayDatabase(prefix: string, flags: Flags, cleanup: Cleanup): Promise<string> {
  const dbName = `${prefix}_${Date.now()}`;
  const admin = postgres(flags.pgUrl, { max: 1, onnotice: () => {} });
  cleanup.add('close admin connection', () => admin.end({ timeout: 5 }));
  await admin.unsafe(`CREATE DATABASE "${dbName}"`);
  cleanup.add(`drop database ${dbName}`, () => admin.unsafe(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`));
  const url = new URL(flags.pgUrl);
  url.pathname = `/${dbName}`;
  return url.toString();
}

// ---------------------------------------------------------------------------------------------------------
// One engine × size
// ---------------------------------------------------------------------------------------------------------

interface RunResult {
  engine: 'pglite' | 'postgres';
  memories: number;
  seedMs: number;
  scenarios: Array<Measured & { pctOfBare: number }>;
  background: Awaited<ReturnType<typeof jobSummary>> | null;
  serverLog: { lines: number; byPhase: Record<string, Record<string, number>>; tail: string };
  error?: string;
}

function emptyRun(engine: 'pglite' | 'postgres', size: number): RunResult {
  return { engine, memories: size, seedMs: 0, scenarios: [], background: null, serverLog: { lines: 0, byPhase: {}, tail: '' } };
}

async function benchOne(engine: 'pglite' | 'postgres', size: number, flags: Flags): Promise<RunResult> {
  const cleanup = new Cleanup();
  active.add(cleanup);
  const run = emptyRun(engine, size);
  const windows: Window[] = [];
  let server: RunningServer | null = null;
  try {
    let config: DatabaseConfig;
    const env: Record<string, string> = {
      MEMORY_LOG_LEVEL: 'error',
      NEXT_TELEMETRY_DISABLED: '1',
      // The service's defaults (the integration helper shortens them for tests), embedded worker on.
      MEMORY_JOB_MODE: 'embedded',
      MEMORY_EMBEDDED_WORKER: 'true',
      MEMORY_JOB_POLL_MS: '500',
      MEMORY_JOB_BACKOFF_BASE_MS: '2000',
      INNGEST_EVENT_KEY: '',
    };
    if (engine === 'pglite') {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'memory-bench-'));
      cleanup.add('remove PGlite data dir', () => rmSync(dataDir, { recursive: true, force: true }));
      config = { kind: 'pglite', dataDir };
      env.MEMORY_DATA_DIR = dataDir;
      env.DATABASE_URL = '';
    } else {
      const url = await throwawayDatabase('memory_bench', flags, cleanup);
      config = { kind: 'postgres', url };
      env.DATABASE_URL = url;
    }

    log(`[${engine} ${size}] seeding ${size} memories…`);
    const seeded = await seed(config, size, checkInterrupted);
    run.seedMs = Math.round(seeded.seedMs);
    log(`[${engine} ${size}] seeded in ${fmt(seeded.seedMs / 1000)} s; starting server…`);
    checkInterrupted();

    server = await startServer(engine, env);
    servers.add(server);
    const srv = server;
    cleanup.add('stop server', async () => {
      await srv.stop('SIGTERM');
      servers.delete(srv);
    });

    const runTag = `${engine}-${size}-${Date.now()}`;
    // The machine's speed drifts within a run, so bare is measured before, between and after the loaded
    // scenarios, and each loaded scenario is compared with the mean of the bare runs on either side of it.
    const [bareScenario, ...loaded] = scenarios(server.baseUrl, seeded.apiKey, runTag);
    const order = [bareScenario, ...loaded.flatMap((l) => [l, bareScenario])];
    const measured: Measured[] = [];
    for (const s of order) {
      checkInterrupted();
      log(`[${engine} ${size}] ${s.name}: ${flags.warmup} warm-up requests, then ${flags.duration} s × ${flags.connections} connections…`);
      const m = await measure(server.baseUrl, s, flags, windows);
      measured.push(m);
      log(
        `[${engine} ${size}] ${s.name}: ${fmt(m.rps, 0)} req/s, p50 ${fmt(m.p50, 2)} ms, p95 ${fmt(m.p95, 2)} ms, ` +
          `p99 ${fmt(m.p99, 2)} ms` +
          (m.total - m.ok2xx ? `, NOT 2xx: ${m.total - m.ok2xx} (${JSON.stringify(m.statusCodes)}, errors ${m.errors}, timeouts ${m.timeouts})` : ''),
      );
    }
    measured.forEach((m, i) => {
      if (m.scenario === 'bare') {
        run.scenarios.push({ ...m, pctOfBare: 100 });
      } else {
        const around = (measured[i - 1].rps + measured[i + 1].rps) / 2;
        run.scenarios.push({ ...m, pctOfBare: (100 * m.rps) / around });
      }
    });

    await server.stop('SIGTERM');
    servers.delete(server);
    run.background = await jobSummary(config);
  } catch (err) {
    if (err instanceof Interrupted) throw err;
    run.error = clip(err instanceof Error ? err.message : String(err));
    console.error(`[${engine} ${size}] FAILED: ${run.error}`);
  } finally {
    if (server) {
      const out = server.output();
      const lines = out.split('\n').filter((l) => l.trim() && !isNextBanner(l));
      run.serverLog = { lines: lines.length, byPhase: attributeLog(out, windows), tail: lines.slice(-30).join('\n').slice(-4000) };
    }
    await cleanup.run();
    active.delete(cleanup);
  }
  return run;
}

// ---------------------------------------------------------------------------------------------------------
// Extraction throughput with worker processes (PostgreSQL)
// ---------------------------------------------------------------------------------------------------------

interface WorkerRun {
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
  error?: string;
}

async function benchWorkers(workers: number, flags: Flags): Promise<WorkerRun> {
  const cleanup = new Cleanup();
  active.add(cleanup);
  const run: WorkerRun = { workers, addRps: 0, addNon2xx: 0, jobsPerSecDuring: 0, backlogAtEnd: 0, jobsPerSecAfter: 0, drainS: 0, drained: false, messagesPerJob: 0 };
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
    run.drained = c2.backlog === 0;
    run.drainS = (c2.at - c1.at) / 1000;
    run.jobsPerSecAfter = run.drainS > 0 ? (c2.done - c1.done) / run.drainS : 0;
    run.messagesPerJob = c2.done + c2.backlog > 0 ? c2.messages / (c2.done + c2.backlog) : 0;
    log(
      `[workers ${workers}] adds ${fmt(run.addRps, 0)}/s; jobs ${fmt(run.jobsPerSecDuring, 1)}/s during, backlog ${run.backlogAtEnd} at the end, ` +
        `${fmt(run.jobsPerSecAfter, 1)}/s after (${run.drained ? 'drained' : 'NOT drained'} in ${fmt(run.drainS, 1)} s)`,
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

function workersTable(runs: WorkerRun[]): string {
  return markdownTable(
    ['Worker processes', 'adds/s', 'jobs/s during the load', 'backlog at its end', 'jobs/s after it (drain)', 'drain s', 'messages/s after', 'vs 1 worker (after)'],
    runs.map((r) => {
      const one = runs.find((x) => x.workers === 1);
      return r.error
        ? [String(r.workers), `failed: ${headline(r.error).slice(0, 80)}`, '', '', '', '', '', '']
        : [
            String(r.workers),
            fmt(r.addRps, 0),
            fmt(r.jobsPerSecDuring, 1),
            String(r.backlogAtEnd),
            fmt(r.jobsPerSecAfter, 1),
            `${fmt(r.drainS, 1)}${r.drained ? '' : ' (cap)'}`,
            fmt(r.jobsPerSecAfter * r.messagesPerJob, 0),
            one && one.jobsPerSecAfter > 0 ? `${fmt(r.jobsPerSecAfter / one.jobsPerSecAfter, 2)}×` : '',
          ];
    }),
    [true, true, true, true, true, true, true, true],
  );
}

/** Long messages (a server's whole start-up output) cut to their first lines and their last 1,000 characters. */
/** One line for tables: the first line, plus the first line that names an error, if different. */
function headline(msg: string): string {
  const lines = msg.split('\n').map((l) => l.trim()).filter(Boolean);
  const first = lines[0] ?? '';
  const err = lines.slice(1).find((l) => /error|cannot|failed/i.test(l) && !isNextBanner(l));
  return (err ? `${first} ${err}` : first).slice(0, 220);
}

/** Start-up failures that no other engine or size will get past: the build or node_modules is broken. */
const BROKEN_BUILD = /Failed to prepare server|ERR_MODULE_NOT_FOUND|Cannot find module|Could not find a production build/;

function clip(msg: string): string {
  const lines = msg.split('\n');
  if (lines.length <= 25 && msg.length <= 4000) return msg;
  const head = lines.slice(0, 12).join('\n').slice(0, 2500);
  return `${head}\n  … (${lines.length} lines; last part:)\n${msg.slice(-1000)}`;
}

/** The server's own start-up lines are not problems. */
function isNextBanner(line: string): boolean {
  return /^\s*(▲ Next\.js|- Local:|- Network:|✓ Ready|✓ Starting|✓ Running next\.config|memory-service listening|Starting\.\.\.|- Experiments|· )/.test(line) || /^\s*$/.test(line);
}

// ---------------------------------------------------------------------------------------------------------
// Report
// ---------------------------------------------------------------------------------------------------------

function tableOf(runs: RunResult[]): string {
  const rows: string[][] = [];
  for (const r of runs) {
    if (r.error && r.scenarios.length === 0) {
      rows.push([label(r.engine), r.memories.toLocaleString('en-US'), `failed: ${headline(r.error).slice(0, 120)}`, '', '', '', '', '']);
      continue;
    }
    let bareSeen = 0;
    for (const s of r.scenarios) {
      const name = s.scenario === 'bare' ? `bare (${['before', 'between', 'after'][bareSeen++] ?? bareSeen})` : s.scenario;
      rows.push([
        label(r.engine),
        r.memories.toLocaleString('en-US'),
        name + (s.total - s.ok2xx ? ` ⚠ ${s.total - s.ok2xx} non-2xx` : ''),
        fmt(s.rps, 0),
        fmt(s.p50, 2),
        fmt(s.p95, 2),
        fmt(s.p99, 2),
        s.scenario === 'bare' ? '100 %' : `${fmt(s.pctOfBare, 1)} %`,
      ]);
    }
  }
  return markdownTable(
    ['Engine', 'Memories', 'Scenario', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', '% of bare req/s (mean of the bare runs either side)'],
    rows,
    [false, true, false, true, true, true, true, true],
  );
}

const label = (e: string) => (e === 'postgres' ? 'PostgreSQL' : 'PGlite');
const mark = (ok: boolean) => (ok ? '✅ holds' : '❌ misses');

function targetsOf(runs: RunResult[]): { text: string; held: boolean | null } {
  const lines: string[] = [];
  let held: boolean | null = null;
  const pg1k = runs.find((r) => r.engine === 'postgres' && r.memories === 1000);
  const ret = pg1k?.scenarios.find((s) => s.scenario === 'retrieve');
  if (ret) {
    const a = ret.p95 < 25;
    const b = ret.pctOfBare >= 40;
    held = a && b;
    lines.push(`- retrieve p95 < 25 ms at 1,000 memories on PostgreSQL: ${fmt(ret.p95, 2)} ms — ${mark(a)}`);
    lines.push(`- retrieve ≥ 40 % of bare req/s at 1,000 memories on PostgreSQL: ${fmt(ret.pctOfBare, 1)} % — ${mark(b)}`);
  } else {
    lines.push('- retrieve targets (PostgreSQL, 1,000 memories): not measured in this run');
  }
  for (const r of runs) {
    const add = r.scenarios.find((s) => s.scenario === 'add');
    if (!add) continue;
    const ok = add.p95 < 15;
    held = (held ?? true) && ok;
    lines.push(`- add p95 < 15 ms (${label(r.engine)}, ${r.memories.toLocaleString('en-US')} memories): ${fmt(add.p95, 2)} ms — ${mark(ok)}`);
  }
  return { text: lines.join('\n'), held };
}

function gitCommit(): string | null {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return null;
  }
}

const log = (msg: string) => console.error(msg);

// ---------------------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------------------

const BUILD_ID = path.join(ROOT, 'apps/web/.next/BUILD_ID');
const BUILD_CMD = 'npx turbo run build --filter=@memory/web';

function ensureBuilt(flags: Flags) {
  if (existsSync(BUILD_ID)) return;
  if (!flags.build) {
    console.error(`The app is not built (${path.relative(ROOT, BUILD_ID)} is missing).\nRun:  ${BUILD_CMD}\nthen run the benchmark again (or pass --build).`);
    process.exit(1);
  }
  log(`building the app: ${BUILD_CMD}`);
  execFileSync('npx', ['turbo', 'run', 'build', '--filter=@memory/web'], { cwd: ROOT, stdio: 'inherit' });
  if (!existsSync(BUILD_ID)) throw new Error(`build finished but ${BUILD_ID} is still missing`);
}

function assertLoopback(url: string) {
  const host = new URL(url).hostname;
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host)) {
    throw new Error(`--pg-url must point at this machine (127.0.0.1), not ${host}`);
  }
}

async function main() {
  let flags: Flags;
  try {
    flags = parseFlags(process.argv.slice(2));
  } catch (err) {
    if (err instanceof HelpRequested) {
      console.log(USAGE);
      return 0;
    }
    console.error(`${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  ensureBuilt(flags);
  if (flags.engines.includes('postgres')) assertLoopback(flags.pgUrl);
  const outDir = path.resolve(ROOT, flags.out);

  const started = new Date();
  const stamp = started.toISOString().replace(/[:.]/g, '-');
  const cpus = os.cpus();
  let pgVersion: string | null = null;
  if (flags.engines.includes('postgres')) {
    const admin = postgres(flags.pgUrl, { max: 1, onnotice: () => {} });
    try {
      const [v] = await admin`SHOW server_version`;
      pgVersion = String(v.server_version);
    } catch (err) {
      console.error(`cannot reach PostgreSQL at ${flags.pgUrl}: ${(err as Error).message}`);
      return 1;
    } finally {
      await admin.end({ timeout: 5 });
    }
  }

  const runs: RunResult[] = [];
  let broken: string | null = null;
  for (const engine of flags.engines) {
    for (const size of flags.sizes) {
      checkInterrupted();
      if (broken) {
        runs.push({ ...emptyRun(engine, size), error: `skipped: ${broken}` });
        continue;
      }
      const run = await benchOne(engine, size, flags);
      runs.push(run);
      if (run.error && BROKEN_BUILD.test(run.error)) {
        broken = `the built app does not start (${headline(run.error).slice(0, 160)}); rebuild with: ${BUILD_CMD}`;
        console.error(`\n${broken}\nSkipping the remaining runs.\n`);
      }
    }
  }

  const workerRuns: WorkerRun[] = [];
  if (flags.engines.includes('postgres') && !broken) {
    for (const k of flags.workers) {
      checkInterrupted();
      workerRuns.push(await benchWorkers(k, flags));
    }
  }

  const failures: string[] = [];
  for (const w of workerRuns) if (w.error) failures.push(`workers ${w.workers}: ${headline(w.error)}`);
  for (const r of runs) {
    if (r.error) failures.push(`${label(r.engine)} ${r.memories}: ${headline(r.error)}`);
    for (const s of r.scenarios) {
      if (s.failRatio > 0.005) {
        failures.push(
          `${label(r.engine)} ${r.memories} ${s.scenario}: ${s.total - s.ok2xx} of ${s.total} responses were not 2xx ` +
            `(${fmt(100 * s.failRatio, 2)} %; status ${JSON.stringify(s.statusCodes)}, errors ${s.errors}, timeouts ${s.timeouts})`,
        );
      }
    }
  }

  const machine = {
    cpu_model: cpus[0]?.model ?? 'unknown',
    cpu_count: cpus.length,
    memory_gb: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    postgres: pgVersion,
  };
  const table = tableOf(runs);
  const targets = targetsOf(runs);
  const commit = gitCommit();

  const notes: string[] = [];
  for (const r of runs) {
    if (r.background) {
      notes.push(
        `- ${label(r.engine)} ${r.memories}: at shutdown, extraction jobs ${JSON.stringify(r.background.jobs)}; memories in database ${r.background.memories}` +
          (r.background.errors.length ? `; job errors: ${r.background.errors.join(' | ')}` : ''),
      );
    }
    if (r.serverLog.lines > 0) {
      const parts = Object.entries(r.serverLog.byPhase).map(
        ([where, msgs]) => `${where}: ${Object.entries(msgs).map(([m, n]) => `${n}× ${m}`).join('; ')}`,
      );
      notes.push(`- ${label(r.engine)} ${r.memories}: server logged ${r.serverLog.lines} error line(s) — ${parts.join(' · ')}`);
    }
    const warmBad = r.scenarios.filter((s) => Object.keys(s.warmup.statusCodes).some((c) => !c.startsWith('2')) || s.warmup.errors);
    for (const s of warmBad) {
      notes.push(`- ${label(r.engine)} ${r.memories} ${s.scenario} warm-up: status ${JSON.stringify(s.warmup.statusCodes)}, errors ${s.warmup.errors}`);
    }
    if (r.scenarios.length) {
      notes.push(
        `- ${label(r.engine)} ${r.memories}: single-connection p50 ` +
          r.scenarios.map((s) => `${s.scenario} ${fmt(s.serialP50, 2)} ms`).join(', ') +
          `; 1-min load average at start ${r.scenarios.map((s) => s.loadavg1).join(' / ')}`,
      );
    }
  }

  const md = [
    `# API benchmark — ${started.toISOString()}`,
    '',
    `Commit ${commit ?? 'unknown'} · ${machine.cpu_model} × ${machine.cpu_count} · ${machine.memory_gb} GB · ${machine.os} · Node ${machine.node}` +
      (pgVersion ? ` · PostgreSQL ${pgVersion}` : ''),
    '',
    `${flags.duration} s per scenario, ${flags.connections} connections, ${flags.warmup} warm-up requests; load generator on the same machine. ` +
      'bare = GET /v1/health; retrieve = POST /v1/memories/retrieve (20 queries, limit 10); add = POST /v1/memories/add (200 users, embedded worker on). ' +
      'Latencies are exact percentiles over all 2xx responses.',
    '',
    table,
    '',
    '## Targets',
    '',
    targets.text,
    ...(workerRuns.length
      ? [
          '',
          '## Extraction throughput with worker processes (PostgreSQL)',
          '',
          `A web server with MEMORY_EMBEDDED_WORKER=off takes the add load (${flags.duration} s, ${flags.connections} connections, 200 users) ` +
            'while N worker processes (npm run worker, 2 jobs at a time each) extract; then the backlog drains with no load. ' +
            'Finished jobs are counted in the job table.',
          '',
          workersTable(workerRuns),
        ]
      : []),
    ...(notes.length ? ['', '## Notes', '', ...notes] : []),
    ...(failures.length ? ['', '## Failures', '', ...failures.map((f) => `- ${f}`)] : []),
    '',
  ].join('\n');

  mkdirSync(outDir, { recursive: true });
  const jsonPath = path.join(outDir, `api-${stamp}.json`);
  const mdPath = path.join(outDir, `api-${stamp}.md`);
  writeFileSync(
    jsonPath,
    `${JSON.stringify(
      {
        date: started.toISOString(),
        finished: new Date().toISOString(),
        git_commit: commit,
        machine,
        parameters: {
          engines: flags.engines,
          sizes: flags.sizes,
          duration_s: flags.duration,
          connections: flags.connections,
          warmup_requests: flags.warmup,
          retrieve_queries: RETRIEVE_QUERIES.length,
          retrieve_limit: 10,
          add_users: ADD_USERS,
          server_env: { MEMORY_LOG_LEVEL: 'error', MEMORY_JOB_MODE: 'embedded', MEMORY_EMBEDDED_WORKER: 'true', MEMORY_JOB_POLL_MS: '500' },
        },
        runs: runs.map((r) => ({
          ...r,
          ratios: {
            retrieve_rps_over_bare_rps: ratio(r, 'retrieve'),
            add_rps_over_bare_rps: ratio(r, 'add'),
          },
        })),
        targets: { held: targets.held, text: targets.text },
        worker_runs: workerRuns,
        failures,
      },
      null,
      2,
    )}\n`,
  );
  writeFileSync(mdPath, md);

  console.log(md);
  console.log(`Results: ${path.relative(ROOT, jsonPath)} and ${path.relative(ROOT, mdPath)}`);
  if (failures.length) {
    console.error(`\nFAILED:\n${failures.map((f) => `  - ${f}`).join('\n')}`);
    return 1;
  }
  return 0;
}

function ratio(r: RunResult, name: ScenarioName): number | null {
  const s = r.scenarios.find((x) => x.scenario === name);
  return s && Number.isFinite(s.pctOfBare) ? Math.round(s.pctOfBare * 100) / 1e4 : null;
}

main().then(
  (code) => {
    if (!interrupted) process.exit(code);
  },
  async (err) => {
    if (err instanceof Interrupted) return; // the signal handler cleans up and exits
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    await Promise.allSettled([...active].map((c) => c.run()));
    process.exit(1);
  },
);
