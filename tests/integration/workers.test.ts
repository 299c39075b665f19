/**
 * Worker processes (`npm run worker`, apps/worker) next to a web server that only accepts work
 * (MEMORY_EMBEDDED_WORKER=off), on a PostgreSQL database of their own: jobs wait for a worker, two workers share
 * the job table, and a worker killed with SIGKILL in the middle of a job loses it only until its short lease runs
 * out: another worker finishes it, once. The jobs call a local fake chat-completions server, so a job can be held
 * open on purpose (the model "thinks" until the test is done with the worker).
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { type FakeOpenAI, startFakeOpenAI } from '@memory/core/testing';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api } from './client';
import {
  ROOT,
  type RunningServer,
  type RunningWorker,
  type TestDatabase,
  createTestDatabase,
  startServer,
  startWorker as startWorkerProcess,
  tempDataDir,
} from './server';

const LEASE_SECONDS = '5';
let database: TestDatabase;
let dbUrl: string;
let sql: postgres.Sql;
let fake: FakeOpenAI;
let web: RunningServer;
let api: Api;
const workers: RunningWorker[] = [];

const llmEnv = () => ({
  MEMORY_EXTRACTOR: 'openai-chat',
  MEMORY_LLM_BASE_URL: fake.url,
  MEMORY_LLM_MODEL: 'fake-model',
  MEMORY_LLM_TIMEOUT_MS: '600000',
  MEMORY_LLM_MAX_RETRIES: '0',
});

/** A worker process with the test's defaults, stopped by afterAll. */
async function startWorker(env: Record<string, string>): Promise<RunningWorker> {
  const worker = await startWorkerProcess({ MEMORY_LOG_LEVEL: 'warn', MEMORY_JOB_POLL_MS: '50', ...env });
  workers.push(worker);
  return worker;
}

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const jobRows = (ids: string[]) =>
  sql<{ id: string; status: string; attempts: number; locked_by: string | null }[]>`
    SELECT id, status, attempts, locked_by FROM extraction_jobs WHERE id = ANY(${ids})`;

async function add(user: string, text: string): Promise<string> {
  const res = await api.post('/v1/memories/add', { external_user_id: user, messages: [{ role: 'user', content: text }] });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.job_id as string;
}

const memory = (content: string) => ({ content, category: 'preference', importance: 0.7, confidence: 0.9, message_indices: [0] });

beforeAll(async () => {
  database = await createTestDatabase('memory_workers');
  dbUrl = database.url;
  sql = postgres(dbUrl, { max: 2, onnotice: () => {} });
  fake = await startFakeOpenAI();
  // Every request the test does not script: one memory named after the request's order.
  fake.chat.whenEmpty(() => ({ answer: { memories: [memory(`The user likes drink number ${fake.requests.length}.`)] } }));
  web = await startServer('postgres', {
    DATABASE_URL: dbUrl,
    MEMORY_EMBEDDED_WORKER: 'off',
    MEMORY_JOB_LEASE_SECONDS: LEASE_SECONDS,
    // a backlog whose oldest job has waited over a second, with nothing finished, is `delayed`
    MEMORY_BACKLOG_DELAY_SECONDS: '1',
    MEMORY_BACKLOG_SAMPLE_MS: '0',
    ...llmEnv(),
  });
  const root = new Api({ name: 'postgres', baseUrl: web.baseUrl, adminToken: web.adminToken });
  api = root.withKey((await root.createTenant()).api_key);
}, 120_000);

afterAll(async () => {
  for (const w of workers) if (w.process.exitCode === null) w.process.kill('SIGKILL');
  await Promise.all(workers.map((w) => w.exited));
  await web?.stop();
  await fake?.close();
  await sql?.end();
  await database?.drop();
});

describe('worker processes', () => {
  it('refuses the embedded database: PGlite belongs to the web server that opened it', async () => {
    const dir = tempDataDir();
    const env: Record<string, string> = { ...(process.env as Record<string, string>), MEMORY_DATA_DIR: dir };
    delete env.DATABASE_URL;
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: path.join(ROOT, 'apps/worker'), env, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr?.on('data', (d) => (err += d));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dir, { recursive: true, force: true });
    expect(code).toBe(1);
    expect(err).toContain('needs PostgreSQL');
  });

  it('leaves jobs queued while no worker runs; two workers then complete them all, each once', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push(await add(`shared-${i % 6}`, `Conversation ${i}: I like a new drink.`));
    const ready = await fetch(`${web.baseUrl}/v1/health/ready`).then((r) => r.json());
    expect(ready.jobs).toMatchObject({ mode: 'embedded', runner: 'off' });
    expect(ready.jobs.backlog.depth).toBe(12);
    expect((await jobRows(ids)).map((r) => r.status)).toEqual(ids.map(() => 'queued'));
    // nobody works the queue: readiness and the next add say so
    await until('a delayed backlog', async () => {
      const r = await fetch(`${web.baseUrl}/v1/health/ready`).then((res) => res.json());
      return r.jobs.backlog.processing_status === 'delayed';
    });
    const late = await api.post('/v1/memories/add', { external_user_id: 'shared-0', messages: [{ role: 'user', content: 'I like a new drink too.' }] });
    expect(late.body).toMatchObject({ status: 'queued', processing_status: 'delayed' });
    ids.push(late.body.job_id);

    const a = await startWorker({ DATABASE_URL: dbUrl, MEMORY_JOB_LEASE_SECONDS: LEASE_SECONDS, ...llmEnv() });
    const b = await startWorker({ DATABASE_URL: dbUrl, MEMORY_JOB_LEASE_SECONDS: LEASE_SECONDS, ...llmEnv() });
    expect(a.id).not.toBe(b.id);
    const done = await until('all jobs done', async () => {
      const rows = await jobRows(ids);
      return rows.every((r) => r.status === 'completed') && rows;
    });
    expect(done.map((r) => r.attempts)).toEqual(ids.map(() => 1));
    // one model call per job: no job ran twice
    expect(fake.requests.filter((r) => r.path.endsWith('/chat/completions'))).toHaveLength(13);

    // SIGTERM: a worker finishes what it holds and exits 0
    b.process.kill('SIGTERM');
    expect(await b.exited).toBe(0);
  }, 120_000);

  it('a job whose worker is killed mid-job restarts on another worker once the short lease runs out, and is stored once', async () => {
    const [a] = workers;
    const before = fake.requests.length;
    // the model holds the first worker's call open far longer than the test runs
    fake.chat.push({ delayMs: 600_000, then: { answer: { memories: [memory('The user drinks oolong tea.')] } } });
    const jobId = await add('killed-mid-job', 'I drink oolong tea every morning.');
    await until('the job running on worker A, in the model call', async () => {
      const [row] = await jobRows([jobId]);
      return row.status === 'running' && row.locked_by === a.id && fake.requests.length > before;
    });
    a.process.kill('SIGKILL');
    await a.exited;
    fake.chat.push({ answer: { memories: [memory('The user drinks oolong tea.')] } });
    // worker C is the only one alive: it takes the job over once A's lease has run out
    await startWorker({ DATABASE_URL: dbUrl, MEMORY_JOB_LEASE_SECONDS: LEASE_SECONDS, ...llmEnv() });
    const job = await api.waitForJob(jobId, 60_000);
    expect(job.status).toBe('completed');
    const [row] = await jobRows([jobId]);
    expect(row).toMatchObject({ status: 'completed', attempts: 2 });
    expect(fake.requests.length - before).toBe(2);
    expect(fake.chat.pending).toBe(0);
    const list = await api.get('/v1/memories?external_user_id=killed-mid-job');
    expect(list.status).toBe(200);
    expect(list.body.data.items.map((m: { content: string }) => m.content)).toEqual(['The user drinks oolong tea.']);
  }, 120_000);
});
