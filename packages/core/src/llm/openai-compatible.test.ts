import { describe, expect, it } from 'vitest';
import { ProviderCallError, UsageMeter, addTokenUsage, endpointHeaders, endpointUrl, withRetries } from './openai-compatible';

const openai = { baseUrl: 'http://127.0.0.1:11434/v1/', model: 'llama3.1', apiStyle: 'openai' as const, azureApiVersion: '2024-10-21' };
const azure = { baseUrl: 'https://acme.openai.azure.com', model: 'gpt-4o-mini prod', apiStyle: 'azure' as const, azureApiVersion: '2024-10-21' };

describe('endpoints', () => {
  it('appends the operation to an OpenAI-style base URL', () => {
    expect(endpointUrl(openai, 'chat/completions')).toBe('http://127.0.0.1:11434/v1/chat/completions');
    expect(endpointUrl(openai, 'embeddings')).toBe('http://127.0.0.1:11434/v1/embeddings');
  });

  it('builds the Azure deployment URL with the api-version, or keeps a base that already names the deployment', () => {
    expect(endpointUrl(azure, 'chat/completions')).toBe(
      'https://acme.openai.azure.com/openai/deployments/gpt-4o-mini%20prod/chat/completions?api-version=2024-10-21',
    );
    expect(endpointUrl({ ...azure, baseUrl: 'https://acme.openai.azure.com/openai/deployments/emb/' }, 'embeddings')).toBe(
      'https://acme.openai.azure.com/openai/deployments/emb/embeddings?api-version=2024-10-21',
    );
  });

  it('sends a bearer token only when a key is configured, and Azure keys as api-key', () => {
    expect(endpointHeaders({ apiKey: null, apiStyle: 'openai' })).not.toHaveProperty('authorization');
    expect(endpointHeaders({ apiKey: 'sk-1', apiStyle: 'openai' }).authorization).toBe('Bearer sk-1');
    const az = endpointHeaders({ apiKey: 'az-1', apiStyle: 'azure' });
    expect(az['api-key']).toBe('az-1');
    expect(az).not.toHaveProperty('authorization');
  });
});

describe('withRetries', () => {
  const noSleep = { sleep: async () => {} };

  it('retries retryable failures up to maxRetries, then throws the last one', async () => {
    let calls = 0;
    const err = await withRetries({ maxRetries: 2, baseDelayMs: 1, ...noSleep }, async () => {
      calls++;
      throw new ProviderCallError('http_503', 'down');
    }).catch((e) => e);
    expect(calls).toBe(3);
    expect(err).toBeInstanceOf(ProviderCallError);
    expect(err.reason).toBe('http_503');
  });

  it('does not retry a permanent failure or an unexpected error', async () => {
    let calls = 0;
    await expect(
      withRetries({ maxRetries: 5, baseDelayMs: 1, ...noSleep }, async () => {
        calls++;
        throw new ProviderCallError('http_401', 'bad key', { permanent: true });
      }),
    ).rejects.toThrow(/http_401/);
    expect(calls).toBe(1);
    await expect(
      withRetries({ maxRetries: 5, baseDelayMs: 1, ...noSleep }, async () => {
        calls++;
        throw new TypeError('bug');
      }),
    ).rejects.toThrow(TypeError);
    expect(calls).toBe(2);
  });

  it('waits at least what Retry-After asks, within the cap, and returns the first success', async () => {
    const waits: number[] = [];
    let calls = 0;
    const value = await withRetries({ maxRetries: 3, baseDelayMs: 10, maxDelayMs: 5_000, sleep: async (ms) => void waits.push(ms) }, async () => {
      calls++;
      if (calls === 1) throw new ProviderCallError('http_429', 'slow down', { retryAfterMs: 2_000 });
      if (calls === 2) throw new ProviderCallError('http_429', 'slow down', { retryAfterMs: 60_000 });
      return 'ok';
    });
    expect(value).toBe('ok');
    expect(waits[0]).toBeGreaterThanOrEqual(2_000);
    expect(waits[1]).toBe(5_000);
  });
});

describe('token usage', () => {
  it('sums usage over calls, counting calls without usage, and derives a missing total', () => {
    const meter = new UsageMeter();
    meter.record({ prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 });
    meter.record(undefined);
    meter.record({ prompt_tokens: 7, completion_tokens: 3 });
    meter.record({ prompt_tokens: -4, completion_tokens: 'x' });
    expect(meter.snapshot()).toEqual({ prompt_tokens: 17, completion_tokens: 8, total_tokens: 25, calls: 4 });
  });

  it('adds usage records, reading missing ones and the row default {} as zero', () => {
    expect(addTokenUsage({}, { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3, calls: 1 })).toEqual({
      prompt_tokens: 1,
      completion_tokens: 2,
      total_tokens: 3,
      calls: 1,
    });
    expect(addTokenUsage(null, undefined)).toEqual({ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, calls: 0 });
  });
});
