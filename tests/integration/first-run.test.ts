/**
 * The first start (README, quick start): on an empty embedded data directory the server creates the development
 * tenant and prints its key once, with the console and the mailbox; the key works at once (add → job → retrieve,
 * and the TypeScript quick start example against the live server); a restart on the same directory creates and
 * prints nothing. PostgreSQL creates no tenant unless MEMORY_DEV_TENANT=on. `cli tenant list` reads both engines.
 */
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api } from './client';
import { ROOT, type RunningServer, type TestDatabase, createTestDatabase, startServer, tempDataDir } from './server';

const exec = promisify(execFile);
const TSX = path.join(ROOT, 'node_modules/tsx/dist/cli.mjs');
const KEY_LINE = /^ {2}export MEMORY_API_KEY=(mem_sk_\S+)$/m;
const running: RunningServer[] = [];

/** Starts a server with the first-run setting unset (its default), logging at info so the JSON log can be checked. */
async function start(name: RunningServer['name'], env: Record<string, string>): Promise<RunningServer> {
  const server = await startServer(name, { MEMORY_LOG_LEVEL: 'info', MEMORY_DEV_TENANT: '', ...env });
  running.push(server);
  // the banner is written during boot, before the first request is answered; let the pipe deliver it
  for (let i = 0; i < 20 && !/memory service ready/.test(server.output()); i++) await new Promise((r) => setTimeout(r, 100));
  return server;
}

function cli(args: string[], env: Record<string, string>) {
  const base: Record<string, string | undefined> = { ...process.env, ...env };
  if (!env.DATABASE_URL) delete base.DATABASE_URL;
  delete base.INIT_CWD;
  return exec(process.execPath, [TSX, 'packages/cli/src/main.ts', ...args], { cwd: ROOT, env: base });
}

afterAll(async () => {
  await Promise.all(running.map((s) => s.stop()));
});

describe('first start on the embedded database', () => {
  const dataDir = tempDataDir();
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  beforeAll(async () => {
    // the example imports @memory/client as an integrator would: from its build
    await exec('npx', ['turbo', 'run', 'build', '--filter=@memory/client', '--output-logs=errors-only'], { cwd: ROOT });
  }, 180_000);

  it('prints a working key once, with the console and the mailbox, and a restart prints nothing', async () => {
    const server = await start('pglite', { MEMORY_DATA_DIR: dataDir });
    const out = server.output();
    const key = out.match(KEY_LINE)?.[1];
    expect(key, out).toBeDefined();
    expect(out.split(key!).length - 1).toBe(1);
    expect(out).toContain(`console:       http://localhost:${server.env.PORT}/console (sign in as dev@memory.localhost)`);
    expect(out).toContain(`sign-in codes: http://localhost:${server.env.PORT}/dev/mailbox`);
    // the JSON log (pino lines) never carries the key
    const logLines = out.split('\n').filter((l) => l.startsWith('{'));
    expect(logLines.some((l) => l.includes('memory service ready'))).toBe(true);
    expect(logLines.filter((l) => l.includes('mem_sk_'))).toEqual([]);

    const api = new Api({ name: 'pglite', baseUrl: server.baseUrl, adminToken: '' }, key);
    const add = await api.post('/v1/memories/add', {
      external_user_id: 'first',
      messages: [{ role: 'user', content: 'I live in Oslo and I love skiing.' }],
    });
    expect(add.status).toBe(200);
    expect((await api.waitForJob(add.body.job_id)).status).toBe('completed');
    const found = await api.post('/v1/memories/retrieve', { external_user_id: 'first', query: 'where does the user live?' });
    expect(found.body.system_prompt_addition).toContain('The user lives in Oslo.');

    // the quick start example, as README runs it, against this live server
    const example = await exec(process.execPath, [TSX, 'examples/typescript/quickstart.ts'], {
      cwd: ROOT,
      env: { ...process.env, MEMORY_URL: server.baseUrl, MEMORY_API_KEY: key, MEMORY_USER: 'example-user' },
    });
    expect(example.stdout).toMatch(/^add: queued, job: completed, memories created: 3$/m);
    expect(example.stdout).toContain('Known information about the user:\n');
    expect(example.stdout).toContain('- The user lives in Lisbon.');

    // the CLI still refuses a data directory the server holds
    const held = await cli(['tenant', 'list'], { MEMORY_DATA_DIR: dataDir }).then(() => null, (e: { code: number; stderr: string }) => e);
    expect(held?.code).toBe(1);
    expect(held?.stderr).toMatch(/held by a running process/);
    await server.stop();

    const again = await start('pglite', { MEMORY_DATA_DIR: dataDir });
    expect(again.output()).not.toContain('mem_sk_');
    expect(again.output()).not.toContain('first start');
    const still = new Api({ name: 'pglite', baseUrl: again.baseUrl, adminToken: '' }, key);
    expect((await still.get(`/v1/memories/jobs/${add.body.job_id}`)).status).toBe(200);
    await again.stop();

    const listed = JSON.parse((await cli(['tenant', 'list', '--json'], { MEMORY_DATA_DIR: dataDir })).stdout);
    expect(listed).toEqual([
      { tenant_id: expect.any(String), name: 'development', plan: 'unlimited', created_at: expect.any(String), active_api_keys: 1 },
    ]);
    const text = (await cli(['tenant', 'list'], { MEMORY_DATA_DIR: dataDir })).stdout;
    expect(text).toMatch(new RegExp(`^${listed[0].tenant_id}  development  plan unlimited  created \\S+  1 active key\\(s\\)$`, 'm'));
  }, 240_000);
});

describe('first start on PostgreSQL', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('memory_firstrun');
  });
  afterAll(() => database?.drop());

  it('creates no tenant by default, and the development tenant with MEMORY_DEV_TENANT=on', async () => {
    const env = { DATABASE_URL: database.url };
    const plain = await start('postgres', env);
    expect(plain.output()).not.toContain('mem_sk_');
    await plain.stop();
    expect(JSON.parse((await cli(['tenant', 'list', '--json'], env)).stdout)).toEqual([]);
    expect((await cli(['tenant', 'list'], env)).stdout).toMatch(/^no tenants/);

    const opted = await start('postgres', { ...env, MEMORY_DEV_TENANT: 'on' });
    const key = opted.output().match(KEY_LINE)?.[1];
    expect(key, opted.output()).toBeDefined();
    // the mailbox is on in the test servers (MEMORY_DEV_MAILBOX=on)
    expect(opted.output()).toContain('/dev/mailbox');
    await opted.stop();

    const sql = postgres(database.url, { max: 1, onnotice: () => {} });
    try {
      const rows = await sql`SELECT t.name, k.key_hash FROM tenants t JOIN api_keys k ON k.tenant_id = t.id`;
      expect(rows).toEqual([{ name: 'development', key_hash: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
      expect(JSON.stringify(rows)).not.toContain(key!);
    } finally {
      await sql.end();
    }
  }, 180_000);
});
