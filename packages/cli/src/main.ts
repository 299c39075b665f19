/**
 * Operator CLI. Works against DATABASE_URL, or against the embedded data directory when no server holds it.
 *
 *   npm run -s cli -- tenant create --name acme [--json]
 *   npm run -s cli -- admin create --tenant <tenant_id> --email ada@example.com [--json]
 *   npm run -s cli -- agent verify --id <agent_id> [--json]
 */
import { parseArgs } from 'node:util';
import { ApiError, ConfigError, createTenant, loadConfig, verifyGlobalAgent } from '@memory/core';
import { adminEmail, createAdminUser } from '@memory/core/console/admins';
import {
  DataDirLockedError,
  acquireDataDirLock,
  createDatabase,
  releaseDataDirLock,
  runMigrations,
} from '@memory/db';

const USAGE = `usage:
  cli tenant create --name <name> [--json]                  create a tenant and print its API key (shown once)
  cli admin create --tenant <tenant_id> --email <email> [--json]   create a console admin of the tenant
  cli agent verify --id <agent_id> [--json]                  mark a global agent verified (shown on its consent page)`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Command =
  | { kind: 'tenant'; name: string }
  | { kind: 'admin'; tenantId: string; email: string }
  | { kind: 'agent-verify'; agentId: string };

function parseCommand(positionals: string[], values: { name?: string; tenant?: string; email?: string; id?: string }): Command {
  const [resource, action] = positionals;
  if (resource === 'tenant' && action === 'create') {
    const name = values.name?.trim();
    if (!name) throw new UsageError('tenant create needs --name <name>');
    if (name.length > 200) throw new UsageError('--name must be at most 200 characters');
    return { kind: 'tenant', name };
  }
  if (resource === 'admin' && action === 'create') {
    const tenantId = values.tenant?.trim() ?? '';
    if (!UUID.test(tenantId)) throw new UsageError('admin create needs --tenant <tenant_id> (a UUID)');
    const email = adminEmail.safeParse(values.email ?? '');
    if (!email.success) throw new UsageError('admin create needs --email <email> (an e-mail address)');
    return { kind: 'admin', tenantId, email: email.data };
  }
  if (resource === 'agent' && action === 'verify') {
    const agentId = values.id?.trim() ?? '';
    if (!UUID.test(agentId)) throw new UsageError('agent verify needs --id <agent_id> (a UUID)');
    return { kind: 'agent-verify', agentId };
  }
  throw new UsageError(`unknown command: ${positionals.join(' ')}`);
}

class UsageError extends Error {}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      tenant: { type: 'string' },
      email: { type: 'string' },
      id: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || positionals.length === 0) {
    process.stdout.write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  const command = parseCommand(positionals, values);

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
    if (command.kind === 'agent-verify') {
      const agent = await verifyGlobalAgent(database.db, command.agentId);
      if (values.json) process.stdout.write(`${JSON.stringify(agent)}\n`);
      else process.stdout.write(`agent ${agent.name} verified\n  agent_id: ${agent.id}\n`);
      return 0;
    }
    if (command.kind === 'admin') {
      const admin = await createAdminUser(database.db, command.tenantId, command.email);
      if (values.json) process.stdout.write(`${JSON.stringify(admin)}\n`);
      else process.stdout.write(`admin ${admin.email} created\n  admin_id:  ${admin.admin_id}\n  tenant_id: ${admin.tenant_id}\n`);
      return 0;
    }
    const created = await createTenant(database.db, command.name);
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
    else if (err instanceof ApiError) process.stderr.write(`error: ${err.detail}\n`);
    else if (err instanceof Error && (err as NodeJS.ErrnoException).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION')
      process.stderr.write(`error: ${err.message}\n${USAGE}\n`);
    else process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(err instanceof UsageError ? 2 : 1);
  },
);
