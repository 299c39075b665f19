/**
 * Operator CLI. Works against DATABASE_URL, or against the embedded data directory when no server holds it.
 *
 *   npm run -s cli -- tenant create --name acme [--plan free] [--json]
 *   npm run -s cli -- tenant list [--json]
 *   npm run -s cli -- tenant plan --id <tenant_id> --plan pro [--budget add_calls=5000] [--user-writes-per-minute 30] [--json]
 *   npm run -s cli -- tenant usage --id <tenant_id> [--json]
 *   npm run -s cli -- admin create --tenant <tenant_id> --email ada@example.com [--json]
 *   npm run -s cli -- agent verify --id <agent_id> [--json]
 */
import { parseArgs } from 'node:util';
import {
  ApiError,
  BUDGET_UNITS,
  type BudgetUnit,
  ConfigError,
  PLAN_IDS,
  type PlanId,
  type PlanOverrides,
  type TenantListItem,
  type UsageReport,
  adminEmail,
  createAdminUser,
  createTenant,
  getUsageReport,
  listTenants,
  loadConfig,
  setTenantPlan,
  verifyGlobalAgent,
} from '@memory/core';
import {
  DataDirLockedError,
  acquireDataDirLock,
  createDatabase,
  releaseDataDirLock,
  runMigrations,
} from '@memory/db';

const USAGE = `usage:
  cli tenant create --name <name> [--plan <plan>] [--json]  create a tenant and print its API key (shown once)
  cli tenant list [--json]                                  every tenant: id, name, plan, creation time, active keys
  cli tenant plan --id <tenant_id> --plan <plan> [--budget <unit>=<n|none>]… [--user-writes-per-minute <n|none>]
                  [--tenant-writes-per-minute <n|none>] [--json]
                                                            set the tenant's plan (free, pro, enterprise, unlimited; a new
                                                            period starts now); the options override the plan's limits
  cli tenant usage --id <tenant_id> [--json]                the tenant's plan, period, usage and quota mode
  cli admin create --tenant <tenant_id> --email <email> [--json]   create a console admin of the tenant
  cli agent verify --id <agent_id> [--json]                  mark a global agent verified (shown on its consent page)`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Command =
  | { kind: 'tenant'; name: string; plan: PlanId | null }
  | { kind: 'tenant-list' }
  | { kind: 'tenant-plan'; tenantId: string; plan: PlanId; overrides: PlanOverrides }
  | { kind: 'tenant-usage'; tenantId: string }
  | { kind: 'admin'; tenantId: string; email: string }
  | { kind: 'agent-verify'; agentId: string };

interface Flags {
  name?: string;
  tenant?: string;
  email?: string;
  id?: string;
  plan?: string;
  budget?: string[];
  'user-writes-per-minute'?: string;
  'tenant-writes-per-minute'?: string;
}

function parsePlan(value: string | undefined, required: boolean): PlanId | null {
  if (value === undefined && !required) return null;
  if (!(PLAN_IDS as readonly string[]).includes(value ?? '')) throw new UsageError(`--plan must be one of ${PLAN_IDS.join(', ')}`);
  return value as PlanId;
}

/** `none` removes a limit; otherwise a whole number (at least `min`). */
function limitValue(flag: string, raw: string, min: number): number | null {
  if (raw === 'none') return null;
  if (!/^\d+$/.test(raw) || Number(raw) < min) throw new UsageError(`${flag} must be a whole number of at least ${min}, or none`);
  return Number(raw);
}

function parseOverrides(values: Flags): PlanOverrides {
  const overrides: PlanOverrides = {};
  for (const item of values.budget ?? []) {
    const [unit, raw] = item.split('=');
    if (!(BUDGET_UNITS as readonly string[]).includes(unit) || raw === undefined) {
      throw new UsageError(`--budget takes <unit>=<n|none> with unit one of ${BUDGET_UNITS.join(', ')}`);
    }
    overrides.budgets = { ...overrides.budgets, [unit as BudgetUnit]: limitValue('--budget', raw, 0) };
  }
  for (const flag of ['user-writes-per-minute', 'tenant-writes-per-minute'] as const) {
    const raw = values[flag];
    if (raw === undefined) continue;
    const key = flag === 'user-writes-per-minute' ? 'user_writes_per_minute' : 'tenant_writes_per_minute';
    overrides.rate_limits = { ...overrides.rate_limits, [key]: limitValue(`--${flag}`, raw, 1) };
  }
  return overrides;
}

function tenantId(values: Flags, command: string): string {
  const id = values.id?.trim() ?? '';
  if (!UUID.test(id)) throw new UsageError(`${command} needs --id <tenant_id> (a UUID)`);
  return id;
}

function parseCommand(positionals: string[], values: Flags): Command {
  const [resource, action] = positionals;
  if (resource === 'tenant' && action === 'create') {
    const name = values.name?.trim();
    if (!name) throw new UsageError('tenant create needs --name <name>');
    if (name.length > 200) throw new UsageError('--name must be at most 200 characters');
    return { kind: 'tenant', name, plan: parsePlan(values.plan, false) };
  }
  if (resource === 'tenant' && action === 'list') return { kind: 'tenant-list' };
  if (resource === 'tenant' && action === 'plan') {
    const id = tenantId(values, 'tenant plan');
    return { kind: 'tenant-plan', tenantId: id, plan: parsePlan(values.plan, true)!, overrides: parseOverrides(values) };
  }
  if (resource === 'tenant' && action === 'usage') return { kind: 'tenant-usage', tenantId: tenantId(values, 'tenant usage') };
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
      plan: { type: 'string' },
      budget: { type: 'string', multiple: true },
      'user-writes-per-minute': { type: 'string' },
      'tenant-writes-per-minute': { type: 'string' },
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
    if (command.kind === 'tenant-list') {
      const list = await listTenants(database.db);
      process.stdout.write(values.json ? `${JSON.stringify(list)}\n` : describeTenants(list));
      return 0;
    }
    if (command.kind === 'admin') {
      const admin = await createAdminUser(database.db, command.tenantId, command.email);
      if (values.json) process.stdout.write(`${JSON.stringify(admin)}\n`);
      else process.stdout.write(`admin ${admin.email} created\n  admin_id:  ${admin.admin_id}\n  tenant_id: ${admin.tenant_id}\n`);
      return 0;
    }
    if (command.kind === 'tenant-plan' || command.kind === 'tenant-usage') {
      const report =
        command.kind === 'tenant-plan'
          ? await setTenantPlan(database.db, command.tenantId, { plan: command.plan, overrides: command.overrides }, {
              actor: 'operator',
              env: config.quota.rateLimits,
            })
          : await getUsageReport(database.db, command.tenantId, new Date(), config.quota.rateLimits);
      process.stdout.write(values.json ? `${JSON.stringify(report)}\n` : describeUsage(report));
      return 0;
    }
    const created = await createTenant(database.db, command.name, { plan: command.plan ?? config.quota.defaultPlan });
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

function describeTenants(list: TenantListItem[]): string {
  if (list.length === 0) return 'no tenants (create one with: cli tenant create --name <name>)\n';
  return list
    .map((t) => `${t.tenant_id}  ${t.name}  plan ${t.plan}  created ${t.created_at}  ${t.active_api_keys} active key(s)\n`)
    .join('');
}

function describeUsage(r: UsageReport): string {
  const unit = (u: BudgetUnit) => `  ${u}: ${r.usage[u]} of ${r.budgets[u] ?? 'unlimited'}\n`;
  return (
    `tenant ${r.tenant_id}: plan ${r.plan.id}, quota mode ${r.quota_mode}, budget remaining ` +
    `${r.budget_remaining_pct === null ? 'unlimited' : `${r.budget_remaining_pct}%`}\n` +
    `  period: ${r.period.start} – ${r.period.end}\n${BUDGET_UNITS.map(unit).join('')}`
  );
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
