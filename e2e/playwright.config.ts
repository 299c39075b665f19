/**
 * Playwright in Debian's Chromium (/usr/bin/chromium; never `npx playwright install`), against the built app
 * started on a throw-away embedded data directory.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 3217);
const dataDir = mkdtempSync(path.join(tmpdir(), 'memory-e2e-'));

export default defineConfig({
  testDir: './tests',
  fullyParallel: false,
  workers: 1,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
  webServer: {
    command: `node --import tsx server.ts -p ${port} -H 127.0.0.1`,
    cwd: '../apps/web',
    url: `http://127.0.0.1:${port}/v1/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    env: {
      MEMORY_DATA_DIR: dataDir,
      MEMORY_LOG_LEVEL: 'warn',
      MEMORY_ADMIN_TOKEN: 'e2e-admin-token-0123456789',
      // console-webhooks.spec.ts delivers to a receiver on 127.0.0.1 (docs/webhooks.md)
      MEMORY_WEBHOOKS_ALLOW_PRIVATE: 'true',
    },
  },
});
