/**
 * Starts the built app (apps/web/server.ts: Next.js behind our node:http server, as `npm start` runs it) as a real
 * HTTP server for the integration tests.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const ADMIN_TOKEN = 'integration-admin-token-0123456789';
export const PG_ADMIN_URL = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  name: string;
  url: string;
  /** Drops the database (its connections are closed first). */
  drop(): Promise<void>;
}

/** A fresh database on the shared PostgreSQL, named `<prefix>_<time>_<random>`; the cluster itself is never touched. */
export async function createTestDatabase(prefix: string): Promise<TestDatabase> {
  const name = `${prefix}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const admin = postgres(PG_ADMIN_URL, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`CREATE DATABASE ${name}`);
  } catch (err) {
    await admin.end();
    throw err;
  }
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

export interface ServerInfo {
  name: 'pglite' | 'postgres';
  baseUrl: string;
  adminToken: string;
}

export interface RunningServer extends ServerInfo {
  process: ChildProcess;
  env: Record<string, string>;
  stop(signal?: NodeJS.Signals): Promise<void>;
  output(): string;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export const tempDataDir = () => mkdtempSync(path.join(tmpdir(), 'memory-it-'));

/** A command that starts the server or a worker instead of the default (the container's start script, container.test.ts). */
export interface Launch {
  file: string;
  args: string[];
  cwd: string;
}

/** The Node flags `npm start` gives the web server (apps/web/package.json; scripts/container/start.sh the same). */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=32'];

export async function startServer(
  name: ServerInfo['name'],
  extraEnv: Record<string, string>,
  opts: { port?: number; launch?: Launch } = {},
): Promise<RunningServer> {
  const port = opts.port ?? (await freePort());
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    PORT: String(port),
    MEMORY_ADMIN_TOKEN: ADMIN_TOKEN,
    MEMORY_JOB_POLL_MS: '50',
    MEMORY_JOB_BACKOFF_BASE_MS: '50',
    MEMORY_LOG_LEVEL: 'warn',
    // the tests read sign-in codes from the development mailbox on PostgreSQL too
    MEMORY_DEV_MAILBOX: 'on',
    // webhooks.test.ts delivers to a receiver on 127.0.0.1, with retries one second apart (docs/webhooks.md)
    MEMORY_WEBHOOKS_ALLOW_PRIVATE: 'true',
    MEMORY_WEBHOOK_RETRY_SCHEDULE: '1,1,1',
    MEMORY_WEBHOOK_TIMEOUT_MS: '5000',
    // the tests connect over loopback as a reverse proxy would and name each simulated client in
    // X-Forwarded-For, so the per-address throttles count clients, not the test run (docs/operations.md)
    MEMORY_TRUSTED_PROXIES: 'loopback',
    NODE_ENV: 'production',
    ...extraEnv,
  };
  delete env.INIT_CWD;
  const launch = opts.launch ?? { file: process.execPath, args: [...SERVER_NODE_FLAGS, '--import', 'tsx', 'server.ts'], cwd: path.join(ROOT, 'apps/web') };
  const child = spawn(launch.file, [...launch.args, '-p', String(port), '-H', '127.0.0.1'], {
    cwd: launch.cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (out += d));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server ${name} exited during start:\n${out}`);
    try {
      // /v1/openapi.json is static; the add path proves the database is open and migrated.
      const res = await fetch(`${baseUrl}/v1/memories/jobs/00000000-0000-0000-0000-000000000000`);
      if (res.status === 401) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server ${name} did not start in time:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    name,
    baseUrl,
    adminToken: ADMIN_TOKEN,
    process: child,
    env,
    output: () => out,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export interface RunningWorker {
  /** The worker id it claims jobs as (`locked_by`). */
  id: string;
  process: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

/** Starts a worker process (`node --import tsx src/main.ts` in apps/worker, as `npm run worker` does); resolves once it runs. */
export async function startWorker(env: Record<string, string>, launch?: Launch): Promise<RunningWorker> {
  const { file, args, cwd } = launch ?? { file: process.execPath, args: ['--import', 'tsx', 'src/main.ts'], cwd: path.join(ROOT, 'apps/worker') };
  const child = spawn(file, args, {
    cwd,
    env: { ...(process.env as Record<string, string>), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const id = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', () => {
      const m = /memory-worker running as (\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    void exited.then((code) => reject(new Error(`worker exited (${code}) before it ran:\n${out.slice(-2000)}`)));
  });
  return { id, process: child, output: () => out, exited };
}
