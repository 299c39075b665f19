#!/usr/bin/env node
/**
 * Build step: bundles the extraction thread (src/jobs/thread-main.ts and the core sources it imports) into one
 * ES module, generated/extraction-thread.mjs, which a worker thread can load without a TypeScript loader (the
 * server runs from a Next.js bundle, the tests from vitest). npm packages are left as imports: the thread
 * resolves them from node_modules like the rest of the service. jobs/threads.ts finds the file.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const started = Date.now();
await build({
  entryPoints: [path.resolve(here, '../src/jobs/thread-main.ts')],
  outfile: path.resolve(here, '../generated/extraction-thread.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // the workspace's own packages are TypeScript sources: bundled; everything from npm stays an import
  plugins: [
    {
      name: 'npm-external',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@memory/') ? undefined : { path: args.path, external: true }));
      },
    },
  ],
  logLevel: 'warning',
});
console.log(`extraction thread bundled in ${Date.now() - started} ms: ${path.relative(process.cwd(), path.resolve(here, '../generated/extraction-thread.mjs'))}`);
