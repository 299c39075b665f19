/**
 * MEMORY_EXTRACTOR=openai-chat in a real server (apps/web/server.ts, embedded PGlite), against a local fake
 * chat-completions server in this process: the model's memories and token usage reach the job and the
 * memory list; a model that only answers nonsense costs the job its retries and then the built-in
 * extractor takes over, so the conversation is not lost.
 */
import { rmSync } from 'node:fs';
import { type FakeOpenAI, startFakeOpenAI } from '@memory/core/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Api } from './client';
import { type RunningServer, startServer, tempDataDir } from './server';

const dataDir = tempDataDir();
let fake: FakeOpenAI;
let server: RunningServer;
let api: Api;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  server = await startServer('pglite', {
    MEMORY_DATA_DIR: dataDir,
    MEMORY_EXTRACTOR: 'openai-chat',
    MEMORY_LLM_BASE_URL: fake.url,
    MEMORY_LLM_MODEL: 'fake-model',
    MEMORY_LLM_API_KEY: 'sk-integration',
    MEMORY_LLM_MAX_RETRIES: '1',
    MEMORY_LLM_TIMEOUT_MS: '10000',
    MEMORY_JOB_MAX_ATTEMPTS: '2',
    MEMORY_JOB_BACKOFF_BASE_MS: '20',
  });
  const admin = new Api({ name: 'pglite', baseUrl: server.baseUrl, adminToken: server.adminToken });
  api = admin.withKey((await admin.createTenant()).api_key);
  // a source with an observed_at needs a registered writer
  const writer = await api.post('/v1/tenant/service-writers', {
    service_key: 'chat',
    display_name: 'Chat',
    authority_rules: { default_priority: 50, categories: {} },
  });
  expect(writer.status).toBe(201);
});

afterAll(async () => {
  await server?.stop();
  await fake?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

afterEach(() => {
  expect(fake.chat.pending).toBe(0);
  fake.requests.length = 0;
  fake.chat.whenEmpty({ answer: { memories: [] } });
});

const MESSAGES = [
  { role: 'user', content: "I'm a vegetarian and I live in Lisbon. Yesterday I adopted a cat called Miso." },
  { role: 'assistant', content: 'Congratulations on Miso!' },
];

async function memoryContents(userId: string): Promise<string[]> {
  const list = await api.get(`/v1/memories?external_user_id=${userId}`);
  expect(list.status).toBe(200);
  return list.body.data.items.map((m: { content: string }) => m.content).sort();
}

describe('an OpenAI-compatible extraction provider', () => {
  it('extracts with the model and reports its provider and token usage on the job', async () => {
    fake.chat.push({
      answer: {
        memories: [
          { content: 'The user follows a vegetarian diet.', category: 'fact', importance: 0.85, confidence: 0.9, message_indices: [0] },
          { content: 'The user lives in Lisbon.', category: 'fact', importance: 0.8, confidence: 0.9, message_indices: [0], claim: { subject: 'residence', value: 'Lisbon' } },
          { content: 'The user adopted a cat called Miso on 2026-03-14.', category: 'event', importance: 0.6, confidence: 0.9, message_indices: [0, 1] },
        ],
      },
      usage: { prompt_tokens: 812, completion_tokens: 121, total_tokens: 933 },
    });
    const add = await api.post('/v1/memories/add', {
      external_user_id: 'llm-1',
      messages: MESSAGES,
      source: { service: 'chat', event_id: 'conv-1', observed_at: '2026-03-15T09:00:00Z' },
    });
    expect(add.status).toBe(200);
    const job = await api.waitForJob(add.body.job_id);
    expect(job).toMatchObject({
      status: 'completed',
      attempts: 1,
      memories_created: 3,
      provider: 'openai-chat:fake-model',
      token_usage: { prompt_tokens: 812, completion_tokens: 121, total_tokens: 933, calls: 1 },
      error: null,
    });
    expect(job.extraction_metadata.provider).toBe('openai-chat:fake-model');
    expect(job.extraction_metadata).not.toHaveProperty('fallback_from');
    expect(await memoryContents('llm-1')).toEqual([
      'The user adopted a cat called Miso on 2026-03-14.',
      'The user follows a vegetarian diet.',
      'The user lives in Lisbon.',
    ]);

    // what the model server saw: the key, the contract, the conversation and its date
    expect(fake.requests).toHaveLength(1);
    const [req] = fake.requests;
    expect(req.headers.authorization).toBe('Bearer sk-integration');
    expect(req.body.model).toBe('fake-model');
    expect(req.body.response_format).toEqual({ type: 'json_object' });
    expect(req.body.messages[1].content).toContain('Conversation date: 2026-03-15');
    expect(req.body.messages[1].content).toContain('adopted a cat called Miso');
  });

  it('falls back to the built-in extractor when the model keeps answering malformed output', async () => {
    fake.chat.whenEmpty({ answer: '{"memories": [ {"content": "The user is veg', usage: { prompt_tokens: 90, completion_tokens: 10, total_tokens: 100 } });
    const add = await api.post('/v1/memories/add', { external_user_id: 'llm-2', messages: MESSAGES });
    const job = await api.waitForJob(add.body.job_id);
    expect(job).toMatchObject({
      status: 'completed',
      // MEMORY_JOB_MAX_ATTEMPTS=2: the first attempt fails and is retried, the second falls back
      attempts: 2,
      error: null,
      provider: 'builtin',
      // two calls per attempt (MEMORY_LLM_MAX_RETRIES=1), all of them counted
      token_usage: { prompt_tokens: 360, completion_tokens: 40, total_tokens: 400, calls: 4 },
      extraction_metadata: { provider: 'builtin', fallback_from: 'openai-chat:fake-model', fallback_reason: 'malformed_output' },
    });
    expect(fake.requests).toHaveLength(4);
    expect(await memoryContents('llm-2')).toEqual(
      expect.arrayContaining(['The user is a vegetarian.', 'The user lives in Lisbon.']),
    );
  });

  it('documents provider and token_usage in the OpenAPI job schema', async () => {
    const doc = await new Api({ name: 'pglite', baseUrl: server.baseUrl, adminToken: '' }).get('/v1/openapi.json');
    const job = doc.body.components.schemas.ExtractionJob;
    expect(job.required).toEqual(expect.arrayContaining(['provider', 'token_usage']));
    expect(Object.keys(job.properties.token_usage.anyOf?.[0]?.properties ?? job.properties.token_usage.properties ?? {})).toEqual([
      'prompt_tokens',
      'completion_tokens',
      'total_tokens',
      'calls',
    ]);
  });
});
