/**
 * Configuration is one zod schema, parsed once at start-up. A bad value stops the process with a message
 * naming the variable. Everything below reads the parsed object, never `process.env`.
 */
import path from 'node:path';
import { z } from 'zod';

const bool = z
  .enum(['1', '0', 'true', 'false', 'on', 'off', 'yes', 'no'])
  .transform((v) => ['1', 'true', 'on', 'yes'].includes(v));

const envSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  MEMORY_DATA_DIR: z.string().min(1).default('./.data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  MEMORY_ADMIN_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  MEMORY_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `embedded` runs jobs in process from the job table; `inngest` sends events to an Inngest server. */
  MEMORY_JOB_MODE: z.enum(['auto', 'embedded', 'inngest']).default('auto'),
  MEMORY_EMBEDDED_WORKER: bool.default(true),
  MEMORY_JOB_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(5),
  MEMORY_JOB_LEASE_SECONDS: z.coerce.number().int().min(5).max(3600).default(60),
  MEMORY_JOB_POLL_MS: z.coerce.number().int().min(20).max(60_000).default(500),
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
  /** Minutes between runs of the embedded memory-lifecycle scheduler (docs/lifecycle.md). */
  MEMORY_LIFECYCLE_INTERVAL_MINUTES: z.coerce.number().int().min(1).max(7 * 24 * 60).default(60),
});

export interface AppConfig {
  port: number;
  database: { kind: 'postgres'; url: string; poolSize: number } | { kind: 'pglite'; dataDir: string };
  adminToken: string | null;
  logLevel: z.infer<typeof envSchema>['MEMORY_LOG_LEVEL'];
  jobs: {
    mode: 'embedded' | 'inngest';
    embeddedWorker: boolean;
    maxAttempts: number;
    leaseSeconds: number;
    pollMs: number;
    backoffBaseMs: number;
  };
  idempotencyTtlHours: number;
  /** Minutes between embedded retention runs (Inngest mode uses its hourly cron). */
  retentionIntervalMinutes: number;
  inngest: { eventKey?: string; signingKey?: string; baseUrl?: string };
  /** Outgoing mail (console sign-in codes): SMTP when configured, else the development mailbox. */
  mail: { smtpUrl: string | null; from: string; devMailbox: boolean };
  /** Minutes between embedded lifecycle runs (Inngest mode uses its hourly cron). */
  lifecycleIntervalMinutes: number;
}

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
  const baseDir = env.INIT_CWD || process.cwd();
  const mode = e.MEMORY_JOB_MODE === 'auto' ? (e.INNGEST_EVENT_KEY ? 'inngest' : 'embedded') : e.MEMORY_JOB_MODE;
  return {
    port: e.PORT,
    database: e.DATABASE_URL
      ? { kind: 'postgres', url: e.DATABASE_URL, poolSize: e.DATABASE_POOL_SIZE }
      : { kind: 'pglite', dataDir: path.resolve(baseDir, e.MEMORY_DATA_DIR) },
    adminToken: e.MEMORY_ADMIN_TOKEN ?? null,
    logLevel: e.MEMORY_LOG_LEVEL,
    jobs: {
      mode,
      embeddedWorker: e.MEMORY_EMBEDDED_WORKER,
      maxAttempts: e.MEMORY_JOB_MAX_ATTEMPTS,
      leaseSeconds: e.MEMORY_JOB_LEASE_SECONDS,
      pollMs: e.MEMORY_JOB_POLL_MS,
      backoffBaseMs: e.MEMORY_JOB_BACKOFF_BASE_MS,
    },
    idempotencyTtlHours: e.MEMORY_IDEMPOTENCY_TTL_HOURS,
    retentionIntervalMinutes: e.MEMORY_RETENTION_INTERVAL_MINUTES,
    inngest: { eventKey: e.INNGEST_EVENT_KEY, signingKey: e.INNGEST_SIGNING_KEY, baseUrl: e.INNGEST_BASE_URL },
    mail: {
      smtpUrl: e.SMTP_URL ?? null,
      from: e.MEMORY_MAIL_FROM,
      devMailbox: !e.SMTP_URL && (e.MEMORY_DEV_MAILBOX === 'on' || (e.MEMORY_DEV_MAILBOX === 'auto' && !e.DATABASE_URL)),
    },
    lifecycleIntervalMinutes: e.MEMORY_LIFECYCLE_INTERVAL_MINUTES,
  };
}
