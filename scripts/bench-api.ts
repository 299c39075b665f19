/**
 * `npm run bench:api`: HTTP benchmark of the built app (`npm start`: apps/web/server.ts) on PGlite and PostgreSQL.
 *
 * For every engine × size: seed a fresh database (before the server starts: PGlite allows one process
 * per data directory) with one tenant, one end user, one source event and N memories; start the server;
 * then run, one after another with the same number of connections,
 *   bare      GET  /v1/health                (constant JSON, no database: the framework's ceiling;
 *                                            measured before, between and after the loaded scenarios)
 *   retrieve  POST /v1/memories/retrieve     (~20 different queries, limit 10, for the seeded user)
 *   add       POST /v1/memories/add          (varied conversations for 200 users; the embedded worker stays on;
 *                                            the next bare run waits until the jobs it queued have drained)
 * and report requests/s, p50/p95/p99 latency and the share of bare throughput. Only 127.0.0.1 is contacted.
 *
 * Results: <out>/api-<timestamp>.json and .md (default bench/results).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DatabaseConfig } from '@memory/db';
import postgres from 'postgres';
import { ROOT, type RunningServer, startServer } from '../tests/integration/server';
import { type Flags, HelpRequested, USAGE, fmt, parseFlags } from './bench-lib';
import { ADD_USERS, coldRetrieves, jobSummary, seed } from './bench-seed';
import { RETRIEVE_QUERIES } from './bench-synthetic';
import { type RunResult, emptyRun, gitCommit, tableOf, targetsOf } from './bench-api-report';
import {
  BROKEN_BUILD,
  Cleanup,
  Interrupted,
  type Measured,
  type ScenarioName,
  type Window,
  active,
  attributeLog,
  checkInterrupted,
  clip,
  headline,
  interrupted,
  isNextBanner,
  label,
  log,
  measure,
  scenarios,
  servers,
  throwawayDatabase,
  waitForDrain,
} from './bench-api-load';
import { type WorkerRun, benchWorkers, workersTable } from './bench-api-workers';

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

    run.cold = await coldRetrieves(server.baseUrl, seeded.apiKey);
    log(`[${engine} ${size}] cold retrieves: first ${fmt(run.cold.firstMs, 1)} ms, after a write ${run.cold.reloadMs.map((ms) => fmt(ms, 1)).join(', ')} ms`);
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
      if (s.name === 'add') {
        // the next bare run must find an idle server, not one still extracting what the add load queued
        const drain = await waitForDrain(server.baseUrl, DRAIN_MAX_SECONDS);
        run.drain = drain;
        log(
          `[${engine} ${size}] add left ${drain.backlog} jobs; ` +
            (drain.seconds === null ? `${drain.left} still waiting after ${DRAIN_MAX_SECONDS} s` : `drained in ${fmt(drain.seconds, 1)} s`),
        );
      }
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
// Main
// ---------------------------------------------------------------------------------------------------------

const BUILD_ID = path.join(ROOT, 'apps/web/.next/BUILD_ID');
/** The longest wait for an add load's backlog to drain before bare is measured again. */
const DRAIN_MAX_SECONDS = 300;
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
    if (r.drain) {
      const d = r.drain;
      notes.push(
        `- ${label(r.engine)} ${r.memories}: the add load left ${d.backlog} extraction jobs; ` +
          (d.seconds === null
            ? `${d.left} were still waiting after ${DRAIN_MAX_SECONDS} s, so bare (after) ran while the server still extracted`
            : `they drained in ${fmt(d.seconds, 1)} s with no load (${fmt(d.backlog / Math.max(d.seconds, 1e-9), 1)} jobs/s) before bare (after) ran`),
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
      'bare (after) waits until the extraction backlog the add load left has drained, so that it measures an idle server. ' +
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
