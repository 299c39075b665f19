/**
 * `npm run bench:api`'s load: autocannon driving the bare, retrieve and add scenarios against a running server,
 * measured in windows; clean-up of servers and databases that survives errors and Ctrl-C; and the server output
 * helpers the other parts use to report a failed start.
 */
import { createRequire } from 'node:module';
import os from 'node:os';
import postgres from 'postgres';
import { type RunningServer } from '../tests/integration/server';
import { type Flags, percentile } from './bench-lib';
import { ADD_USERS, BENCH_USER } from './bench-seed';
import { RETRIEVE_QUERIES, addConversation, rng } from './bench-synthetic';

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
export class Cleanup {
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

export const active = new Set<Cleanup>();
export const servers = new Set<RunningServer>();
let currentLoad: AcInstance | null = null;
export let interrupted = false;

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

export class Interrupted extends Error {}
export const checkInterrupted = () => {
  if (interrupted) throw new Interrupted('interrupted');
};

// ---------------------------------------------------------------------------------------------------------
// Load
// ---------------------------------------------------------------------------------------------------------

export type ScenarioName = 'bare' | 'retrieve' | 'add';

interface Scenario {
  name: ScenarioName;
  requests: AcRequest[];
  /** One request through fetch before the load, to check that the scenario really does what it says. */
  probe: () => Promise<void>;
}

export interface Measured {
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

export function scenarios(baseUrl: string, apiKey: string, runTag: string): Scenario[] {
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

export function load(baseUrl: string, s: Scenario, opts: { connections: number; duration?: number; amount?: number }) {
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

/** How the extraction backlog an add load left behind drained, with no load, before bare was measured again. */
export interface Drain {
  /** Jobs queued or running when the add load stopped (GET /v1/health/ready). */
  backlog: number;
  /** Seconds until it was empty, or null when it still was not after `maxSeconds`. */
  seconds: number | null;
  /** Jobs still waiting when the wait ended (0 when drained). */
  left: number;
}

/**
 * Waits, polling the readiness endpoint once a second, until the server's extraction backlog is empty or
 * `maxSeconds` passed: a bare run measured while the server still extracts would not be the bare ceiling.
 */
export async function waitForDrain(baseUrl: string, maxSeconds: number): Promise<Drain> {
  const depth = async (): Promise<number> => {
    const res = await fetch(`${baseUrl}/v1/health/ready`);
    const body = (await res.json()) as { jobs?: { backlog?: { depth?: number } | null } };
    const d = body.jobs?.backlog?.depth;
    if (typeof d !== 'number') throw new Error(`readiness gave no backlog depth: ${JSON.stringify(body).slice(0, 300)}`);
    return d;
  };
  const started = Date.now();
  const backlog = await depth();
  let left = backlog;
  while (left > 0 && Date.now() - started < maxSeconds * 1000) {
    checkInterrupted();
    await new Promise((r) => setTimeout(r, 1000));
    left = await depth();
  }
  return { backlog, seconds: left === 0 ? (Date.now() - started) / 1000 : null, left };
}

export interface Window {
  scenario: ScenarioName;
  phase: 'probe' | 'serial' | 'warmup' | 'measure';
  start: number;
  end: number;
}

export async function measure(baseUrl: string, s: Scenario, flags: Flags, windows: Window[]): Promise<Measured> {
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
export function attributeLog(out: string, windows: Window[]): Record<string, Record<string, number>> {
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
export async function throwawayDatabase(prefix: string, flags: Flags, cleanup: Cleanup): Promise<string> {
  const dbName = `${prefix}_${Date.now()}`;
  const admin = postgres(flags.pgUrl, { max: 1, onnotice: () => {} });
  cleanup.add('close admin connection', () => admin.end({ timeout: 5 }));
  await admin.unsafe(`CREATE DATABASE "${dbName}"`);
  cleanup.add(`drop database ${dbName}`, () => admin.unsafe(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`));
  const url = new URL(flags.pgUrl);
  url.pathname = `/${dbName}`;
  return url.toString();
}

/** Long messages (a server's whole start-up output) cut to their first lines and their last 1,000 characters. */
/** One line for tables: the first line, plus the first line that names an error, if different. */
export function headline(msg: string): string {
  const lines = msg.split('\n').map((l) => l.trim()).filter(Boolean);
  const first = lines[0] ?? '';
  const err = lines.slice(1).find((l) => /error|cannot|failed/i.test(l) && !isNextBanner(l));
  return (err ? `${first} ${err}` : first).slice(0, 220);
}

/** Start-up failures that no other engine or size will get past: the build or node_modules is broken. */
export const BROKEN_BUILD = /Failed to prepare server|ERR_MODULE_NOT_FOUND|Cannot find module|Could not find a production build/;

export function clip(msg: string): string {
  const lines = msg.split('\n');
  if (lines.length <= 25 && msg.length <= 4000) return msg;
  const head = lines.slice(0, 12).join('\n').slice(0, 2500);
  return `${head}\n  … (${lines.length} lines; last part:)\n${msg.slice(-1000)}`;
}

/** The server's own start-up lines are not problems. */
export function isNextBanner(line: string): boolean {
  return /^\s*(▲ Next\.js|- Local:|- Network:|✓ Ready|✓ Starting|✓ Running next\.config|memory-service listening|Starting\.\.\.|- Experiments|· )/.test(line) || /^\s*$/.test(line);
}

export const label = (e: string) => (e === 'postgres' ? 'PostgreSQL' : 'PGlite');

export const log = (msg: string) => console.error(msg);
