/**
 * The embedded default keeps everything across restarts: memories, jobs (including one still queued when
 * the server stopped) and idempotency keys. Also: the CLI creates tenants against the data directory, and
 * refuses while a server holds it; the admin endpoint is 404 without an admin token.
 */
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { Api } from './client';
import { ROOT, type RunningServer, startServer, tempDataDir } from './server';

const exec = promisify(execFile);
const dataDir = tempDataDir();
let server: RunningServer | null = null;

async function cli(args: string[]) {
  const env: Record<string, string | undefined> = { ...process.env, MEMORY_DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  delete env.INIT_CWD;
  return exec(process.execPath, [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'packages/cli/src/main.ts', ...args], {
    cwd: ROOT,
    env,
  });
}

afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('embedded restart', () => {
  it('keeps memories, jobs and idempotency keys, and finishes a job queued before the stop', async () => {
    const { stdout } = await cli(['tenant', 'create', '--name', 'acme', '--json']);
    const lines = stdout.trim().split('\n');
    expect(lines.length).toBe(1);
    const tenant = JSON.parse(lines[0]);
    expect(tenant).toEqual({ tenant_id: expect.any(String), name: 'acme', api_key: expect.stringMatching(/^mem_sk_/) });

    const noAdmin = { MEMORY_DATA_DIR: dataDir, MEMORY_ADMIN_TOKEN: '' };
    server = await startServer('pglite', noAdmin);
    const api = new Api({ name: 'pglite', baseUrl: server.baseUrl, adminToken: '' }, tenant.api_key);

    // the admin API does not exist without a token
    const admin = await api.post('/v1/admin/tenants', { name: 'x' }, { authorization: 'Bearer anything-anything-anything' });
    expect(admin.status).toBe(404);

    // the CLI refuses a data directory a running server holds
    const locked = await cli(['tenant', 'create', '--name', 'other', '--json']).then(
      () => null,
      (err: { code: number; stderr: string }) => err,
    );
    expect(locked?.code).toBe(1);
    expect(locked?.stderr).toMatch(/held by a running process/);

    const body = { external_user_id: 'r1', messages: [{ role: 'user', content: 'I live in Oslo. I love skiing.' }] };
    const first = await api.post('/v1/memories/add', body, { 'idempotency-key': 'restart-key' });
    const job = await api.waitForJob(first.body.job_id);
    expect(job.status).toBe('completed');
    await server.stop();

    // a second server run without the worker: the job stays queued across the next restart
    server = await startServer('pglite', { ...noAdmin, MEMORY_EMBEDDED_WORKER: 'off' });
    const api2 = new Api({ name: 'pglite', baseUrl: server.baseUrl, adminToken: '' }, tenant.api_key);
    const replay = await api2.post('/v1/memories/add', body, { 'idempotency-key': 'restart-key' });
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const pending = await api2.post('/v1/memories/add', {
      external_user_id: 'r1',
      messages: [{ role: 'user', content: 'I have a cat named Miso.' }],
    });
    expect((await api2.get(`/v1/memories/jobs/${pending.body.job_id}`)).body.data.status).toBe('queued');
    await server.stop();

    server = await startServer('pglite', noAdmin);
    const api3 = new Api({ name: 'pglite', baseUrl: server.baseUrl, adminToken: '' }, tenant.api_key);
    expect((await api3.get(`/v1/memories/jobs/${first.body.job_id}`)).body.data).toMatchObject({ status: 'completed', memories_created: 2 });
    const resumed = await api3.waitForJob(pending.body.job_id);
    expect(resumed).toMatchObject({ status: 'completed', memories_created: 1 });
    const r = await api3.post('/v1/memories/retrieve', { external_user_id: 'r1', query: 'where does the user live, what does the user love, does the user have a cat?' });
    expect(r.body.data.map((m: any) => m.content).sort()).toEqual([
      'The user has a cat named Miso.',
      'The user lives in Oslo.',
      'The user loves skiing.',
    ]);
  });
});
