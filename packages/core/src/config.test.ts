import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('defaults to the embedded database in ./.data and the embedded job runner', () => {
    const c = loadConfig({ INIT_CWD: '/srv/app' });
    expect(c.database).toEqual({ kind: 'pglite', dataDir: '/srv/app/.data' });
    expect(c.jobs.mode).toBe('embedded');
    expect(c.port).toBe(3000);
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

  it('runs the lifecycle hourly by default and names a bad interval', () => {
    expect(loadConfig({}).lifecycleIntervalMinutes).toBe(60);
    expect(loadConfig({ MEMORY_LIFECYCLE_INTERVAL_MINUTES: '15' }).lifecycleIntervalMinutes).toBe(15);
    expect(() => loadConfig({ MEMORY_LIFECYCLE_INTERVAL_MINUTES: '0' })).toThrow(/MEMORY_LIFECYCLE_INTERVAL_MINUTES/);
  });
});
