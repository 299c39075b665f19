/**
 * Import rules, checked by `npm test` (dependency-cruiser; ARCHITECTURE.md, "What may import what"):
 * no import cycles between files, nor between the folders of packages/core (they form layers); the files at the root
 * of packages/core/src import only leaf modules; packages depend only downward (db ← core ← jobs/api/cli ← apps); the
 * zod schemas of packages/core import no domain folder. Violations that existed when a rule was added are listed in
 * .dependency-cruiser-known-violations.json and tolerated until fixed; a new one fails the run
 * (`npm run deps:baseline` after fixing one rewrites the list).
 * @type {import('dependency-cruiser').IConfiguration}
 */
/** Modules inside folders of packages/core that are leaves: the root files (config.ts) may import them. */
const CORE_LEAF_MODULES = ['schemas/', 'http/', 'quota/plans\\.ts$', 'webhooks/retry\\.ts$'].join('|');

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Two files that import each other (directly or through others) cannot be understood or tested apart.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'db-is-the-bottom',
      comment: 'packages/db (schema, migrations, database factory) depends on no other workspace package.',
      severity: 'error',
      from: { path: '^packages/db/' },
      to: { path: '^(packages/(core|jobs|api|cli|sdk)|apps)/' },
    },
    {
      name: 'core-below-jobs-api-cli',
      comment: 'The memory domain does not know how it is run: no jobs, tRPC, CLI or app code in packages/core.',
      severity: 'error',
      from: { path: '^packages/core/' },
      to: { path: '^(packages/(jobs|api|cli)|apps)/' },
    },
    {
      name: 'packages-below-apps',
      comment: 'Packages never import an app.',
      severity: 'error',
      from: { path: '^packages/' },
      to: { path: '^apps/' },
    },
    {
      name: 'client-stands-alone',
      comment:
        'The published @memory/client runs on fetch and WebCrypto only: its code imports no workspace package, npm ' +
        'module or Node built-in (its tests may); its types are generated into it (scripts/generate-client-types.ts).',
      severity: 'error',
      from: { path: '^packages/client/src/', pathNot: '(\\.test\\.ts$|^packages/client/src/testing/)' },
      to: { pathNot: '^packages/client/src/' },
    },
    {
      name: 'schemas-are-a-leaf',
      comment: 'packages/core/src/schemas (request/response zod schemas) imports only leaf modules, no domain folder.',
      severity: 'error',
      from: { path: '^packages/core/src/schemas/' },
      to: { path: '^packages/core/src/[^/]+/', pathNot: '^packages/core/src/schemas/' },
    },
    {
      name: 'no-folder-cycles-in-core',
      comment:
        'The folders of packages/core form layers: no two folders import each other, directly or through others ' +
        '(a file at the root of src/ belongs to no folder and is checked as a leaf by core-root-is-a-leaf).',
      severity: 'error',
      scope: 'folder',
      from: { path: '^packages/core/src/[^/]+' },
      to: { circular: true },
    },
    {
      name: 'core-root-is-a-leaf',
      comment:
        'The files at the root of packages/core/src (config, errors, crypto, logger, principal, …) are below every ' +
        'folder, so any folder may import them: they import only leaf modules — the config defaults come from ' +
        'quota/plans.ts, webhooks/retry.ts and http/, which import no folder themselves (leaf-modules-are-leaves). ' +
        'index.ts (the barrel) and health.ts (readiness of the runner and the backlog) sit on top instead.',
      severity: 'error',
      from: { path: '^packages/core/src/[^/]+\\.ts$', pathNot: '^packages/core/src/(index|health)\\.ts$|\\.test\\.ts$' },
      to: { path: '^packages/core/src/[^/]+/', pathNot: `^packages/core/src/(${CORE_LEAF_MODULES})` },
    },
    {
      name: 'leaf-modules-are-leaves',
      comment: 'The leaf modules the root files import (see core-root-is-a-leaf) import no folder of core but schemas/.',
      severity: 'error',
      from: { path: `^packages/core/src/(${CORE_LEAF_MODULES})`, pathNot: '\\.test\\.ts$' },
      to: { path: '^packages/core/src/[^/]+/', pathNot: '^packages/core/src/(schemas|http)/' },
    },
    {
      name: 'one-public-surface-per-package',
      comment:
        'Another package or an app imports a workspace package only through the entry points its package.json ' +
        'exports (core: index, browser, front-door, testing; db: index, schema; the others: index), never a file ' +
        'inside it, so what a package offers is written in one place. scripts/ (the benchmarks) may measure internals.',
      severity: 'error',
      from: { path: '^(packages/[^/]+|apps/[^/]+)/' },
      to: {
        path: '^packages/[^/]+/src/',
        pathNot: [
          '^$1/',
          '^packages/[^/]+/src/index\\.ts$',
          '^packages/core/src/(browser|front-door|testing/index)\\.ts$',
          '^packages/db/src/schema/index\\.ts$',
        ],
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(node_modules|\\.next|/generated/)' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.deps.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
      extensions: ['.ts', '.tsx', '.js'],
    },
  },
};
