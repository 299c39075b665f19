/**
 * An LLM extraction provider inside real jobs (PGlite, the embedded runner and the Inngest function), against
 * a local fake chat-completions server: memories, provider and token usage on the job; retries of malformed
 * output through the job's own retries; the built-in fallback on the last attempt or a permanent failure.
 */
import { BuiltinExtractor, type ExtractionProvider, OpenAIChatExtractor, getJobView } from '@memory/core';
import { type FakeOpenAI, startFakeOpenAI } from '@memory/core/testing';
import { type Database, eq, extractionJobs, memories, sql } from '@memory/db';
import { InngestTestEngine, mockCtx } from '@inngest/test';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EXTRACTION_REQUESTED, type JobDeps, runExtraction } from './extraction';
import { createExtractionFunction, createInngestClient } from './inngest';
import { EmbeddedRunner } from './runner';
import { openTestDatabase, queueConversation } from './test-support';

let database: Database;
let fake: FakeOpenAI;
beforeAll(async () => {
  [database, fake] = await Promise.all([openTestDatabase(), startFakeOpenAI()]);
}, 60_000);
afterAll(async () => {
  await fake.close();
  await database.close();
});
afterEach(() => {
  expect(fake.chat.pending).toBe(0);
  fake.requests.length = 0;
  fake.chat.whenEmpty({ answer: { memories: [] } });
});

const CONVERSATION = "I'm a vegetarian and I live in Lisbon.";
const USAGE = { prompt_tokens: 200, completion_tokens: 40, total_tokens: 240 };
const MALFORMED = { answer: 'Sure! Here are the memories: - vegetarian - Lisbon', usage: { prompt_tokens: 50, completion_tokens: 5, total_tokens: 55 } };

function llm(over: { timeoutMs?: number } = {}): ExtractionProvider {
  return new OpenAIChatExtractor({
    baseUrl: fake.url,
    model: 'fake-model',
    apiKey: 'sk-test',
    apiStyle: 'openai',
    azureApiVersion: '2024-10-21',
    timeoutMs: over.timeoutMs ?? 5_000,
    maxRetries: 1,
    temperature: 0,
    retryBaseMs: 1,
  });
}

const deps = (extractor = llm()): JobDeps => ({ db: database.db, extractor, fallback: new BuiltinExtractor() });
// A long backoff, so a retry never comes due inside the same drain(); the tests make it due instead.
const runner = (d = deps()) => new EmbeddedRunner(d, { pollMs: 20, leaseSeconds: 30, backoffBaseMs: 60_000 });
const makeDue = (jobId: string) => database.db.update(extractionJobs).set({ runAfter: sql`now()` }).where(eq(extractionJobs.id, jobId));

async function contentsOf(jobId: string) {
  const rows = await database.db.select().from(memories).where(eq(memories.jobId, jobId));
  return rows.map((m) => m.content).sort();
}

describe('an LLM provider in the embedded runner', () => {
  it('stores the memories the model found, and records the provider and token usage on the job', async () => {
    const { auth, jobId } = await queueConversation(database, CONVERSATION);
    fake.chat.push({
      answer: {
        memories: [
          { content: 'The user follows a vegetarian diet.', category: 'fact', importance: 0.85, confidence: 0.9, message_indices: [0] },
          { content: 'The user lives in Lisbon.', category: 'fact', importance: 0.8, confidence: 0.9, message_indices: [0], claim: { subject: 'residence', value: 'Lisbon' } },
        ],
      },
      usage: USAGE,
    });
    expect(await runner().drain()).toBe(1);
    const view = await getJobView(database.db, auth.tenantId, jobId);
    expect(view).toMatchObject({
      status: 'completed',
      attempts: 1,
      memories_created: 2,
      provider: 'openai-chat:fake-model',
      token_usage: { ...USAGE, calls: 1 },
    });
    expect(view?.extraction_metadata.provider).toBe('openai-chat:fake-model');
    expect(view?.extraction_metadata).not.toHaveProperty('fallback_from');
    expect(await contentsOf(jobId)).toEqual(['The user follows a vegetarian diet.', 'The user lives in Lisbon.']);
    const [row] = await database.db.select().from(memories).where(eq(memories.content, 'The user lives in Lisbon.'));
    expect([row.subject, row.claimValue]).toEqual(['residence', 'lisbon']);
    expect(fake.requests[0].headers.authorization).toBe('Bearer sk-test');
  });

  it('retries malformed output through the job retries, then falls back to the built-in extractor on the last attempt', async () => {
    const { auth, jobId } = await queueConversation(database, CONVERSATION, 'malformed-user');
    fake.chat.whenEmpty(MALFORMED);
    const r = runner();
    expect(await r.drain()).toBe(1);
    let view = await getJobView(database.db, auth.tenantId, jobId);
    // attempt 1 of 3 (test-support sets MEMORY_JOB_MAX_ATTEMPTS=3): two calls (maxRetries 1), then a job retry
    expect(view).toMatchObject({ status: 'queued', attempts: 1, provider: null, token_usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110, calls: 2 } });
    expect(view?.error).toMatch(/^ProviderCallError: malformed_output/);
    expect(await contentsOf(jobId)).toEqual([]);

    for (let i = 0; i < 2; i++) {
      await makeDue(jobId);
      await r.drain();
    }
    view = await getJobView(database.db, auth.tenantId, jobId);
    expect(view).toMatchObject({
      status: 'completed',
      attempts: 3,
      error: null,
      provider: 'builtin',
      // every call the job paid for, over its three attempts
      token_usage: { prompt_tokens: 300, completion_tokens: 30, total_tokens: 330, calls: 6 },
    });
    expect(view?.extraction_metadata).toMatchObject({
      provider: 'builtin',
      fallback_from: 'openai-chat:fake-model',
      fallback_reason: 'malformed_output',
    });
    expect(await contentsOf(jobId)).toEqual(['The user is a vegetarian.', 'The user lives in Lisbon.']);
    expect(fake.requests).toHaveLength(6);
  });

  it('falls back at once when the failure is permanent (a rejected key)', async () => {
    const { auth, jobId } = await queueConversation(database, CONVERSATION, 'bad-key-user');
    fake.chat.push({ status: 401 });
    expect(await runner().drain()).toBe(1);
    const view = await getJobView(database.db, auth.tenantId, jobId);
    expect(view).toMatchObject({
      status: 'completed',
      attempts: 1,
      provider: 'builtin',
      token_usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, calls: 1 },
      extraction_metadata: { fallback_from: 'openai-chat:fake-model', fallback_reason: 'http_401' },
    });
    expect(fake.requests).toHaveLength(1);
  });

  it('without a fallback, a failing provider leaves the job to its retries and it ends dead', async () => {
    const { auth, jobId } = await queueConversation(database, CONVERSATION, 'no-fallback-user');
    fake.chat.whenEmpty({ status: 503 });
    const r = runner({ db: database.db, extractor: llm() });
    await r.drain();
    for (let i = 0; i < 2; i++) {
      await makeDue(jobId);
      await r.drain();
    }
    const view = await getJobView(database.db, auth.tenantId, jobId);
    expect(view).toMatchObject({ status: 'dead', attempts: 3, provider: null, token_usage: { calls: 6 } });
    expect(view?.error_summary).toMatch(/gave up after 3 attempts; last error: ProviderCallError: http_503/);
  });
});

describe('runExtraction with explicit attempt numbers', () => {
  const direct = { run: async <T>(_id: string, fn: () => Promise<T> | T) => fn() };

  it('throws a timeout before the last attempt and falls back on it', async () => {
    const { auth, jobId } = await queueConversation(database, 'I work as a nurse.', 'slow-user');
    fake.chat.whenEmpty({ delayMs: 2_000, then: { answer: { memories: [] } } });
    const d = deps(llm({ timeoutMs: 100 }));
    await expect(runExtraction(jobId, direct, d, { attempt: 1, maxAttempts: 2 })).rejects.toThrow(/^timeout: /);
    const summary = await runExtraction(jobId, direct, d, { attempt: 2, maxAttempts: 2 });
    expect(summary).toEqual({ status: 'completed', memories_created: 1, memories_reinforced: 0, passages_indexed: 1 });
    const view = await getJobView(database.db, auth.tenantId, jobId);
    expect(view?.extraction_metadata).toMatchObject({ fallback_reason: 'timeout', provider: 'builtin' });
    expect(view?.token_usage).toEqual({ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, calls: 4 });
  });

  it('falls back from a provider that throws something else, naming no detail', async () => {
    const { auth, jobId } = await queueConversation(database, 'I speak French.', 'odd-user');
    const odd: ExtractionProvider = {
      name: 'odd',
      extract: async () => {
        throw new Error('something private happened');
      },
    };
    await runExtraction(jobId, direct, deps(odd), { attempt: 5, maxAttempts: 5 });
    const view = await getJobView(database.db, auth.tenantId, jobId);
    expect(view).toMatchObject({ status: 'completed', provider: 'builtin', token_usage: null });
    expect(view?.extraction_metadata).toMatchObject({ fallback_from: 'odd', fallback_reason: 'provider_error' });
  });
});

describe('an LLM provider in the Inngest function', () => {
  async function execute(jobId: string, tenantId: string, attempt: number) {
    const fn = createExtractionFunction(createInngestClient(), async () => deps());
    const t = new InngestTestEngine({
      function: fn,
      events: [{ name: EXTRACTION_REQUESTED, data: { job_id: jobId, tenant_id: tenantId, user_id: 'x' } }],
      transformCtx: (raw) => ({ ...mockCtx(raw), attempt }),
    });
    return t.execute();
  }

  it('fails the step on an early attempt and falls back on Inngest’s last one', async () => {
    const { auth, jobId } = await queueConversation(database, CONVERSATION, 'inngest-user');
    fake.chat.whenEmpty(MALFORMED);
    const first = await execute(jobId, auth.tenantId, 0);
    expect(first.error).toBeDefined();
    let view = await getJobView(database.db, auth.tenantId, jobId);
    expect(view).toMatchObject({ status: 'queued', token_usage: { calls: 2 } });

    // Inngest's fifth attempt (0-based 4) is its last: 4 retries
    const last = await execute(jobId, auth.tenantId, 4);
    expect(last.error).toBeUndefined();
    expect(last.result).toEqual({ status: 'completed', memories_created: 2, memories_reinforced: 0, passages_indexed: 1 });
    view = await getJobView(database.db, auth.tenantId, jobId);
    expect(view).toMatchObject({
      status: 'completed',
      provider: 'builtin',
      token_usage: { calls: 4 },
      extraction_metadata: { fallback_from: 'openai-chat:fake-model', fallback_reason: 'malformed_output' },
    });
  });
});
