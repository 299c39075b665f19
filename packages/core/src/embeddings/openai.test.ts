/** The embeddings client against a local fake server (testing/fake-openai.ts). */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { ProviderCallError } from '../llm/openai-compatible';
import { type FakeOpenAI, fakeVector, routeOf, startFakeOpenAI } from '../testing/fake-openai';
import { OpenAIEmbeddings, type OpenAIEmbeddingsOptions, createEmbeddingsProvider } from './openai';

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI({ dimensions: 4 });
});
afterAll(async () => fake.close());
afterEach(() => {
  fake.requests.length = 0;
  expect(fake.embeddings.pending).toBe(0);
});

function client(over: Partial<OpenAIEmbeddingsOptions> = {}) {
  return new OpenAIEmbeddings({
    baseUrl: fake.url,
    model: 'fake-embed',
    apiKey: null,
    apiStyle: 'openai',
    azureApiVersion: '2024-10-21',
    timeoutMs: 2_000,
    maxRetries: 2,
    dimensions: null,
    batchSize: 64,
    retryBaseMs: 1,
    ...over,
  });
}

const f32 = (v: number[]) => Float32Array.from(v);

describe('OpenAIEmbeddings', () => {
  it('embeds in batches, in input order, and sums the usage', async () => {
    const texts = ['alpha', 'beta gamma', 'delta', 'epsilon', 'zeta eta theta'];
    const c = client({ batchSize: 2, apiKey: 'sk-emb' });
    expect(c.dimensions).toBeNull();
    const { vectors, usage } = await c.embedWithUsage(texts);
    expect(vectors).toEqual(texts.map((t) => f32(fakeVector(t, 4))));
    expect(usage).toEqual({ prompt_tokens: 8, completion_tokens: 0, total_tokens: 8, calls: 3 });
    expect(c.dimensions).toBe(4);
    expect(c.name).toBe('openai-embeddings:fake-embed');
    expect(fake.requests.map((r) => r.body)).toEqual([
      { model: 'fake-embed', input: ['alpha', 'beta gamma'] },
      { model: 'fake-embed', input: ['delta', 'epsilon'] },
      { model: 'fake-embed', input: ['zeta eta theta'] },
    ]);
    expect(fake.requests.every((r) => r.path === '/v1/embeddings' && r.headers.authorization === 'Bearer sk-emb')).toBe(true);
  });

  it('makes no request for no texts', async () => {
    expect(await client().embed([])).toEqual([]);
    expect(fake.requests).toHaveLength(0);
  });

  it('puts vectors back in input order by their index', async () => {
    fake.embeddings.push({ vectors: [[1, 0], [0, 1], [1, 1]], shuffle: true });
    expect(await client().embed(['a', 'b', 'c'])).toEqual([f32([1, 0]), f32([0, 1]), f32([1, 1])]);
  });

  it('speaks the Azure style', async () => {
    const c = client({ baseUrl: fake.origin, model: 'emb-deploy', apiStyle: 'azure', apiKey: 'az-emb', azureApiVersion: '2024-06-01' });
    await c.embed(['x']);
    expect(routeOf(fake.requests[0])).toEqual({
      path: '/openai/deployments/emb-deploy/embeddings',
      apiVersion: '2024-06-01',
      apiKey: 'az-emb',
      authorization: null,
    });
  });

  it('retries 429, 5xx, slow and malformed answers', async () => {
    fake.embeddings.push(
      { status: 429, headers: { 'retry-after': '0' } },
      { status: 502 },
      { vectors: [[1, 2]] }, // one vector for two texts
      { vectors: [[1, 2], [3, 'x' as unknown as number]] },
      { delayMs: 1_000, then: { vectors: [[0, 0], [0, 0]] } },
      { vectors: [[1, 2], [3, 4]] },
    );
    expect(await client({ maxRetries: 5, timeoutMs: 200 }).embed(['a', 'b'])).toEqual([f32([1, 2]), f32([3, 4])]);
    expect(fake.requests).toHaveLength(6);
  });

  it('gives up with the last reason and the usage spent', async () => {
    fake.embeddings.push({ status: 503 }, { status: 503 });
    const err = (await client({ maxRetries: 1 })
      .embed(['a'])
      .catch((e) => e)) as ProviderCallError;
    expect(err).toBeInstanceOf(ProviderCallError);
    expect(err.reason).toBe('http_503');
    expect(err.usage?.calls).toBe(2);
  });

  it('rejects vectors of another length than configured, without retrying', async () => {
    const c = client({ dimensions: 3 });
    expect(c.dimensions).toBe(3);
    const err = (await c.embed(['a']).catch((e) => e)) as ProviderCallError;
    expect(err.reason).toBe('dimension_mismatch');
    expect(err.permanent).toBe(true);
    expect(fake.requests).toHaveLength(1);
  });

  it('is built from configuration only when an endpoint is configured', () => {
    expect(createEmbeddingsProvider(loadConfig({}))).toBeNull();
    const c = createEmbeddingsProvider(
      loadConfig({ MEMORY_EMBEDDINGS_BASE_URL: fake.url, MEMORY_EMBEDDINGS_MODEL: 'nomic-embed-text', MEMORY_EMBEDDINGS_DIMENSIONS: '768' }),
    );
    expect(c?.name).toBe('openai-embeddings:nomic-embed-text');
    expect(c?.dimensions).toBe(768);
  });
});
