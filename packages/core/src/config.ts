/**
 * Configuration is one zod schema, parsed once at start-up. A bad value stops the process with a message
 * naming the variable. Everything below reads the parsed object, never `process.env`.
 */
import path from 'node:path';
import { z } from 'zod';
import { PLAN_IDS, type RateLimitDefaults } from './quota/plans';
import { parseTrustedProxies } from './http/client-address';
import { DEFAULT_WEBHOOK_RETRY_SCHEDULE } from './webhooks/retry';

const bool = z
  .enum(['1', '0', 'true', 'false', 'on', 'off', 'yes', 'no'])
  .transform((v) => ['1', 'true', 'on', 'yes'].includes(v));

/** A per-minute write limit: a positive number, or `off`. */
const rateLimit = z.union([z.literal('off'), z.coerce.number().int().min(1).max(1_000_000)]);

const httpUrl = z.string().regex(/^https?:\/\/[^\s]+$/, 'must be an http:// or https:// URL');
/** Azure OpenAI's GA data-plane API version when none is configured. */
const AZURE_API_VERSION = '2024-10-21';

const envSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  MEMORY_DATA_DIR: z.string().min(1).default('./.data'),
  MEMORY_DATABASE_THREAD: bool.default(true),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /** Seconds to wait for a PostgreSQL connection before a request answers 503 `database_unavailable`. */
  DATABASE_CONNECT_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(120).default(5),
  /** PostgreSQL statement_timeout of every connection (ms, 0 = none): a statement running longer is cancelled. */
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).max(3_600_000).default(30_000),
  /** Prepare repeated statements once per connection; off behind a transaction-mode PgBouncer (docs/operations.md). */
  DATABASE_PREPARED_STATEMENTS: bool.default(true),
  /**
   * gzip/brotli of responses by Next.js (apps/web/next.config.ts reads the variable; it is validated here). Off:
   * compressing a retrieve's answer and decompressing it cost more time than sending it on a local network
   * (docs/operations.md); a reverse proxy can compress for distant clients.
   */
  MEMORY_HTTP_COMPRESSION: bool.default(false),
  /**
   * Reverse proxies whose X-Forwarded-For is believed (docs/operations.md): addresses, CIDR ranges, `loopback`,
   * `linklocal`, `uniquelocal`. Empty: the TCP peer is the client.
   */
  MEMORY_TRUSTED_PROXIES: z
    .string()
    .default('')
    .superRefine((v, ctx) => {
      try {
        parseTrustedProxies(v);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
      }
    }),
  MEMORY_ADMIN_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  MEMORY_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `embedded` runs jobs in process from the job table; `inngest` sends events to an Inngest server. */
  MEMORY_JOB_MODE: z.enum(['auto', 'embedded', 'inngest']).default('auto'),
  MEMORY_EMBEDDED_WORKER: bool.default(true),
  MEMORY_JOB_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(5),
  MEMORY_JOB_LEASE_SECONDS: z.coerce.number().int().min(5).max(3600).default(15),
  MEMORY_JOB_POLL_MS: z.coerce.number().int().min(20).max(60_000).default(500),
  /** Jobs one process runs at the same time (different end users): most of a job's time is database round trips. */
  MEMORY_JOB_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  /** Worker threads for the built-in extractor and the store step's CPU work (jobs/threads.ts); 0 = the event loop. */
  MEMORY_EXTRACTION_THREADS: z.coerce.number().int().min(0).max(16).default(1),
  /** The nice value of those threads on Linux (jobs/thread-priority.ts): requests get the CPU first; 0 = as the process. */
  MEMORY_EXTRACTION_THREAD_NICE: z.coerce.number().int().min(0).max(19).default(10),
  MEMORY_JOB_BACKOFF_BASE_MS: z.coerce.number().int().min(10).max(600_000).default(2_000),
  MEMORY_IDEMPOTENCY_TTL_HOURS: z.coerce.number().int().min(24).max(24 * 30).default(48),
  /** Minutes between runs of the embedded payload-retention scheduler (docs/provenance.md, Retention). */
  MEMORY_RETENTION_INTERVAL_MINUTES: z.coerce.number().int().min(1).max(7 * 24 * 60).default(60),
  INNGEST_EVENT_KEY: z.string().optional(),
  INNGEST_SIGNING_KEY: z.string().optional(),
  INNGEST_BASE_URL: z.string().url().optional(),
  /** smtp(s)://user:pass@host:port; without it sign-in mail goes to the development mailbox (/dev/mailbox). */
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL').optional(),
  MEMORY_MAIL_FROM: z.string().min(3).max(320).default('Memory Service <no-reply@localhost>'),
  /**
   * The development mailbox (/dev/mailbox) shows every sign-in code to anyone who can reach the server.
   * `auto`: on only with the embedded database and no SMTP (a local install); `on`/`off` force it.
   */
  MEMORY_DEV_MAILBOX: z.enum(['auto', 'on', 'off']).default('auto'),
  /**
   * The development tenant of the first start (tenants/first-run.ts): created, with its key printed once, when the
   * database has no tenant. `auto`: only on the embedded database; `on` also on PostgreSQL; `off` never.
   */
  MEMORY_DEV_TENANT: z.enum(['auto', 'on', 'off']).default('auto'),
  /** Which extraction provider jobs use (docs/llm-providers.md). `openai-chat` needs MEMORY_LLM_BASE_URL and MEMORY_LLM_MODEL. */
  MEMORY_EXTRACTOR: z.enum(['builtin', 'openai-chat']).default('builtin'),
  MEMORY_LLM_BASE_URL: httpUrl.optional(),
  MEMORY_LLM_MODEL: z.string().trim().min(1).max(200).optional(),
  MEMORY_LLM_API_KEY: z.string().optional(),
  MEMORY_LLM_API_STYLE: z.enum(['openai', 'azure']).default('openai'),
  MEMORY_LLM_AZURE_API_VERSION: z.string().min(1).default(AZURE_API_VERSION),
  MEMORY_LLM_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  MEMORY_LLM_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(2),
  /** A number, or `none` to send no temperature (reasoning models accept only their default). */
  MEMORY_LLM_TEMPERATURE: z.union([z.literal('none'), z.coerce.number().min(0).max(2)]).default(0),
  MEMORY_EMBEDDINGS_BASE_URL: httpUrl.optional(),
  MEMORY_EMBEDDINGS_MODEL: z.string().trim().min(1).max(200).optional(),
  MEMORY_EMBEDDINGS_API_KEY: z.string().optional(),
  MEMORY_EMBEDDINGS_API_STYLE: z.enum(['openai', 'azure']).default('openai'),
  MEMORY_EMBEDDINGS_AZURE_API_VERSION: z.string().min(1).default(AZURE_API_VERSION),
  MEMORY_EMBEDDINGS_DIMENSIONS: z.coerce.number().int().min(1).max(65_536).optional(),
  MEMORY_EMBEDDINGS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  MEMORY_EMBEDDINGS_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(2),
  MEMORY_EMBEDDINGS_BATCH_SIZE: z.coerce.number().int().min(1).max(2048).default(64),
  /** `on`: without an embeddings endpoint, memories and queries are embedded by the offline encoder (docs/evidence-layer.md). */
  MEMORY_LOCAL_ENCODER: z.enum(['on', 'off']).default('off'),
  /** Minutes between runs of the embedded memory-lifecycle scheduler (docs/lifecycle.md). */
  MEMORY_LIFECYCLE_INTERVAL_MINUTES: z.coerce.number().int().min(1).max(7 * 24 * 60).default(60),
  /** Lifetime of a passport consent link token, from creation to the agent's exchange (docs/passport.md). */
  MEMORY_LINK_TOKEN_TTL_SECONDS: z.coerce.number().int().min(1).max(3600).default(600),
  /**
   * Where end users open the consent app (`{consent_url}/connect?...`), when it is not this service's own
   * public address: e.g. https://passport.example.com. Without it the link-token response's `connect_url`
   * uses the address the tenant's request reached.
   */
  MEMORY_CONSENT_URL: httpUrl.optional(),
  /** The plan of tenants created from now on (docs/quotas.md); existing tenants keep theirs. */
  MEMORY_DEFAULT_PLAN: z.enum(PLAN_IDS).default('unlimited'),
  /** A number replaces every plan's per-user / per-tenant write limit per minute; `off` removes it. Tenant overrides still win. */
  MEMORY_RATE_LIMIT_USER_WRITES_PER_MINUTE: rateLimit.optional(),
  MEMORY_RATE_LIMIT_TENANT_WRITES_PER_MINUTE: rateLimit.optional(),
  /** Redis for the rate-limit counters (several processes without a shared PostgreSQL, or less database load). */
  MEMORY_REDIS_URL: z.string().regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL').optional(),
  /** An add reports `processing_status: delayed` when the extraction backlog's ETA is over this many seconds. */
  MEMORY_BACKLOG_DELAY_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
  /** The window over which the extraction rate (finished jobs per second) is measured. */
  MEMORY_BACKLOG_RATE_WINDOW_SECONDS: z.coerce.number().int().min(10).max(86_400).default(300),
  /** How long one backlog sample is reused by a process before the job table is counted again. */
  MEMORY_BACKLOG_SAMPLE_MS: z.coerce.number().int().min(0).max(600_000).default(1_000),
  /** Webhooks (docs/webhooks.md): deliver to private, loopback and link-local addresses too (tests, local setups). */
  MEMORY_WEBHOOKS_ALLOW_PRIVATE: bool.default(false),
  /** Ports a public webhook URL may use (comma-separated); any port with MEMORY_WEBHOOKS_ALLOW_PRIVATE. */
  MEMORY_WEBHOOKS_ALLOWED_PORTS: z
    .string()
    .regex(/^\s*\d{1,5}\s*(,\s*\d{1,5}\s*)*$/, 'must be a comma-separated list of ports')
    .refine((v) => v.split(',').every((p) => Number(p) >= 1 && Number(p) <= 65535), 'ports are 1 to 65535')
    .default('443'),
  /** The key webhook signing secrets are encrypted with at rest (AES-256-GCM, key = SHA-256 of this value). */
  MEMORY_WEBHOOK_SECRET_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Seconds to wait after each failed attempt; its length + 1 is the number of attempts. */
  MEMORY_WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .regex(/^\d+(,\d+)*$/, 'must be comma-separated seconds, e.g. 5,300,1800')
    .default(DEFAULT_WEBHOOK_RETRY_SCHEDULE.join(',')),
  MEMORY_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(15_000),
  /** After a secret rotation, hours during which the previous secret still signs alongside the new one. */
  MEMORY_WEBHOOK_ROTATION_OVERLAP_HOURS: z.coerce.number().min(0).max(24 * 7).default(24),
});

/** Every configuration variable with its default (undefined: unset), in declaration order: the README's table documents each (config.test.ts). */
export function configVariables(): { name: string; default: unknown }[] {
  const defaults = envSchema.parse({}) as Record<string, unknown>;
  return Object.keys(envSchema.shape).map((name) => ({ name, default: defaults[name] }));
}

/** The parsed configuration: the shape `toAppConfig` builds from the variables (each variable is declared once, in `envSchema`). */
export type AppConfig = ReturnType<typeof toAppConfig>;

export interface WebhookSettings {
  allowPrivate: boolean;
  /** Ports a webhook URL may use when private destinations are not allowed (MEMORY_WEBHOOKS_ALLOWED_PORTS). */
  allowedPorts: number[];
  /** The at-rest key material; the documented development default when MEMORY_WEBHOOK_SECRET_KEY is unset. */
  secretKey: string;
  secretKeyIsDefault: boolean;
  /** Delays after failed attempts, in seconds (before jitter). */
  retryScheduleSeconds: number[];
  timeoutMs: number;
  rotationOverlapHours: number;
}

/**
 * Used when MEMORY_WEBHOOK_SECRET_KEY is unset. It is public (it is in the source), so it only keeps secrets out
 * of casual sight in a local install; production sets its own key (docs/webhooks.md).
 */
export const DEV_WEBHOOK_SECRET_KEY = 'memory-service-development-webhook-secret-key';

export class ConfigError extends Error {}

/**
 * Relative paths are resolved against the directory the user ran the command in (npm's INIT_CWD),
 * so `npm start` from the repository root keeps data in ./.data there.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const problems = [
    ...(e.MEMORY_EXTRACTOR === 'openai-chat'
      ? requireBoth('MEMORY_EXTRACTOR=openai-chat', e, 'MEMORY_LLM_BASE_URL', 'MEMORY_LLM_MODEL')
      : []),
    ...(e.MEMORY_EMBEDDINGS_BASE_URL || e.MEMORY_EMBEDDINGS_MODEL
      ? requireBoth('embeddings', e, 'MEMORY_EMBEDDINGS_BASE_URL', 'MEMORY_EMBEDDINGS_MODEL')
      : []),
  ];
  if (problems.length > 0) throw new ConfigError(`invalid configuration:\n${problems.join('\n')}`);
  return toAppConfig(e, env.INIT_CWD || process.cwd());
}

/** Builds the configuration's shape from the parsed variables; relative paths resolve against `baseDir`. */
function toAppConfig(e: z.output<typeof envSchema>, baseDir: string) {
  const mode: 'embedded' | 'inngest' = e.MEMORY_JOB_MODE === 'auto' ? (e.INNGEST_EVENT_KEY ? 'inngest' : 'embedded') : e.MEMORY_JOB_MODE;
  const database:
    | { kind: 'postgres'; url: string; poolSize: number; connectTimeoutSeconds: number; statementTimeoutMs: number; preparedStatements: boolean }
    | { kind: 'pglite'; dataDir: string; thread: boolean } = e.DATABASE_URL
      ? {
          kind: 'postgres',
          url: e.DATABASE_URL,
          poolSize: e.DATABASE_POOL_SIZE,
          connectTimeoutSeconds: e.DATABASE_CONNECT_TIMEOUT_SECONDS,
          statementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
          preparedStatements: e.DATABASE_PREPARED_STATEMENTS,
        }
      : { kind: 'pglite', dataDir: path.resolve(baseDir, e.MEMORY_DATA_DIR), thread: e.MEMORY_DATABASE_THREAD };
  const rateLimits: RateLimitDefaults = {
    ...(e.MEMORY_RATE_LIMIT_USER_WRITES_PER_MINUTE !== undefined && {
      user_writes_per_minute: e.MEMORY_RATE_LIMIT_USER_WRITES_PER_MINUTE === 'off' ? null : e.MEMORY_RATE_LIMIT_USER_WRITES_PER_MINUTE,
    }),
    ...(e.MEMORY_RATE_LIMIT_TENANT_WRITES_PER_MINUTE !== undefined && {
      tenant_writes_per_minute: e.MEMORY_RATE_LIMIT_TENANT_WRITES_PER_MINUTE === 'off' ? null : e.MEMORY_RATE_LIMIT_TENANT_WRITES_PER_MINUTE,
    }),
  };
  const webhooks: WebhookSettings = {
    allowPrivate: e.MEMORY_WEBHOOKS_ALLOW_PRIVATE,
    allowedPorts: e.MEMORY_WEBHOOKS_ALLOWED_PORTS.split(',').map((p) => Number(p.trim())),
    secretKey: e.MEMORY_WEBHOOK_SECRET_KEY ?? DEV_WEBHOOK_SECRET_KEY,
    secretKeyIsDefault: !e.MEMORY_WEBHOOK_SECRET_KEY,
    retryScheduleSeconds: e.MEMORY_WEBHOOK_RETRY_SCHEDULE.split(',').map(Number),
    timeoutMs: e.MEMORY_WEBHOOK_TIMEOUT_MS,
    rotationOverlapHours: e.MEMORY_WEBHOOK_ROTATION_OVERLAP_HOURS,
  };
  return {
    port: e.PORT,
    database,
    adminToken: e.MEMORY_ADMIN_TOKEN ?? null,
    /** Whether a start on a database without tenants creates the development tenant (MEMORY_DEV_TENANT). */
    devTenant: e.MEMORY_DEV_TENANT === 'on' || (e.MEMORY_DEV_TENANT === 'auto' && !e.DATABASE_URL),
    /** MEMORY_TRUSTED_PROXIES, parsed: the hops whose X-Forwarded-For names the client. */
    trustedProxies: parseTrustedProxies(e.MEMORY_TRUSTED_PROXIES),
    /** MEMORY_HTTP_COMPRESSION: whether Next.js compresses responses (read by apps/web/next.config.ts). */
    httpCompression: e.MEMORY_HTTP_COMPRESSION,
    logLevel: e.MEMORY_LOG_LEVEL,
    jobs: {
      mode,
      embeddedWorker: e.MEMORY_EMBEDDED_WORKER,
      maxAttempts: e.MEMORY_JOB_MAX_ATTEMPTS,
      leaseSeconds: e.MEMORY_JOB_LEASE_SECONDS,
      pollMs: e.MEMORY_JOB_POLL_MS,
      concurrency: e.MEMORY_JOB_CONCURRENCY,
      /** Extraction threads per process (MEMORY_EXTRACTION_THREADS); 0 keeps the work on the event loop. */
      threads: e.MEMORY_EXTRACTION_THREADS,
      /** Their nice value on Linux (MEMORY_EXTRACTION_THREAD_NICE). */
      threadNice: e.MEMORY_EXTRACTION_THREAD_NICE,
      backoffBaseMs: e.MEMORY_JOB_BACKOFF_BASE_MS,
    },
    idempotencyTtlHours: e.MEMORY_IDEMPOTENCY_TTL_HOURS,
    /** Minutes between embedded retention runs (Inngest mode uses its hourly cron). */
    retentionIntervalMinutes: e.MEMORY_RETENTION_INTERVAL_MINUTES,
    inngest: { eventKey: e.INNGEST_EVENT_KEY, signingKey: e.INNGEST_SIGNING_KEY, baseUrl: e.INNGEST_BASE_URL },
    /** Outgoing mail (console sign-in codes): SMTP when configured, else the development mailbox. */
    mail: {
      smtpUrl: e.SMTP_URL ?? null,
      from: e.MEMORY_MAIL_FROM,
      devMailbox: !e.SMTP_URL && (e.MEMORY_DEV_MAILBOX === 'on' || (e.MEMORY_DEV_MAILBOX === 'auto' && !e.DATABASE_URL)),
    },
    /** The extraction provider jobs use; `llm` is set when it is `openai-chat`. */
    extraction: {
      provider: e.MEMORY_EXTRACTOR,
      llm:
        e.MEMORY_EXTRACTOR === 'openai-chat'
          ? {
              baseUrl: e.MEMORY_LLM_BASE_URL!,
              model: e.MEMORY_LLM_MODEL!,
              apiKey: e.MEMORY_LLM_API_KEY ?? null,
              apiStyle: e.MEMORY_LLM_API_STYLE,
              azureApiVersion: e.MEMORY_LLM_AZURE_API_VERSION,
              timeoutMs: e.MEMORY_LLM_TIMEOUT_MS,
              maxRetries: e.MEMORY_LLM_MAX_RETRIES,
              temperature: e.MEMORY_LLM_TEMPERATURE === 'none' ? null : e.MEMORY_LLM_TEMPERATURE,
            }
          : null,
    },
    /** MEMORY_LOCAL_ENCODER=on: the offline sentence encoder embeds when no endpoint is configured. */
    localEncoder: e.MEMORY_LOCAL_ENCODER === 'on',
    /** The embeddings endpoint, when MEMORY_EMBEDDINGS_BASE_URL and MEMORY_EMBEDDINGS_MODEL are set. */
    embeddings:
      e.MEMORY_EMBEDDINGS_BASE_URL && e.MEMORY_EMBEDDINGS_MODEL
        ? {
            baseUrl: e.MEMORY_EMBEDDINGS_BASE_URL,
            model: e.MEMORY_EMBEDDINGS_MODEL,
            apiKey: e.MEMORY_EMBEDDINGS_API_KEY ?? null,
            apiStyle: e.MEMORY_EMBEDDINGS_API_STYLE,
            azureApiVersion: e.MEMORY_EMBEDDINGS_AZURE_API_VERSION,
            timeoutMs: e.MEMORY_EMBEDDINGS_TIMEOUT_MS,
            maxRetries: e.MEMORY_EMBEDDINGS_MAX_RETRIES,
            dimensions: e.MEMORY_EMBEDDINGS_DIMENSIONS ?? null,
            batchSize: e.MEMORY_EMBEDDINGS_BATCH_SIZE,
          }
        : null,
    /** Minutes between embedded lifecycle runs (Inngest mode uses its hourly cron). */
    lifecycleIntervalMinutes: e.MEMORY_LIFECYCLE_INTERVAL_MINUTES,
    /** The memory passport (docs/passport.md). */
    passport: { linkTokenTtlSeconds: e.MEMORY_LINK_TOKEN_TTL_SECONDS, consentUrl: e.MEMORY_CONSENT_URL?.replace(/\/+$/, '') ?? null },
    /** Plans, rate limits and backlog health (docs/quotas.md). */
    quota: {
      defaultPlan: e.MEMORY_DEFAULT_PLAN,
      rateLimits,
      redisUrl: e.MEMORY_REDIS_URL ?? null,
      backlog: {
        thresholdSeconds: e.MEMORY_BACKLOG_DELAY_SECONDS,
        rateWindowSeconds: e.MEMORY_BACKLOG_RATE_WINDOW_SECONDS,
        sampleMs: e.MEMORY_BACKLOG_SAMPLE_MS,
      },
    },
    /** Webhook delivery (docs/webhooks.md). */
    webhooks,
  };
}

/** Both variables of a pair, or a message naming the missing ones. */
function requireBoth(what: string, e: Record<string, unknown>, a: string, b: string): string[] {
  const missing = [a, b].filter((k) => !e[k]);
  return missing.length === 0 ? [] : [`  ${missing.join(', ')}: required for ${what}`];
}
