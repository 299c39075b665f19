import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError, configVariables, loadConfig } from './config';

describe('loadConfig', () => {
  it('defaults to the embedded database in ./.data, on its own thread, and the embedded job runner', () => {
    const c = loadConfig({ INIT_CWD: '/srv/app' });
    expect(c.database).toEqual({ kind: 'pglite', dataDir: '/srv/app/.data', thread: true });
    expect(loadConfig({ MEMORY_DATABASE_THREAD: 'off' }).database).toMatchObject({ kind: 'pglite', thread: false });
    expect(c.jobs.mode).toBe('embedded');
    expect(c.port).toBe(3000);
  });

  it('leaves responses uncompressed unless MEMORY_HTTP_COMPRESSION is on', () => {
    expect(loadConfig({}).httpCompression).toBe(false);
    expect(loadConfig({ MEMORY_HTTP_COMPRESSION: 'on' }).httpCompression).toBe(true);
    expect(() => loadConfig({ MEMORY_HTTP_COMPRESSION: 'gzip' })).toThrow(/MEMORY_HTTP_COMPRESSION/);
  });

  it('names the variable that is wrong', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ MEMORY_ADMIN_TOKEN: 'short' })).toThrow(/MEMORY_ADMIN_TOKEN/);
  });

  it('opens the development mailbox only for a local embedded install without SMTP, unless told', () => {
    expect(loadConfig({}).mail.devMailbox).toBe(true);
    expect(loadConfig({ DATABASE_URL: 'postgres://db/x' }).mail.devMailbox).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://db/x', MEMORY_DEV_MAILBOX: 'on' }).mail.devMailbox).toBe(true);
    expect(loadConfig({ MEMORY_DEV_MAILBOX: 'off' }).mail.devMailbox).toBe(false);
    expect(loadConfig({ SMTP_URL: 'smtp://mail:25', MEMORY_DEV_MAILBOX: 'on' }).mail.devMailbox).toBe(false);
  });

  it('uses the built-in extractor and no embeddings endpoint by default', () => {
    const c = loadConfig({});
    expect(c.extraction).toEqual({ provider: 'builtin', llm: null });
    expect(c.embeddings).toBeNull();
  });

  it('configures an OpenAI-compatible extractor, and refuses one without base URL or model', () => {
    const c = loadConfig({
      MEMORY_EXTRACTOR: 'openai-chat',
      MEMORY_LLM_BASE_URL: 'http://127.0.0.1:11434/v1',
      MEMORY_LLM_MODEL: 'llama3.1:8b',
      MEMORY_LLM_TEMPERATURE: 'none',
    });
    expect(c.extraction).toEqual({
      provider: 'openai-chat',
      llm: {
        baseUrl: 'http://127.0.0.1:11434/v1',
        model: 'llama3.1:8b',
        apiKey: null,
        apiStyle: 'openai',
        azureApiVersion: '2024-10-21',
        timeoutMs: 30_000,
        maxRetries: 2,
        temperature: null,
      },
    });
    expect(() => loadConfig({ MEMORY_EXTRACTOR: 'openai-chat' })).toThrow(
      /MEMORY_LLM_BASE_URL, MEMORY_LLM_MODEL: required for MEMORY_EXTRACTOR=openai-chat/,
    );
    expect(() => loadConfig({ MEMORY_EXTRACTOR: 'openai-chat', MEMORY_LLM_BASE_URL: 'https://api.openai.com/v1' })).toThrow(
      /MEMORY_LLM_MODEL: required/,
    );
    expect(() => loadConfig({ MEMORY_EXTRACTOR: 'gpt' })).toThrow(/MEMORY_EXTRACTOR/);
    expect(() => loadConfig({ MEMORY_LLM_BASE_URL: 'api.openai.com' })).toThrow(/MEMORY_LLM_BASE_URL/);
    expect(() => loadConfig({ MEMORY_LLM_API_STYLE: 'bedrock' })).toThrow(/MEMORY_LLM_API_STYLE/);
  });

  it('configures Azure and the embeddings endpoint, which needs both base URL and model', () => {
    const c = loadConfig({
      MEMORY_EXTRACTOR: 'openai-chat',
      MEMORY_LLM_BASE_URL: 'https://acme.openai.azure.com',
      MEMORY_LLM_MODEL: 'gpt-4o-mini',
      MEMORY_LLM_API_KEY: 'az-key',
      MEMORY_LLM_API_STYLE: 'azure',
      MEMORY_LLM_AZURE_API_VERSION: '2024-06-01',
      MEMORY_LLM_TIMEOUT_MS: '5000',
      MEMORY_LLM_MAX_RETRIES: '0',
      MEMORY_EMBEDDINGS_BASE_URL: 'https://api.openai.com/v1',
      MEMORY_EMBEDDINGS_MODEL: 'text-embedding-3-small',
      MEMORY_EMBEDDINGS_API_KEY: 'sk-emb',
      MEMORY_EMBEDDINGS_DIMENSIONS: '1536',
    });
    expect(c.extraction.llm).toMatchObject({ apiStyle: 'azure', azureApiVersion: '2024-06-01', apiKey: 'az-key', timeoutMs: 5000, maxRetries: 0, temperature: 0 });
    expect(c.embeddings).toEqual({
      baseUrl: 'https://api.openai.com/v1',
      model: 'text-embedding-3-small',
      apiKey: 'sk-emb',
      apiStyle: 'openai',
      azureApiVersion: '2024-10-21',
      timeoutMs: 30_000,
      maxRetries: 2,
      dimensions: 1536,
      batchSize: 64,
    });
    expect(() => loadConfig({ MEMORY_EMBEDDINGS_MODEL: 'text-embedding-3-small' })).toThrow(/MEMORY_EMBEDDINGS_BASE_URL: required for embeddings/);
  });

  it('runs the lifecycle hourly by default and names a bad interval', () => {
    expect(loadConfig({}).lifecycleIntervalMinutes).toBe(60);
    expect(loadConfig({ MEMORY_LIFECYCLE_INTERVAL_MINUTES: '15' }).lifecycleIntervalMinutes).toBe(15);
    expect(() => loadConfig({ MEMORY_LIFECYCLE_INTERVAL_MINUTES: '0' })).toThrow(/MEMORY_LIFECYCLE_INTERVAL_MINUTES/);
  });

  it('puts new tenants on the unlimited plan, keeps plan rate limits and the database store unless told', () => {
    expect(loadConfig({}).quota).toEqual({
      defaultPlan: 'unlimited',
      rateLimits: {},
      redisUrl: null,
      backlog: { thresholdSeconds: 60, rateWindowSeconds: 300, sampleMs: 1000 },
    });
    const q = loadConfig({
      MEMORY_DEFAULT_PLAN: 'free',
      MEMORY_RATE_LIMIT_USER_WRITES_PER_MINUTE: '30',
      MEMORY_RATE_LIMIT_TENANT_WRITES_PER_MINUTE: 'off',
      MEMORY_REDIS_URL: 'redis://127.0.0.1:6379/0',
      MEMORY_BACKLOG_DELAY_SECONDS: '120',
    }).quota;
    expect(q).toMatchObject({
      defaultPlan: 'free',
      rateLimits: { user_writes_per_minute: 30, tenant_writes_per_minute: null },
      redisUrl: 'redis://127.0.0.1:6379/0',
      backlog: { thresholdSeconds: 120 },
    });
    expect(() => loadConfig({ MEMORY_DEFAULT_PLAN: 'gold' })).toThrow(/MEMORY_DEFAULT_PLAN/);
    expect(() => loadConfig({ MEMORY_RATE_LIMIT_USER_WRITES_PER_MINUTE: '0' })).toThrow(/MEMORY_RATE_LIMIT_USER_WRITES_PER_MINUTE/);
    expect(() => loadConfig({ MEMORY_REDIS_URL: 'http://cache' })).toThrow(/MEMORY_REDIS_URL/);
  });
});

describe('the README configuration table', () => {
  const readme = readFileSync(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../README.md'), 'utf8');
  // rows whose first cell names variables: | `A`, `B` | `1`, `2` | what they do |
  const rows = readme
    .split('\n')
    .filter((line) => /^\| `[A-Z][A-Z0-9_]+`/.test(line))
    .map((line) => {
      const [names, defaults] = line.split(' | ');
      return { names: [...names.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]), defaults: defaults.split(', ').map((d) => d.trim()) };
    });
  const documented = rows.flatMap((r) => r.names);

  it('documents every variable the configuration reads, and no other', () => {
    expect([...documented].sort()).toEqual(configVariables().map((v) => v.name).sort());
    expect(new Set(documented).size).toBe(documented.length);
  });

  it('states each default as the configuration has it', () => {
    const defaults = new Map(configVariables().map((v) => [v.name, v.default]));
    const shown = (value: unknown) =>
      value === undefined || value === '' ? ['unset'] : value === true ? ['`on`', '`true`'] : value === false ? ['`off`', '`false`'] : [`\`${String(value)}\``];
    let compared = 0;
    for (const row of rows) {
      const cells = row.defaults.length === row.names.length ? row.defaults : row.defaults.length === 1 ? row.names.map(() => row.defaults[0]) : null;
      if (!cells) continue;
      row.names.forEach((name, i) => {
        // prose defaults ("development key") are explained in the row, not compared
        if (cells[i] !== 'unset' && !cells[i].startsWith('`')) return;
        expect(shown(defaults.get(name)), name).toContain(cells[i]);
        compared++;
      });
    }
    expect(compared).toBeGreaterThan(50);
  });
});
