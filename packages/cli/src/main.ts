/**
 * Operator CLI. Works against DATABASE_URL, or against the embedded data directory when no server holds it.
 *
 *   npm run -s cli -- tenant create --name acme [--json]
 */
import { parseArgs } from 'node:util';
import { ConfigError, createTenant, loadConfig } from '@memory/core';
import {
  DataDirLockedError,
  acquireDataDirLock,
  createDatabase,
  releaseDataDirLock,
  runMigrations,
} from '@memory/db';

const USAGE = `usage:
  cli tenant create --name <name> [--json]   create a tenant and print its API key (shown once)`;

class UsageError extends Error {}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { name: { type: 'string' }, json: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help || positionals.length === 0) {
    process.stdout.write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  const [resource, action] = positionals;
  if (resource !== 'tenant' || action !== 'create') throw new UsageError(`unknown command: ${positionals.join(' ')}`);
  const name = values.name?.trim();
  if (!name) throw new UsageError('tenant create needs --name <name>');
  if (name.length > 200) throw new UsageError('--name must be at most 200 characters');

  const config = loadConfig();
  const dataDir = config.database.kind === 'pglite' ? config.database.dataDir : null;
  if (dataDir) {
    const { mkdirSync } = await import('node:fs');
    mkdirSync(dataDir, { recursive: true });
    acquireDataDirLock(dataDir);
  }
  const database = createDatabase(config.database);
  try {
    await runMigrations(config.database, database);
    const created = await createTenant(database.db, name);
    const out = { tenant_id: created.tenant_id, name: created.name, api_key: created.api_key };
    if (values.json) process.stdout.write(`${JSON.stringify(out)}\n`);
    else
      process.stdout.write(
        `tenant ${out.name} created\n  tenant_id: ${out.tenant_id}\n  api_key:   ${out.api_key}\n  (the key is shown once; store it now)\n`,
      );
    return 0;
  } finally {
    await database.close();
    if (dataDir) releaseDataDirLock(dataDir);
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof UsageError) process.stderr.write(`error: ${err.message}\n${USAGE}\n`);
    else if (err instanceof ConfigError || err instanceof DataDirLockedError) process.stderr.write(`error: ${err.message}\n`);
    else if (err instanceof Error && (err as NodeJS.ErrnoException).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION')
      process.stderr.write(`error: ${err.message}\n${USAGE}\n`);
    else process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(err instanceof UsageError ? 2 : 1);
  },
);
