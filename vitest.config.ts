import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const at = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'scripts/**/*.test.ts', 'apps/web/{lib,app}/**/*.test.ts'],
          environment: 'node',
        },
        // apps/web's `@/` alias, and @memory/client from source as tsconfig.tests.json has it (dist may not be built)
        resolve: {
          alias: [
            { find: /^@\//, replacement: at('./apps/web/') },
            { find: /^@memory\/client$/, replacement: at('./packages/client/src/index.ts') },
          ],
        },
      },
      {
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/integration/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // One server per database engine is shared by all files; run files one after another.
          fileParallelism: false,
        },
      },
    ],
  },
});
