/**
 * Structured logs with the same keys everywhere (tenant_id, request_id, job_id).
 * Never log keys, tokens, codes or memory content: the redact list is a second line of defence.
 */
import pino, { type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string = process.env.MEMORY_LOG_LEVEL ?? 'info'): Logger {
  return pino({
    level,
    base: { service: 'memory-service' },
    redact: {
      paths: ['authorization', 'api_key', 'key', 'token', 'content', 'messages', 'query', '*.authorization', '*.api_key'],
      censor: '[redacted]',
    },
  });
}

/**
 * What may be logged about an error: its name, SQLSTATE and message. Drizzle wraps driver errors in a
 * message that quotes the SQL and its parameters (which can hold memory content), so the driver's own
 * error (`cause`) is described instead.
 */
export function describeError(err: unknown): { err_name?: string; err_code?: string; err: string } {
  let e = err as { name?: string; code?: string; message?: string; cause?: unknown } | undefined;
  if (e && typeof e === 'object' && e.cause && typeof e.message === 'string' && e.message.startsWith('Failed query')) {
    e = e.cause as typeof e;
  }
  if (!e || typeof e !== 'object') return { err: String(err).slice(0, 300) };
  return { err_name: e.name, err_code: typeof e.code === 'string' ? e.code : undefined, err: String(e.message ?? '').slice(0, 300) };
}
