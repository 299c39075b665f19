/** The chat-completions extraction provider against a local fake server (testing/fake-openai.ts). */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ProviderCallError } from '../llm/openai-compatible';
import { type FakeOpenAI, routeOf, startFakeOpenAI } from '../testing/fake-openai';
import { OpenAIChatExtractor, type OpenAIChatOptions } from './openai-chat';
import type { ExtractionInput } from './types';

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(async () => fake.close());
afterEach(() => {
  fake.requests.length = 0;
  expect(fake.chat.pending).toBe(0);
  fake.chat.whenEmpty({ answer: { memories: [] } });
});

const input: ExtractionInput = {
  messages: [
    { role: 'user', content: "I'm vegetarian. My sister Ana moved to Porto yesterday.", name: 'Rui' } as ExtractionInput['messages'][0],
    { role: 'assistant', content: 'Nice! How is she finding it?' },
  ],
  observedAt: new Date('2026-03-15T10:30:00Z'),
};

const GOOD = {
  memories: [
    { content: 'The user is vegetarian.', category: 'fact', importance: 0.85, confidence: 0.9, message_indices: [0], claim: { subject: 'diet', value: 'vegetarian' } },
    { content: "The user's sister Ana moved to Porto on 2026-03-14.", category: 'relationship', importance: 0.8, confidence: 0.9, message_indices: [0] },
  ],
};

function provider(over: Partial<OpenAIChatOptions> = {}) {
  return new OpenAIChatExtractor({
    baseUrl: fake.url,
    model: 'fake-model',
    apiKey: null,
    apiStyle: 'openai',
    azureApiVersion: '2024-10-21',
    timeoutMs: 2_000,
    maxRetries: 2,
    temperature: 0,
    retryBaseMs: 1,
    ...over,
  });
}

async function failure(p: OpenAIChatExtractor): Promise<ProviderCallError> {
  const err = await p.extract(input).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProviderCallError);
  return err as ProviderCallError;
}

describe('OpenAIChatExtractor', () => {
  it('sends the contract and the conversation, and returns validated memories with token usage', async () => {
    fake.chat.push({ answer: GOOD, usage: { prompt_tokens: 410, completion_tokens: 95, total_tokens: 505 } });
    const result = await provider().extract(input);
    expect(result.memories).toEqual([
      {
        content: 'The user is vegetarian.',
        category: 'fact',
        importance: 0.85,
        confidence: 0.9,
        messageIndices: [0],
        claim: { subject: 'diet', value: 'vegetarian', display: 'vegetarian', negated: false },
      },
      { content: "The user's sister Ana moved to Porto on 2026-03-14.", category: 'relationship', importance: 0.8, confidence: 0.9, messageIndices: [0] },
    ]);
    expect(result.metadata).toMatchObject({ provider: 'openai-chat:fake-model', memories_proposed: 2, skipped: {} });
    expect(result.usage).toEqual({ prompt_tokens: 410, completion_tokens: 95, total_tokens: 505, calls: 1 });

    expect(fake.requests).toHaveLength(1);
    const [req] = fake.requests;
    expect(routeOf(req)).toEqual({ path: '/v1/chat/completions', apiVersion: null, apiKey: null, authorization: null });
    expect(req.body).toMatchObject({ model: 'fake-model', response_format: { type: 'json_object' }, temperature: 0 });
    const [system, user] = req.body.messages;
    expect(system.role).toBe('system');
    expect(system.content).toMatch(/JSON/);
    expect(system.content).toMatch(/fact, preference, goal, expertise, relationship, procedure, event/);
    expect(user.content).toContain('Conversation date: 2026-03-15 (Sunday), 10:30 UTC');
    const sent = JSON.parse(user.content.slice(user.content.indexOf('[')));
    expect(sent).toEqual([
      { index: 0, role: 'user', name: 'Rui', content: "I'm vegetarian. My sister Ana moved to Porto yesterday." },
      { index: 1, role: 'assistant', content: 'Nice! How is she finding it?' },
    ]);
  });

  it('sends a bearer key when one is configured, and no temperature when told', async () => {
    fake.chat.push({ answer: GOOD });
    await provider({ apiKey: 'sk-test-123', temperature: null }).extract(input);
    expect(routeOf(fake.requests[0])).toMatchObject({ apiKey: null, authorization: 'Bearer sk-test-123' });
    expect(fake.requests[0].body).not.toHaveProperty('temperature');
  });

  it('speaks the Azure style: deployment path, api-version and api-key header', async () => {
    fake.chat.push({ answer: GOOD });
    const p = provider({ baseUrl: fake.origin, model: 'mem-gpt4o', apiStyle: 'azure', azureApiVersion: '2024-06-01', apiKey: 'az-key' });
    const result = await p.extract(input);
    expect(result.memories).toHaveLength(2);
    expect(routeOf(fake.requests[0])).toEqual({
      path: '/openai/deployments/mem-gpt4o/chat/completions',
      apiVersion: '2024-06-01',
      apiKey: 'az-key',
      authorization: null,
    });
  });

  it('reads JSON from a fenced block when the server ignores response_format', async () => {
    fake.chat.push({ answer: `Here are the memories:\n\`\`\`json\n${JSON.stringify(GOOD)}\n\`\`\`` });
    const result = await provider().extract(input);
    expect(result.memories.map((m) => m.category)).toEqual(['fact', 'relationship']);
    expect(fake.requests).toHaveLength(1);
  });

  it('retries malformed output and sums the usage of every call', async () => {
    fake.chat.push(
      { answer: '{"memories": [ {"content": "The user', usage: { prompt_tokens: 100, completion_tokens: 7, total_tokens: 107 } },
      { answer: { memories: [{ content: 'x', category: 'nonsense' }] }, usage: { prompt_tokens: 100, completion_tokens: 9, total_tokens: 109 } },
      { answer: GOOD, usage: { prompt_tokens: 100, completion_tokens: 50, total_tokens: 150 } },
    );
    const result = await provider().extract(input);
    expect(result.memories).toHaveLength(2);
    expect(result.usage).toEqual({ prompt_tokens: 300, completion_tokens: 66, total_tokens: 366, calls: 3 });
  });

  it('gives up after maxRetries with malformed_output, carrying the tokens spent', async () => {
    fake.chat.whenEmpty({ answer: 'no JSON here, sorry', usage: { prompt_tokens: 50, completion_tokens: 5, total_tokens: 55 } });
    const err = await failure(provider({ maxRetries: 1 }));
    expect(err.reason).toBe('malformed_output');
    expect(err.permanent).toBe(false);
    expect(err.usage).toEqual({ prompt_tokens: 100, completion_tokens: 10, total_tokens: 110, calls: 2 });
    expect(fake.requests).toHaveLength(2);
  });

  it('treats an answer without message content, or a body that is not JSON, as unusable', async () => {
    fake.chat.push({ status: 200, body: { choices: [{ message: { role: 'assistant', content: null } }] } });
    expect((await failure(provider({ maxRetries: 0 }))).reason).toBe('malformed_output');
    fake.chat.push({ rawBody: '<html>oops' });
    const err = await failure(provider({ maxRetries: 0 }));
    expect(err.reason).toBe('malformed_response');
    expect(err.permanent).toBe(false);
    expect(fake.requests).toHaveLength(2);
  });

  it('retries 429 and 5xx, then succeeds', async () => {
    fake.chat.push({ status: 429, headers: { 'retry-after': '0' } }, { status: 503 }, { answer: GOOD });
    const result = await provider().extract(input);
    expect(result.memories).toHaveLength(2);
    expect(result.usage?.calls).toBe(3);
  });

  it('reports the last HTTP status when the retries are used up', async () => {
    fake.chat.whenEmpty({ status: 500 });
    const err = await failure(provider({ maxRetries: 2 }));
    expect(err.reason).toBe('http_500');
    expect(err.permanent).toBe(false);
    expect(fake.requests).toHaveLength(3);
  });

  it('does not retry a permanent refusal (bad key, unknown model)', async () => {
    fake.chat.push({ status: 401, body: { error: { message: 'Incorrect API key provided: sk-test-123' } } });
    const err = await failure(provider({ apiKey: 'sk-test-123' }));
    expect(err.reason).toBe('http_401');
    expect(err.permanent).toBe(true);
    // the response body (which may quote the key or the prompt) is never part of the error
    expect(err.message).not.toContain('sk-test-123');
    expect(fake.requests).toHaveLength(1);
    fake.chat.push({ status: 404 });
    expect((await failure(provider())).reason).toBe('http_404');
  });

  it('times out a slow answer and retries it', async () => {
    fake.chat.push({ delayMs: 1_500, then: { answer: GOOD } }, { answer: GOOD });
    const result = await provider({ timeoutMs: 200 }).extract(input);
    expect(result.memories).toHaveLength(2);
    expect(fake.requests).toHaveLength(2);
  });

  it('fails with timeout when every answer is too slow', async () => {
    fake.chat.whenEmpty({ delayMs: 1_500, then: { answer: GOOD } });
    const err = await failure(provider({ timeoutMs: 150, maxRetries: 1 }));
    expect(err.reason).toBe('timeout');
    expect(err.usage?.calls).toBe(2);
  });

  it('reports a dropped connection or an unreachable server as network_error', async () => {
    fake.chat.whenEmpty({ hangUp: true });
    expect((await failure(provider({ maxRetries: 0 }))).reason).toBe('network_error');
    expect((await failure(provider({ baseUrl: 'http://127.0.0.1:9/v1', maxRetries: 0 }))).reason).toBe('network_error');
  });

  it('logs retries without prompts, answers, memory content or the key', async () => {
    const lines: unknown[] = [];
    const log = { warn: (obj: unknown, msg: string) => lines.push([obj, msg]) } as unknown as OpenAIChatOptions['log'];
    fake.chat.push({ answer: 'The user is vegetarian, trust me' }, { status: 502 }, { answer: GOOD });
    await provider({ apiKey: 'sk-secret-999', log }).extract(input);
    expect(lines).toHaveLength(2);
    const text = JSON.stringify(lines);
    expect(text).toContain('malformed_output');
    expect(text).toContain('http_502');
    for (const secret of ['sk-secret-999', 'vegetarian', 'Porto', 'Ana']) expect(text).not.toContain(secret);
  });
});
