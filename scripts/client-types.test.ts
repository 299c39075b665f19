/**
 * packages/client's types are generated from the OpenAPI document (scripts/generate-client-types.ts); this fails
 * when a zod schema or an operation changed and the committed file was not regenerated (npm run -s client:types).
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');

describe('the client types', () => {
  it('are the ones the OpenAPI document generates today', () => {
    const run = () =>
      execFileSync(process.execPath, ['--import', 'tsx', 'scripts/generate-client-types.ts', '--check'], {
        cwd: ROOT,
        env: { ...process.env, TSX_TSCONFIG_PATH: 'apps/web/tsconfig.json' },
        stdio: 'pipe',
        encoding: 'utf8',
      });
    expect(run).not.toThrow();
  }, 60_000);
});
