/**
 * The plumbing of the quality benchmarks that drive the public HTTP API (`bench:locomo`, `bench:longmemeval`):
 * a small API client, writers, waiting for jobs, server flags, a server started on a throwaway data dir or
 * database, the run's context (commit, machine) and result files.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ADMIN_TOKEN, ROOT, startServer, tempDataDir } from '../tests/integration/server';


export const log = (msg: string) => console.error(msg);

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** A JSON client for the /v1 API that waits out 429s (the benchmarks measure the service, not its limits). */
export class Api {
  constructor(
    readonly baseUrl: string,
    private readonly auth: string,
  ) {}
  async call<T>(method: string, p: string, body?: unknown): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const res = await fetch(`${this.baseUrl}${p}`, {
        method,
        headers: { authorization: this.auth, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (res.status === 429 && attempt < 20) {
        await sleep(Number(res.headers.get('retry-after') ?? 1) * 1000);
        continue;
      }
      if (!res.ok) throw new Error(`${method} ${p} -> ${res.status}: ${text.slice(0, 300)}`);
      return JSON.parse(text) as T;
    }
  }
}

/** Registers the benchmark's service writer; a second run against the same server finds it already there. */
export async function registerWriter(api: Api, serviceKey: string, displayName: string): Promise<void> {
  await api
    .call('POST', '/v1/tenant/service-writers', { service_key: serviceKey, display_name: displayName, authority_rules: { default_priority: 100 } })
    .catch((err: Error) => {
      if (!/409/.test(err.message)) throw err;
    });
}

export interface JobTotals {
  /** Jobs by final status. */
  statuses: Record<string, number>;
  memoriesCreated: number;
  pending: { buffered: number; promoted: number };
  /** Sum of `extraction_metadata.passages_indexed`; null when no job reports it (no evidence layer). */
  passagesIndexed: number | null;
}

interface JobView {
  status: string;
  memories_created: number;
  pending_candidates_buffered: number;
  pending_candidates_promoted: number;
  extraction_metadata?: Record<string, unknown>;
}

/** Polls every job until it has ended (jobs run roughly in queue order, so one at a time costs little). */
export async function waitForJobs(api: Api, jobIds: string[]): Promise<JobTotals> {
  const totals: JobTotals = { statuses: {}, memoriesCreated: 0, pending: { buffered: 0, promoted: 0 }, passagesIndexed: null };
  for (const id of jobIds) {
    for (;;) {
      const { data: job } = await api.call<{ data: JobView }>('GET', `/v1/memories/jobs/${id}`);
      if (['completed', 'processed', 'failed', 'dead'].includes(job.status)) {
        totals.statuses[job.status] = (totals.statuses[job.status] ?? 0) + 1;
        totals.memoriesCreated += job.memories_created;
        totals.pending.buffered += job.pending_candidates_buffered;
        totals.pending.promoted += job.pending_candidates_promoted;
        const passages = job.extraction_metadata?.passages_indexed;
        if (typeof passages === 'number') totals.passagesIndexed = (totals.passagesIndexed ?? 0) + passages;
        break;
      }
      await sleep(100);
    }
  }
  return totals;
}

/** Active memories of these end users: what retrieval can return. */
export async function countActiveMemories(api: Api, externalUserIds: string[]): Promise<number> {
  let n = 0;
  for (const user of externalUserIds) {
    let cursor: string | null = null;
    do {
      const q: string = `/v1/memories?external_user_id=${encodeURIComponent(user)}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page: { data: { items: unknown[]; next_cursor: string | null } } = await api.call('GET', q);
      n += page.data.items.length;
      cursor = page.data.next_cursor;
    } while (cursor);
  }
  return n;
}

/** Where a quality benchmark's API comes from: a server it starts (and its database), or one already running. */
export interface ServerFlags {
  engine: 'pglite' | 'postgres';
  pgUrl: string;
  out: string;
  url: string | null;
  apiKey: string | null;
  keep: boolean;
  /** A PGlite data dir an earlier `--keep` run left: the server starts on it and its tenant is used again. */
  reuse: string | null;
}

export const serverFlagDefaults = (): ServerFlags => ({
  engine: 'pglite',
  pgUrl: 'postgres://postgres@127.0.0.1:5432/postgres',
  out: 'bench/results',
  url: null,
  apiKey: null,
  keep: false,
  reuse: null,
});

export const SERVER_FLAGS_USAGE = `  --engine pglite|postgres  database of the server the script starts (default pglite, the embedded default)
  --pg-url <url>         PostgreSQL admin URL for --engine postgres (a fresh database is created and dropped)
  --url <base> --api-key <key>  use a running server instead of starting one
  --out <dir>            where to write the JSON and Markdown results (default bench/results)
  --keep                 keep the temporary data directory / database (PGlite: with the tenant, for --reuse)
  --reuse <dir>          bench:longmemeval: start on the PGlite data dir a --keep run left and use its tenant and
                         users again: no ingestion, only the retrieves (to try a ranking change without re-extracting)`;

/** A flag's handler; `value()` consumes the flag's argument. */
export type FlagHandler = (value: () => string) => void;

export function serverFlagHandlers(f: ServerFlags): Record<string, FlagHandler> {
  return {
    '--engine': (value) => {
      const v = value();
      if (v !== 'pglite' && v !== 'postgres') throw new Error('--engine must be pglite or postgres');
      f.engine = v;
    },
    '--pg-url': (value) => (f.pgUrl = value()),
    '--out': (value) => (f.out = value()),
    '--url': (value) => (f.url = value().replace(/\/$/, '')),
    '--api-key': (value) => (f.apiKey = value()),
    '--keep': () => (f.keep = true),
    '--reuse': (value) => (f.reuse = cliPath(value())),
  };
}

/** Runs each flag's handler; `--help` prints the usage and exits. */
export function readArgs(argv: string[], handlers: Record<string, FlagHandler>, usage: string): void {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--help' || a === '-h') {
      console.log(usage);
      process.exit(0);
    }
    const handler = handlers[a];
    if (!handler) throw new Error(`unknown flag ${a}\n\n${usage}`);
    handler(() => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    });
  }
}

/** A path given on the command line: `npm run` changes to the repository root, so resolve it where npm was called. */
export const cliPath = (p: string) => path.resolve(process.env.INIT_CWD ?? process.cwd(), p);

/** A positive integer flag value. */
export function positiveInt(flag: string, v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${flag}: "${v}" is not a positive integer`);
  return n;
}

/** Where a kept PGlite run lives, for a later `--reuse`: `dataDir` is null for a server the script did not start. */
export interface BenchStore {
  dataDir: string | null;
  /** The server runs on a data dir an earlier `--keep` run left: its users are there, ingestion is skipped. */
  reused: boolean;
}

const TENANT_FILE = 'bench-tenant.json';

/**
 * Starts the built app (building it when there is no build) on a fresh PGlite directory or a fresh PostgreSQL
 * database named after `label`, or uses `flags.url`; creates a tenant and runs `run` with its API. The server's
 * log is printed when `run` fails; the data is removed afterwards unless `--keep`. With `--reuse`, the
 * server starts on that PGlite dir and its kept tenant is used.
 */
export async function withBenchServer<T>(
  flags: ServerFlags,
  label: string,
  run: (api: Api, store: BenchStore) => Promise<T>,
): Promise<T> {
  if (flags.url) {
    if (!flags.apiKey) throw new Error('--url needs --api-key');
    return run(new Api(flags.url, `ApiKey ${flags.apiKey}`), { dataDir: null, reused: false });
  }
  if (flags.reuse && flags.engine !== 'pglite') throw new Error('--reuse needs --engine pglite');
  if (flags.reuse && !existsSync(path.join(flags.reuse, TENANT_FILE))) {
    throw new Error(`--reuse: ${flags.reuse} holds no ${TENANT_FILE} (the data dir a run with --keep left)`);
  }
  if (!existsSync(path.join(ROOT, 'apps/web/.next/BUILD_ID'))) {
    log('building the app: npx turbo run build --filter=@memory/web');
    execFileSync('npx', ['turbo', 'run', 'build', '--filter=@memory/web', '--output-logs=errors-only'], { cwd: ROOT, stdio: 'inherit' });
  }
  const env: Record<string, string> = { MEMORY_LOG_LEVEL: 'warn', MEMORY_JOB_POLL_MS: '50' };
  let dropData: () => Promise<void>;
  let server: Awaited<ReturnType<typeof startServer>>;
  const dataDir = flags.engine === 'pglite' ? (flags.reuse ?? tempDataDir()) : null;
  if (dataDir) {
    server = await startServer('pglite', { ...env, MEMORY_DATA_DIR: dataDir });
    dropData = async () => (flags.keep || flags.reuse ? log(`kept data dir ${dataDir}`) : rmSync(dataDir, { recursive: true, force: true }));
  } else {
    const { default: postgres } = await import('postgres');
    const admin = postgres(flags.pgUrl, { max: 1, onnotice: () => {} });
    const dbName = `memory_${label}_${Date.now()}`;
    await admin.unsafe(`CREATE DATABASE ${dbName}`);
    const url = new URL(flags.pgUrl);
    url.pathname = `/${dbName}`;
    server = await startServer('postgres', { ...env, DATABASE_URL: url.toString() });
    dropData = async () => {
      if (!flags.keep) await admin.unsafe(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      else log(`kept database ${dbName}`);
      await admin.end();
    };
  }
  try {
    let apiKey: string;
    if (flags.reuse) {
      apiKey = (JSON.parse(readFileSync(path.join(flags.reuse, TENANT_FILE), 'utf8')) as { api_key: string }).api_key;
    } else {
      const admin = new Api(server.baseUrl, `Bearer ${ADMIN_TOKEN}`);
      const tenant = await admin.call<{ data: { api_key: string } }>('POST', '/v1/admin/tenants', { name: `${label}-${Date.now()}` });
      apiKey = tenant.data.api_key;
      if (flags.keep && dataDir) writeFileSync(path.join(dataDir, TENANT_FILE), JSON.stringify({ api_key: apiKey }), { mode: 0o600 });
    }
    return await run(new Api(server.baseUrl, `ApiKey ${apiKey}`), { dataDir: flags.keep || flags.reuse ? dataDir : null, reused: !!flags.reuse });
  } catch (err) {
    process.stderr.write(`--- server log ---\n${server.output().slice(-4000)}\n`);
    throw err;
  } finally {
    await server.stop();
    await dropData();
  }
}

/** What a result was measured on: the commit and the machine. */
export function runContext(): { commit: string | null; machine: { cpus: number; cpu: string; node: string } } {
  let commit: string | null = null;
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
  } catch {
    // not a git checkout
  }
  return { commit, machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model ?? 'unknown', node: process.version } };
}

/** Writes `<out>/<name>-<stamp>.json` and `.md` and prints the Markdown. */
export function writeReport(out: string, name: string, date: string, result: unknown, markdown: string): void {
  const outDir = path.resolve(ROOT, out);
  mkdirSync(outDir, { recursive: true });
  const base = path.join(outDir, `${name}-${date.replace(/[:.]/g, '-')}`);
  writeFileSync(`${base}.json`, `${JSON.stringify(result, null, 2)}\n`);
  writeFileSync(`${base}.md`, markdown);
  console.log(markdown);
  log(`wrote ${path.relative(ROOT, base)}.json and .md`);
}

/** Runs `main` when the file is the script node was started with, exiting with its code. */
export function runIfMain(filename: string, main: () => Promise<number>): void {
  if (!process.argv[1] || path.resolve(process.argv[1]) !== path.resolve(filename)) return;
  main().then(
    (code) => process.exit(code),
    (err) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    },
  );
}
