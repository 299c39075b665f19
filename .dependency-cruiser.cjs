/**
 * Import rules, checked by `npm test` (dependency-cruiser; ARCHITECTURE.md, "What may import what"):
 * no import cycles between files; packages depend only downward (db ← core ← jobs/api/cli ← apps); the zod schemas
 * of packages/core import no domain folder. Violations that existed when a rule was added are listed in
 * .dependency-cruiser-known-violations.json and tolerated until fixed; a new one fails the run
 * (`npm run deps:baseline` after fixing one rewrites the list).
 * @type {import('dependency-cruiser').IConfiguration}
 */
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
      name: 'schemas-are-a-leaf',
      comment: 'packages/core/src/schemas (request/response zod schemas) imports only leaf modules, no domain folder.',
      severity: 'error',
      from: { path: '^packages/core/src/schemas/' },
      to: { path: '^packages/core/src/[^/]+/', pathNot: '^packages/core/src/schemas/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(node_modules|\\.next|/generated/)' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
      extensions: ['.ts', '.tsx', '.js'],
    },
  },
};
